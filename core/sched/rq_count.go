package sched

// Whole-runqueue counts the fair class reads across classes:
// rq->nr_running (kernel/sched/sched.h add_nr_running()/sub_nr_running())
// and sched_idle_rq() (fair.c). The simulator's rq.nrRunning counts fair
// tasks only; the RT and deadline classes keep their own counts.

// rqNrRunning is rq->nr_running: the queued tasks of every class,
// including each class's running one and delayed fair tasks. Throttled RT
// tasks are dequeued from it (dequeue_rt_stack() -> sub_nr_running()).
func (s *Sim) rqNrRunning(rq *rq) int {
	n := rq.nrRunning + len(rq.dl.queue)
	if rq.rt.runnable() {
		n += rq.rt.nrRunning
	}
	return n
}

// schedIdleRq mirrors sched_idle_rq(): the runqueue is not empty and every
// task on it (of any class) is a SCHED_IDLE fair task, as
// rq->nr_running == cfs.h_nr_idle. The tasks of task groups are counted
// through their hierarchy (cgroup_fair.go) when groups exist.
func (s *Sim) schedIdleRq(rq *rq) bool {
	n := s.rqNrRunning(rq)
	if n == 0 {
		return false
	}
	if s.grouped() {
		return n == rq.cfs.hIdle
	}
	if !s.schedIdleSeen {
		return false // sched_idle_hint.go: no SCHED_IDLE task, so n > 0 of them is impossible
	}
	// n == idle needs n SCHED_IDLE tasks among curr and the queue: the
	// count stops once more than total-n of them are not (each read of a
	// queued task's policy is a cache miss on a large machine).
	c := rq.cfs.curr
	currCounts := c != nil && c.se.onRq
	total := len(rq.cfs.queue)
	if currCounts {
		total++
	}
	slack := total - n
	if slack < 0 {
		return false
	}
	other := 0
	if currCounts && c.policy != SchedIdle {
		other++
	}
	for _, t := range rq.cfs.queue {
		if other > slack {
			return false
		}
		if t.policy != SchedIdle {
			other++
		}
	}
	return n == total-other
}
