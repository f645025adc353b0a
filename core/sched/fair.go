package sched

// The fair class entry points (struct sched_class fair_sched_class):
// enqueue_task_fair, dequeue_task_fair, pick_next_task_fair, task_tick_fair,
// check_preempt_wakeup, yield_task_fair and task_fork_fair, dispatching to the
// legacy CFS or the EEVDF rules by profile.

// Enqueue and dequeue flags (ENQUEUE_* / DEQUEUE_*), and wake flags (WF_*).
const (
	enqWakeup = 1 << iota
	enqInitial
	enqMigrated
	enqDelayed
	deqSleep
	deqDelayed
	deqSpecial
)

const (
	wfFork = 1 << iota
	wfSync
)

// enqueueTask mirrors enqueue_task() -> enqueue_task_fair().
func (s *Sim) enqueueTask(rq *rq, t *Task, flags int) {
	s.updateRqClock(rq)
	// update_load_avg(): requeue_delayed_entity() ages the delayed entity;
	// enqueue_entity() ages it and attaches a new or migrated one.
	if flags&enqDelayed != 0 {
		s.updateLoadAvg(rq, t, 0)
	} else {
		s.updateLoadAvg(rq, t, peltUpdateTG|peltDoAttach)
	}
	if s.eevdf {
		s.eevdfEnqueue(rq, t, flags)
	} else {
		s.cfsEnqueue(rq, t, flags)
	}
	if flags&enqDelayed == 0 {
		if rq.nrRunning == 0 {
			s.fairServerStart(rq) // enqueue_task_fair(): dl_server_start()
		}
		rq.nrRunning++
		if rq.nrRunning >= 2 {
			s.rdOverload = true // add_nr_running(): set_rd_overloaded()
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
	wasSchedIdle := s.dequeueBalancesSchedIdle() && s.schedIdleRq(rq)
	s.updateLoadAvg(rq, t, peltUpdateTG) // dequeue_entity()
	if s.eevdf {
		if !s.eevdfDequeue(rq, t, flags) {
			return false
		}
	} else {
		s.cfsDequeue(rq, t, flags)
	}
	rq.nrRunning--
	if rq.nrRunning == 0 {
		s.fairServerStop(rq) // dequeue_task_fair(): dl_server_stop()
	}
	if s.dequeueBalancesSchedIdle() && !wasSchedIdle && s.schedIdleRq(rq) {
		rq.nextBalance = s.jiffies() // balance early to pull higher-priority tasks
	}
	return true
}

// updateCurr mirrors update_curr() for the running fair task.
func (s *Sim) updateCurr(rq *rq) {
	if s.eevdf {
		s.eevdfUpdateCurr(rq)
	} else {
		s.cfsUpdateCurr(rq)
	}
}

// pickNextFair mirrors pick_next_task_fair(): pick with prev still the
// queue's curr, then put_prev/set_next only when the task changes. It returns
// nil when no fair task is runnable.
func (s *Sim) pickNextFair(rq *rq, prev *Task) (*Task, PickRule) {
	q := &rq.cfs
	for {
		if q.nrQueued == 0 {
			break
		}
		if q.curr != nil && q.curr.se.onRq {
			s.updateCurr(rq)
		}
		var next *Task
		var rule PickRule
		if s.eevdf {
			next, rule = s.eevdfPickNext(rq)
			if next == nil {
				continue // a delayed task was dequeued: pick again
			}
		} else {
			next, rule = s.cfsPickNext(rq)
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

func (s *Sim) putPrev(rq *rq, t *Task) {
	if t.se.onRq {
		s.updateLoadAvg(rq, t, 0) // put_prev_entity()
	}
	if s.eevdf {
		s.eevdfPutPrev(rq, t)
	} else {
		s.cfsPutPrev(rq, t)
	}
}

func (s *Sim) setNext(rq *rq, t *Task) {
	if t.se.onRq {
		s.updateLoadAvg(rq, t, peltUpdateTG) // set_next_entity()
	}
	t.se.execStart = s.execStartClock(rq, t) // update_stats_curr_start() (rq_clock.go)
	s.lruSeq++
	t.lruSeq = s.lruSeq // pick_next_task_fair(): list_move to cfs_tasks' head
	if s.eevdf {
		s.eevdfSetNext(&rq.cfs, t)
	} else {
		s.cfsSetNext(&rq.cfs, t)
	}
}

// taskTickFair mirrors task_tick_fair() -> entity_tick().
func (s *Sim) taskTickFair(rq *rq) {
	s.updateLoadAvg(rq, rq.curr, peltUpdateTG) // entity_tick()
	if s.eevdf {
		s.eevdfUpdateCurr(rq)
	} else {
		s.cfsTick(rq)
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
}

// yieldTask mirrors yield_task_fair().
func (s *Sim) yieldTask(rq *rq) {
	if s.eevdf {
		s.eevdfYield(rq)
	} else {
		s.cfsYield(rq)
	}
}
