package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// runLog sums each task's time on a CPU from sched_switch and keeps the
// setattr events.
type runLog struct {
	since   map[sched.TaskID]sched.Time
	ran     map[sched.TaskID]sched.Time
	setattr []sched.Event
}

func (l *runLog) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvSwitch:
		if e.Prev != sched.NoTask {
			l.ran[e.Prev] += e.Time - l.since[e.Prev]
		}
		l.since[e.Next] = e.Time
	case sched.EvSetattr:
		l.setattr = append(l.setattr, *e)
	}
}

// TestSetattrStepRuns: a FIFO task that turns itself into SCHED_OTHER
// shares the CPU from then on; a task that renices another halves nothing
// but the other's share: a nice 5 hog against a nice 0 one gets 335/1359.
func TestSetattrStepRuns(t *testing.T) {
	in := doc(`"duration":"1s",`,
		task("a", `"policy":"SCHED_FIFO","priority":10,"loop":1,`, `{"run":"100ms"},{"setattr":{"policy":"SCHED_OTHER"}},{"run":-1}`),
		task("b", ``, `{"run":-1}`),
		task("c", `"start":"500ms","loop":1,`, `{"nice":5,"task":"a"},{"exit":true}`))
	sim := buildRun(t, in, sched.DefaultLimits())
	l := &runLog{since: map[sched.TaskID]sched.Time{}, ran: map[sched.TaskID]sched.Time{}}
	sim.Attach(l)
	sim.RunUntil(sched.Second)
	if err := sim.Err(); err != nil {
		t.Fatal(err)
	}
	// a: 100ms alone, then ~200ms of the next 400ms, then 335/1359 of 500ms.
	want := 100*sched.Millisecond + 200*sched.Millisecond + 500*sched.Millisecond*335/1359
	if got := l.ran[0]; got < want-8*sched.Millisecond || got > want+8*sched.Millisecond {
		t.Errorf("a ran %s, want %s +- 8ms", got, want)
	}
	if len(l.setattr) != 2 || l.setattr[0].Next != 0 || l.setattr[0].Arg != 89 || l.setattr[1].Prev != 2 || l.setattr[1].Arg != 120 {
		t.Errorf("setattr events %+v, want a by a from prio 89, a by c from prio 120", l.setattr)
	}
	if info := sim.TaskInfo(0); info.Policy != sched.SchedOther || info.Nice != 5 || info.Prio != 125 || info.RTPriority != 0 {
		t.Errorf("a's TaskInfo at the end %+v, want SCHED_OTHER nice 5 prio 125", info)
	}
}

// TestSetattrDecodeErrors: bad setattr and nice events are errors naming
// their JSON path.
func TestSetattrDecodeErrors(t *testing.T) {
	for _, c := range []struct{ prog, path, msg string }{
		{`{"setattr":{"priority":3}}`, "tasks[0].program[0].setattr.policy", "missing"},
		{`{"setattr":{"policy":"SCHED_FOO"}}`, "tasks[0].program[0].setattr.policy", "unknown policy"},
		{`{"setattr":{"policy":"SCHED_FIFO"}}`, "tasks[0].program[0].setattr.priority", "1..99"},
		{`{"setattr":{"policy":"SCHED_RR","priority":100}}`, "tasks[0].program[0].setattr.priority", "1..99"},
		{`{"setattr":{"policy":"SCHED_OTHER","priority":5}}`, "tasks[0].program[0].setattr.priority", "takes no priority"},
		{`{"setattr":{"policy":"SCHED_OTHER","nice":20}}`, "tasks[0].program[0].setattr.nice", "-20..19"},
		{`{"setattr":{"policy":"SCHED_FIFO","priority":5,"nice":1}}`, "tasks[0].program[0].setattr.nice", "takes no nice"},
		{`{"setattr":{"policy":"SCHED_DEADLINE","dl_period":"10ms"}}`, "tasks[0].program[0].setattr.dl_runtime", "missing"},
		{`{"setattr":{"policy":"SCHED_DEADLINE","dl_runtime":"5ms","dl_deadline":"4ms","dl_period":"10ms"}}`, "tasks[0].program[0].setattr", "runtime <= deadline <= period"},
		{`{"setattr":{"policy":"SCHED_DEADLINE","dl_runtime":"5ms","dl_deadline":"12ms","dl_period":"10ms"}}`, "tasks[0].program[0].setattr", "runtime <= deadline <= period"},
		{`{"setattr":{"policy":"SCHED_BATCH","dl_runtime":"1ms"}}`, "tasks[0].program[0].setattr.dl_runtime", "takes no deadline"},
		{`{"setattr":{"policy":"SCHED_OTHER","cpus":[0]}}`, "tasks[0].program[0].setattr.cpus", "unknown"},
		{`{"setattr":"SCHED_FIFO"}`, "tasks[0].program[0].setattr", "object"},
		{`{"nice":-21}`, "tasks[0].program[0].nice", "-20..19"},
		{`{"nice":"5"}`, "tasks[0].program[0].nice", ""},
		{`{"run":"1ms","task":"hog"}`, "tasks[0].program[0].task", "only a setattr or nice"},
		{`{"nice":1,"task":7}`, "tasks[0].program[0].task", "name of a task group"},
	} {
		_, err := Decode([]byte(doc(``, task("t", ``, c.prog), hog)))
		if err == nil {
			t.Errorf("%s: decoded, want an error at %s", c.prog, c.path)
			continue
		}
		e := asError(t, c.prog, err)
		if e.Path != c.path || !strings.Contains(e.Error(), c.msg) {
			t.Errorf("%s: got %q at %s, want %q at %s", c.prog, e.Error(), e.Path, c.msg, c.path)
		}
	}
	// A task group the scenario lacks is an error naming the event.
	_, err := Decode([]byte(doc(``, task("t", ``, `{"nice":1,"task":"nobody"},{"run":-1}`))))
	if e := asError(t, "unknown group", err); e.Path != "tasks[0].program[0].task" || !strings.Contains(e.Error(), "nobody") {
		t.Errorf("unknown task group: got %q at %s", e.Error(), e.Path)
	}
}

// TestSetattrRoundTrip: the canonical encoding keeps every field, and the
// deadline defaults are filled in once.
func TestSetattrRoundTrip(t *testing.T) {
	in := doc(``, task("t", ``, `{"setattr":{"policy":"SCHED_DEADLINE","dl_runtime":"1ms","dl_period":"10ms"}},{"setattr":{"policy":"SCHED_NORMAL","nice":-3},"task":"hog"},{"nice":4},{"setattr":{"policy":"SCHED_RR","priority":7}},{"run":-1}`), hog)
	sc, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	js := string(sc.Encode())
	for _, want := range []string{`{"setattr":{"policy":"SCHED_DEADLINE","dl_runtime":"1ms","dl_deadline":"10ms","dl_period":"10ms"}}`,
		`{"setattr":{"policy":"SCHED_OTHER","nice":-3},"task":"hog"}`, `{"nice":4}`, `{"setattr":{"policy":"SCHED_RR","priority":7}}`} {
		if !strings.Contains(js, want) {
			t.Errorf("encoding lacks %s:\n%s", want, js)
		}
	}
	checkDecoded(t, sc)
}
