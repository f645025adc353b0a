package sched_test

import (
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// preemptions counts the switches that took the CPU from a runnable task.
type preemptions struct{ n int }

func (p *preemptions) Event(e *sched.Event) {
	if e.Kind == sched.EvSwitch && e.PrevState == 'R' && e.Prev != sched.NoTask {
		p.n++
	}
}

// TestEventsProcessedExcludesCancelled: two tasks with 10 ms runs share a
// CPU, so each preemption leaves the preempted run's completion queued and
// stale. EventsProcessed counts the events handled: the Step calls less
// the stale and deferred entries; the metrics report's "events" keeps its
// meaning, every entry popped (EventsPopped).
func TestEventsProcessedExcludesCancelled(t *testing.T) {
	prog := []sched.Op{{Kind: sched.OpRun, Dur: 10 * sched.Millisecond}, {Kind: sched.OpSleep, Dur: sched.Millisecond}}
	s := tracetest.NewRun(t, "smp-1", 200*sched.Millisecond, []sched.TaskSpec{
		{Name: "a", Instances: 2, Parent: -1, Loop: -1, Program: prog},
	})
	pre := &preemptions{}
	col := metrics.New(s.NumCPUs())
	s.Attach(pre)
	s.Attach(col)
	steps := int64(0)
	for s.Step() {
		steps++
	}
	steps++ // the last Step, which ends the run, reports false
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	popped, done, stale := s.EventsPopped(), s.EventsProcessed(), s.EventsCancelled()
	if popped != steps {
		t.Errorf("EventsPopped %d, want the %d entries popped", popped, steps)
	}
	if pre.n == 0 || stale < int64(pre.n) {
		t.Errorf("%d cancelled events for %d preemptions: want at least one per preemption", stale, pre.n)
	}
	if done > popped-stale {
		t.Errorf("EventsProcessed %d counts cancelled events (popped %d, cancelled %d)", done, popped, stale)
	}
	if rep := col.Build(s, "t"); rep.Events != popped {
		t.Errorf("metrics events %d, want EventsPopped %d", rep.Events, popped)
	}
}
