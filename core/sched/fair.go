package sched

// The fair class entry points (struct sched_class fair_sched_class):
// enqueue_task_fair, dequeue_task_fair, pick_next_task_fair, task_tick_fair,
// check_preempt_wakeup, yield_task_fair and task_fork_fair, dispatching to the
// legacy CFS or the EEVDF rules by profile. With task groups the walks over
// the hierarchy are in cgroup_fair.go; a flat run keeps the single-level
// paths here.

// Enqueue and dequeue flags (ENQUEUE_* / DEQUEUE_*), and wake flags (WF_*).
const (
	enqWakeup = 1 << iota
	enqInitial
	enqMigrated
	enqDelayed
	deqSleep
	deqDelayed
	deqSpecial
	deqMigrating // the task moves to another CPU (task_on_rq_migrating()): PELT detaches it
)

const (
	wfFork = 1 << iota
	wfSync
)

// enqueueTask mirrors enqueue_task() -> enqueue_task_fair().
func (s *Sim) enqueueTask(rq *rq, t *Task, flags int) {
	s.updateRqClock(rq)
	s.utilEstEnqueue(rq, t, flags) // util_est.go
	add := 1
	if s.grouped() {
		add = s.enqueueEntities(rq, t, flags)
	} else {
		// update_load_avg(): requeue_delayed_entity() ages the delayed entity;
		// enqueue_entity() ages it and attaches a new or migrated one.
		if flags&enqDelayed != 0 {
			s.updateLoadAvg(rq, t, 0)
		} else {
			s.updateLoadAvg(rq, t, peltUpdateTG|peltDoAttach)
		}
		s.entityEnqueue(rq, &rq.cfs, t, flags)
	}
	if flags&enqDelayed == 0 {
		if add > 0 {
			if rq.nrRunning == 0 {
				s.fairServerStart(rq) // enqueue_task_fair(): dl_server_start()
			}
			rq.nrRunning += add
			if rq.nrRunning >= 2 {
				s.rdOf(rq.cpu).overload = true // add_nr_running(): set_rd_overloaded()
			}
		}
		s.lruSeq++
		t.lruSeq = s.lruSeq // account_entity_enqueue(): list_add to cfs_tasks' head
	}
}

// dequeueTask mirrors dequeue_task() -> dequeue_task_fair(). It returns
// false when the task stays queued as delayed (it still counts in
// nr_running until it is picked or woken).
func (s *Sim) dequeueTask(rq *rq, t *Task, flags int) bool {
	s.updateRqClock(rq)
	wasSchedIdle := s.rules.schedIdleBalanceEarly && s.schedIdleRq(rq)
	if flags&deqDelayed == 0 {
		s.utilEstDequeueTask(rq, t, flags) // util_est.go
	}
	sub := 1
	if s.grouped() {
		var ok bool
		if ok, sub = s.dequeueEntities(rq, t, flags); !ok {
			return false
		}
	} else {
		s.updateLoadAvg(rq, t, peltUpdateTG) // dequeue_entity()
		if !s.entityDequeue(rq, &rq.cfs, t, flags) {
			return false
		}
	}
	if flags&deqDelayed == 0 {
		s.utilEstDequeued(rq, t, flags)
	}
	if sub > 0 {
		rq.nrRunning -= sub
		s.noteMayIdle(rq) // idle_hint.go
		if rq.nrRunning == 0 {
			s.fairServerStop(rq) // dequeue_task_fair(): dl_server_stop()
		}
	}
	if s.rules.schedIdleBalanceEarly && !wasSchedIdle && s.schedIdleRq(rq) {
		rq.nextBalance = s.jiffies() // balance early to pull higher-priority tasks
	}
	return true
}

// updateCurr mirrors update_curr_fair(): update_curr() on the running
// task's cfs_rq.
func (s *Sim) updateCurr(rq *rq) {
	q := &rq.cfs
	if s.grouped() {
		if c := rq.curr; c != nil && s.fairCurr(c) {
			q = s.cfsOf(c)
		}
	}
	s.updateCurrQ(rq, q)
}

// updateCurrQ is update_curr(cfs_rq).
func (s *Sim) updateCurrQ(rq *rq, q *cfsRq) {
	if s.eevdf {
		s.eevdfUpdateCurr(rq, q)
	} else {
		s.cfsUpdateCurr(rq, q)
	}
}

// pickNextFair mirrors pick_next_task_fair(): pick with prev still the
// queue's curr, then put_prev/set_next only when the task changes. It returns
// nil when no fair task is runnable.
func (s *Sim) pickNextFair(rq *rq, prev *Task) (*Task, PickRule) {
	if s.grouped() {
		return s.pickNextFairGroup(rq, prev)
	}
	q := &rq.cfs
	for {
		if q.nrQueued == 0 {
			break
		}
		if q.curr != nil && q.curr.se.onRq {
			s.updateCurrQ(rq, q)
		}
		var next *Task
		var rule PickRule
		if s.eevdf {
			next, rule = s.eevdfPickNext(rq, q)
			if next == nil {
				continue // a delayed task was dequeued: pick again
			}
		} else {
			next, rule = s.cfsPickNext(q)
		}
		if next != prev {
			if prev != nil {
				s.putPrev(rq, prev)
			}
			s.setNext(rq, next)
		}
		s.updateMisfitStatus(next, rq)
		return next, rule
	}
	if prev != nil && q.curr == prev {
		s.putPrev(rq, prev)
	}
	s.updateMisfitStatus(nil, rq) // sched_balance_newidle() clears it
	return nil, PickIdle
}

// putPrev mirrors put_prev_task_fair(): put_prev_entity() at every level.
func (s *Sim) putPrev(rq *rq, t *Task) {
	for se := t; se != nil; se = s.parentOf(se) {
		s.putPrevEntity(rq, se)
	}
}

// setNext mirrors set_next_task_fair(): set_next_entity() at every level,
// and account_cfs_rq_runtime(cfs_rq, 0) to make sure a limited level has
// runtime (cgroup_bandwidth.go).
func (s *Sim) setNext(rq *rq, t *Task) {
	for se := t; se != nil; se = s.parentOf(se) {
		s.setNextEntity(rq, se)
		if q := s.cfsOf(se); q.bwq.enabled {
			s.accountCfsRqRuntime(q, 0)
		}
	}
}

// putPrevEntity mirrors put_prev_entity() on the entity's cfs_rq.
func (s *Sim) putPrevEntity(rq *rq, t *Task) {
	q := s.cfsOf(t)
	if t.se.onRq {
		s.updateLoadAvg(rq, t, 0) // put_prev_entity()
	}
	if s.eevdf {
		s.eevdfPutPrev(rq, q, t)
	} else {
		s.cfsPutPrev(rq, q, t)
	}
	s.checkCfsRqRuntimeAtPut(q) // cgroup_bandwidth.go
}

// setNextEntity mirrors set_next_entity() on the entity's cfs_rq.
func (s *Sim) setNextEntity(rq *rq, t *Task) {
	q := s.cfsOf(t)
	if t.se.onRq {
		s.updateLoadAvg(rq, t, peltUpdateTG) // set_next_entity()
	}
	t.se.execStart = s.execStartClock(rq, t) // update_stats_curr_start() (rq_clock.go)
	if t.my == nil {
		s.lruSeq++
		t.lruSeq = s.lruSeq // pick_next_task_fair(): list_move to cfs_tasks' head
	}
	if s.eevdf {
		s.eevdfSetNext(q, t)
	} else {
		s.cfsSetNext(q, t)
	}
}

// taskTickFair mirrors task_tick_fair() -> entity_tick().
func (s *Sim) taskTickFair(rq *rq) {
	if s.grouped() {
		s.taskTickGroup(rq)
	} else {
		s.updateLoadAvg(rq, rq.curr, peltUpdateTG) // entity_tick()
		if s.eevdf {
			s.eevdfUpdateCurr(rq, &rq.cfs)
		} else {
			s.cfsTick(rq, &rq.cfs)
		}
	}
	s.updateMisfitStatus(rq.curr, rq)
}

// checkPreemptCurr mirrors wakeup_preempt() (check_preempt_curr()): the idle
// task always gives way; between fair tasks the class decides.
func (s *Sim) checkPreemptCurr(rq *rq, p *Task, wakeFlags int) {
	if s.wakeupPreempt(rq, p, wakeFlags) {
		return
	}
	if s.eevdf {
		s.eevdfCheckPreemptWakeup(rq, p, wakeFlags)
	} else {
		s.cfsCheckPreemptWakeup(rq, p, wakeFlags)
	}
	if rq.curr != nil && rq.curr.clockPoll > 0 {
		s.rearmPoll(rq) // the wakee may have moved curr's protection (clock_poll.go)
	}
}

// yieldTask mirrors yield_task_fair().
func (s *Sim) yieldTask(rq *rq) {
	if s.eevdf {
		s.eevdfYield(rq)
	} else {
		s.cfsYield(rq)
	}
}
