package sched

// The fair class's walks over the task-group hierarchy
// (CONFIG_FAIR_GROUP_SCHED), kernel/sched/fair.c: enqueue_task_fair(),
// dequeue_entities() (dequeue_task_fair() before v6.12),
// pick_next_task_fair() with pick_task_fair() and the put/set walk of
// is_same_group(), put_prev_task_fair(), set_next_task_fair() and
// task_tick_fair(). Each level is one cfs_rq, handled by the single-level
// functions of eevdf.go and cfs.go.
//
// Enqueue goes up from the task until an ancestor is already queued;
// the levels above only update their load, group weight and counts.
// Dequeue goes up while the level it left is empty; with DELAY_DEQUEUE a
// group entity can be kept queued (delayed) like a task. From v6.12 a
// group entity's slice is the smallest slice queued below it
// (aef6987d8954, "Propagate min_slice up the cgroup hierarchy").
// h_nr_queued, h_nr_delayed and h_nr_idle are kept per cfs_rq.
//
// Flat runs do not come here (fair.go calls these only when the run has
// task groups).

// enqueueEntities mirrors enqueue_task_fair() for task p. It returns the
// number of tasks to add to rq->nr_running (0 when p lands under a
// throttled cfs_rq, whose tasks do not count).
func (s *Sim) enqueueEntities(rq *rq, p *Task, flags int) int {
	if flags&enqDelayed != 0 {
		s.updateLoadAvg(rq, p, 0)
		s.entityEnqueue(rq, s.cfsOf(p), p, flags)
		for se := p; se != nil; se = s.parentOf(se) { // clear_delayed()
			q := s.cfsOf(se)
			q.hDelayed--
			if q.bwq.throttled && !s.rules.taskThrottle {
				break
			}
		}
		return 0
	}
	idle := p.policy == SchedIdle
	// A delayed task enqueued without ENQUEUE_WAKEUP (task_new: a balancer
	// move or a restore) arrives still delayed: in h_nr_queued, not
	// h_nr_runnable.
	delayed := 0
	if p.se.delayed && flags&enqWakeup == 0 {
		delayed = 1
	}
	slice := int64(-1)
	se := p
	for ; se != nil; se = s.parentOf(se) {
		if se.se.onRq {
			if se.se.delayed {
				s.updateLoadAvg(rq, se, 0) // requeue_delayed_entity()
				s.entityEnqueue(rq, s.cfsOf(se), se, enqDelayed)
			}
			break
		}
		q := s.cfsOf(se)
		if s.eevdf && s.rules.groupMinSlice && slice >= 0 {
			se.se.slice, se.se.customSlice = slice, true
		}
		s.updateLoadAvg(rq, se, peltUpdateTG|peltDoAttach)
		s.entityEnqueue(rq, q, se, flags)
		if q.nrQueued == 1 {
			s.checkEnqueueThrottle(q)  // enqueue_entity(); cgroup_bandwidth.go
			s.peltClockEnqueued(rq, q) // cgroup_pelt_clock.go
		}
		slice = eevdfMinSlice(q)
		s.hAdd(q, 1, delayed, idle)
		if q.tg != nil && q.tg.idle {
			idle = true
		}
		if q.bwq.throttled && !s.rules.taskThrottle {
			return 0
		}
		flags = enqWakeup
	}
	for ; se != nil; se = s.parentOf(se) {
		q := s.cfsOf(se)
		s.updateLoadAvg(rq, se, peltUpdateTG)
		s.updateCfsGroup(se)
		if s.eevdf && s.rules.groupMinSlice && slice >= 0 {
			se.se.slice = slice
		}
		slice = eevdfMinSlice(q)
		s.hAdd(q, 1, delayed, idle)
		if q.tg != nil && q.tg.idle {
			idle = true
		}
		if q.bwq.throttled && !s.rules.taskThrottle {
			return 0
		}
	}
	return 1
}

// hAdd adds n tasks, delayed of them delayed (idle: counted in h_nr_idle
// too), to q's counts.
func (s *Sim) hAdd(q *cfsRq, n, delayed int, idle bool) {
	q.hNr += n
	q.hDelayed += delayed
	if idle {
		q.hIdle += n
	}
}

// dequeueEntities mirrors dequeue_entities() for entity p (a task, or a
// delayed group entity picked by the EEVDF pick). It returns false when p,
// a task, stays queued as delayed, and how many tasks leave rq->nr_running.
// A delayed task leaves h_nr_delayed both when its delay finishes
// (DEQUEUE_DELAYED) and when it is moved still delayed (no DEQUEUE_SLEEP:
// a balancer move or a save/restore): h_nr_runnable never counted it.
func (s *Sim) dequeueEntities(rq *rq, p *Task, flags int) (bool, int) {
	n, delayed := 0, 0
	idle := false
	sleep := flags&deqSleep != 0
	if p.my == nil {
		n, idle = 1, p.policy == SchedIdle
		if flags&deqDelayed != 0 || (p.se.delayed && !sleep) {
			delayed = 1
		}
	}
	migrating := flags&deqMigrating != 0
	flags &^= deqMigrating
	slice := int64(-1)
	se := p
	for ; se != nil; se = s.parentOf(se) {
		q := s.cfsOf(se)
		pf := peltUpdateTG
		if migrating && se == p {
			pf |= peltDoDetach
		}
		s.updateLoadAvg(rq, se, pf)
		if !s.entityDequeue(rq, q, se, flags) {
			if se == p && p.my == nil {
				for e := p; e != nil; e = s.parentOf(e) { // set_delayed()
					c := s.cfsOf(e)
					c.hDelayed++
					if c.bwq.throttled && !s.rules.taskThrottle {
						break
					}
				}
				return false, 0
			}
			slice = eevdfMinSlice(q)
			break
		}
		s.hSub(q, n, delayed, idle)
		if q.tg != nil && q.tg.idle {
			idle = n > 0
		}
		if q.bwq.throttled && !s.rules.taskThrottle {
			return true, 0
		}
		if q.load.weight != 0 {
			slice = eevdfMinSlice(q)
			se = s.parentOf(se)
			// Bias the next pick towards this cfs_rq: p sleeps within its
			// slice (under a throttled hierarchy too from v6.18).
			if sleep && se != nil && (s.rules.throttledTasksNormal || !s.throttledHierarchy(q)) {
				s.setNextBuddy(se)
			}
			break
		}
		flags |= deqSleep
		flags &^= deqDelayed | deqSpecial
	}
	for ; se != nil; se = s.parentOf(se) {
		q := s.cfsOf(se)
		s.updateLoadAvg(rq, se, peltUpdateTG)
		s.updateCfsGroup(se)
		if s.eevdf && s.rules.groupMinSlice && slice >= 0 {
			se.se.slice = slice
		}
		slice = eevdfMinSlice(q)
		s.hSub(q, n, delayed, idle)
		if q.tg != nil && q.tg.idle {
			idle = n > 0
		}
		if q.bwq.throttled && !s.rules.taskThrottle {
			return true, 0
		}
	}
	return true, n
}

func (s *Sim) hSub(q *cfsRq, n, delayed int, idle bool) {
	q.hNr -= n
	q.hDelayed -= delayed
	if idle {
		q.hIdle -= n
	}
}

// entityEnqueue / entityDequeue dispatch enqueue_entity() / dequeue_entity().
func (s *Sim) entityEnqueue(rq *rq, q *cfsRq, se *Task, flags int) {
	if s.eevdf {
		s.eevdfEnqueue(rq, q, se, flags)
	} else {
		s.cfsEnqueue(rq, q, se, flags)
	}
}

func (s *Sim) entityDequeue(rq *rq, q *cfsRq, se *Task, flags int) bool {
	if s.eevdf {
		done := s.eevdfDequeue(rq, q, se, flags)
		if s.rules.migratePeltLag && q.nrQueued == 0 {
			s.updateIdleCfsRqClockPelt(q) // dequeue_entity()
			s.peltClockDequeued(rq, q)    // cgroup_pelt_clock.go
		}
		return done
	}
	s.cfsDequeue(rq, q, se, flags)
	return true
}

// pickNextFairGroup mirrors pick_task_fair() and the put/set part of
// pick_next_task_fair(): descend from the root picking one entity per
// level; then put prev's entities and set next's only below the first
// cfs_rq they share.
func (s *Sim) pickNextFairGroup(rq *rq, prev *Task) (*Task, PickRule) {
again:
	q := &rq.cfs
	if q.nrQueued == 0 {
		if prev != nil && s.fairCurr(prev) {
			s.putPrev(rq, prev)
		}
		s.updateMisfitStatus(nil, rq)
		return nil, PickIdle
	}
	rule := PickNone
	var next *Task
	throttled := false
	for {
		if q.curr != nil && q.curr.se.onRq {
			s.updateCurrQ(rq, q)
		}
		if s.checkCfsRqRuntime(q) { // cgroup_bandwidth.go
			if !s.rules.taskThrottle {
				goto again
			}
			throttled = true // v6.18: the task is throttled on its way back to user mode
		}
		var e *Task
		var r PickRule
		if s.eevdf {
			e, r = s.eevdfPickNext(rq, q)
		} else {
			e, r = s.cfsPickNext(q)
		}
		if e == nil {
			goto again // a delayed entity was dequeued
		}
		if rule == PickNone || r != PickOnly {
			rule = r
		}
		if e.my == nil {
			next = e
			break
		}
		q = e.my
	}
	if throttled && s.taskThrottleAtPick(rq, next) { // cgroup_throttle_task.go
		goto again
	}
	if next != prev {
		if prev != nil && s.fairCurr(prev) {
			se, pse := next, prev
			for se.tg != pse.tg {
				sd, pd := se.depth, pse.depth
				if sd <= pd {
					s.putPrevEntity(rq, pse)
					pse = s.parentOf(pse)
				}
				if sd >= pd {
					s.setNextEntity(rq, se)
					se = s.parentOf(se)
				}
			}
			s.putPrevEntity(rq, pse)
			s.setNextEntity(rq, se)
		} else {
			s.setNext(rq, next)
		}
	}
	s.updateMisfitStatus(next, rq)
	return next, rule
}

// taskTickGroup mirrors task_tick_fair(): entity_tick() at every level.
func (s *Sim) taskTickGroup(rq *rq) {
	for se := rq.curr; se != nil; se = s.parentOf(se) {
		q := s.cfsOf(se)
		s.updateLoadAvg(rq, se, peltUpdateTG)
		s.updateCfsGroup(se)
		if s.eevdf {
			s.eevdfUpdateCurr(rq, q)
		} else {
			s.cfsTick(rq, q)
		}
	}
}

// hNrRunnable is rq->cfs.h_nr_runnable: fair tasks queued, not delayed.
func (s *Sim) hNrRunnable(rq *rq) int {
	if s.grouped() {
		return rq.cfs.hNr - rq.cfs.hDelayed
	}
	return rq.cfs.nrQueued - rq.cfs.nrDelayed
}

// hNrDelayed is rq->cfs.h_nr_delayed.
func (s *Sim) hNrDelayed(rq *rq) int {
	if s.grouped() {
		return rq.cfs.hDelayed
	}
	return rq.cfs.nrDelayed
}
