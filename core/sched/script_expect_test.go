package sched

// The expect-* commands of the testdata scripts: checks whose numbers are
// derived in the scripts' comments. A failed check fails the test even
// under -rewrite.

import "strconv"

// matchTask reports whether id is the task named (group or full name).
func (r *testRun) matchTask(id TaskID, name string) bool {
	if name == "idle" {
		return id == NoTask
	}
	if id == NoTask {
		return false
	}
	info := r.TaskInfo(id)
	return info.Group == name || info.Name == name
}

// switchMatches applies the optional cpu/prev/next/reason/pick filters.
func (e *scriptEnv) switchMatches(ev *Event) bool {
	r := e.run()
	if v, ok := e.arg("cpu"); ok && strconv.Itoa(int(ev.CPU)) != v {
		return false
	}
	if v, ok := e.arg("prev"); ok && !r.matchTask(ev.Prev, v) {
		return false
	}
	if v, ok := e.arg("next"); ok && !r.matchTask(ev.Next, v) {
		return false
	}
	if v, ok := e.arg("reason"); ok && ev.Reason.String() != v {
		return false
	}
	if v, ok := e.arg("pick"); ok && ev.Pick.String() != v {
		return false
	}
	return true
}

// expect-switch at=D [cpu=N] [prev=T] [next=T] [reason=R] [pick=P]: a
// matching switch happened at exactly D.
func cmdExpectSwitch(e *scriptEnv) string {
	r := e.run()
	at := e.mustDur("at")
	var seen []string
	for i := range r.rec.events {
		ev := &r.rec.events[i]
		if ev.Kind != EvSwitch || ev.Time != at {
			continue
		}
		if e.switchMatches(ev) {
			return "ok"
		}
		seen = append(seen, r.describe(ev))
	}
	return e.fail("no such switch at %s (switches then: %v)", fmtMs(at), seen)
}

// expect-no-switch from=D to=D [cpu=N] ...: no matching switch in [from, to].
func cmdExpectNoSwitch(e *scriptEnv) string {
	r := e.run()
	from, to := e.mustDur("from"), e.mustDur("to")
	for i := range r.rec.events {
		ev := &r.rec.events[i]
		if ev.Kind == EvSwitch && ev.Time >= from && ev.Time <= to && e.switchMatches(ev) {
			return e.fail("unexpected %s", r.describe(ev))
		}
	}
	return "ok"
}

// expect-first-run task=T after=D at=D [reason=R]: the first switch that
// puts the task on a CPU at or after `after` happens at `at`.
func cmdExpectFirstRun(e *scriptEnv) string {
	r := e.run()
	name, _ := e.arg("task")
	after, at := e.mustDur("after"), e.mustDur("at")
	for i := range r.rec.events {
		ev := &r.rec.events[i]
		if ev.Kind != EvSwitch || ev.Time < after || !r.matchTask(ev.Next, name) {
			continue
		}
		if ev.Time != at {
			return e.fail("first run of %s after %s is at %s, want %s", name, fmtMs(after), fmtMs(ev.Time), fmtMs(at))
		}
		if v, ok := e.arg("reason"); ok && ev.Reason.String() != v {
			return e.fail("first run of %s at %s has reason %s, want %s", name, fmtMs(at), ev.Reason, v)
		}
		return "ok"
	}
	return e.fail("%s does not run after %s", name, fmtMs(after))
}
