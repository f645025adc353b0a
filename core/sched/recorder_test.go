package sched

// The event recorder and what can be derived from its events alone, as an
// outside observer (a trace consumer) would.

import "fmt"

// recorder is a Sink that keeps every event.
type recorder struct {
	events []Event
}

func (r *recorder) Event(e *Event) { r.events = append(r.events, *e) }

// of returns the recorded events of kind k.
func (r *recorder) of(k EventKind) []Event {
	var out []Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// runtimes derives each task's CPU time up to end from the switch events
// alone. It checks that each switch's prev is what the CPU was running.
func (r *recorder) runtimes(end Time) (map[TaskID]Time, error) {
	type cpuState struct {
		curr  TaskID
		since Time
	}
	cpus := map[CPUID]*cpuState{}
	out := map[TaskID]Time{}
	for _, e := range r.events {
		if e.Kind != EvSwitch || e.Time > end {
			continue
		}
		c := cpus[e.CPU]
		if c == nil {
			c = &cpuState{curr: NoTask}
			cpus[e.CPU] = c
		}
		if c.curr != e.Prev {
			return nil, fmt.Errorf("switch at %s on cpu %d: prev %d but the cpu ran %d", e.Time, e.CPU, e.Prev, c.curr)
		}
		if c.curr != NoTask {
			out[c.curr] += e.Time - c.since
		}
		c.curr, c.since = e.Next, e.Time
	}
	for _, c := range cpus {
		if c.curr != NoTask {
			out[c.curr] += end - c.since
		}
	}
	return out, nil
}

// runtime is one task's CPU time up to end (fails the test on an
// inconsistent stream).
func (r *testRun) runtime(id TaskID) Time {
	r.t.Helper()
	rt, err := r.rec.runtimes(r.Now())
	if err != nil {
		r.t.Fatal(err)
	}
	return rt[id]
}

// switchesIn returns the switch events that put task id on a CPU.
func (r *recorder) switchesIn(id TaskID) []Event {
	var out []Event
	for _, e := range r.events {
		if e.Kind == EvSwitch && e.Next == id {
			out = append(out, e)
		}
	}
	return out
}
