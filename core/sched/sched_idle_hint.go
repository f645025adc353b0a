package sched

// A shortcut for sched_idle_cpu() and sched_idle_rq() (kernel/sched/fair.c)
// on flat runs. The kernel compares rq->nr_running with cfs.h_nr_idle, a
// count it keeps at every enqueue; the simulator keeps h_nr_idle only for
// task groups and otherwise reads the policy of the current and every
// queued task, a cache miss per task on a large machine, for an answer
// that is "no" whenever no task has SCHED_IDLE. schedIdleSeen is set once
// a task has the policy (at creation or by sched_setattr()) and never
// cleared, so while it is false the readers can answer from the runqueue
// alone, with the same result (checked after every event under -tags
// invariants).

import "fmt"

// noteSchedIdlePolicy records that a task has (or takes) policy p.
func (s *Sim) noteSchedIdlePolicy(p Policy) {
	if p == SchedIdle {
		s.schedIdleSeen = true
	}
}

// checkSchedIdleHint panics when a task has SCHED_IDLE but the hint says
// none ever had.
func (s *Sim) checkSchedIdleHint() {
	if s.schedIdleSeen {
		return
	}
	for _, t := range s.tasks {
		if t.policy == SchedIdle {
			panic(fmt.Sprintf("invariant: task %s has SCHED_IDLE but the sched-idle hint is off at %s", t.name, s.now))
		}
	}
}
