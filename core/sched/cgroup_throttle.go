package sched

// Throttling and unthrottling a cfs_rq: kernel/sched/fair.c
// throttle_cfs_rq() and unthrottle_cfs_rq() (the per-cfs_rq model every
// profile up to v6.17 runs; see cgroup_bandwidth.go).
//
// Throttle: the group entity leaves its parent cfs_rq (DEQUEUE_SLEEP, and
// from v6.12 DEQUEUE_SPECIAL so that it is not delayed; a delayed one is
// finished), and further up while the parents are left empty; the levels
// above only lose the tasks from their counts; the tasks stop counting in
// rq->nr_running. The cfs_rq joins the group's throttled list (at the tail)
// and its throttled clock starts. Unthrottle is the reverse, with
// ENQUEUE_WAKEUP placement of each group entity put back; an idle CPU that
// gets something to run is rescheduled.

import "slices"

// throttleCfsRq mirrors throttle_cfs_rq(). It reports whether q is now
// throttled.
func (s *Sim) throttleCfsRq(q *cfsRq) bool {
	tg := q.tg
	bw := &tg.bw
	rq := &s.rqs[q.se.cpu]
	if s.rules.throttleRaceCheck && s.assignRuntime(q, 1) {
		return false // raced with runtime becoming available
	}
	bw.throttledList = append(bw.throttledList, q)
	s.tgThrottleDown(rq, q) // freeze the hierarchy's PELT clock (cgroup_pelt_clock.go)
	if s.rules.taskThrottle {
		q.bwq.throttled = true
		q.bwq.throttledClock = -1 // starts when the first task is throttled
		s.emit(Event{Kind: EvCgroupThrottle, CPU: rq.cpu, Prev: taskID(rq.curr), Next: NoTask, Reason: ReasonCgroupThrottled, Arg: int64(tg.id)})
		return true
	}
	nr, delayed, idle := q.hNr, q.hDelayed, q.hIdle
	se := q.se
	reachedRoot := true
	for ; se != nil; se = s.parentOf(se) {
		pq := s.cfsOf(se)
		if !se.se.onRq {
			reachedRoot = false
			break
		}
		flags := deqSleep
		if s.eevdf && s.rules.throttleDequeueSpecial {
			flags |= deqSpecial
			if se.se.delayed {
				flags |= deqDelayed
			}
		}
		s.updateLoadAvg(rq, se, peltUpdateTG)
		s.entityDequeue(rq, pq, se, flags)
		if se.my.tg.idle {
			idle = q.hNr
		}
		pq.hNr -= nr
		pq.hDelayed -= delayed
		pq.hIdle -= idle
		if pq.load.weight != 0 {
			se = s.parentOf(se)
			break
		}
	}
	if reachedRoot {
		for ; se != nil; se = s.parentOf(se) {
			pq := s.cfsOf(se)
			if !se.se.onRq {
				reachedRoot = false
				break
			}
			s.updateLoadAvg(rq, se, 0)
			if se.my.tg.idle {
				idle = q.hNr
			}
			pq.hNr -= nr
			pq.hDelayed -= delayed
			pq.hIdle -= idle
		}
	}
	if reachedRoot && nr > 0 {
		rq.nrRunning -= nr
		s.noteMayIdle(rq) // idle_hint.go
		if rq.nrRunning == 0 {
			s.fairServerStop(rq)
		}
	}
	q.bwq.throttled = true
	q.bwq.throttledClock = -1
	if q.nrQueued > 0 || !s.rules.throttleRaceCheck {
		q.bwq.throttledClock = s.now
	}
	s.emit(Event{Kind: EvCgroupThrottle, CPU: rq.cpu, Prev: taskID(rq.curr), Next: NoTask, Reason: ReasonCgroupThrottled, Arg: int64(tg.id)})
	return true
}

// unthrottleCfsRq mirrors unthrottle_cfs_rq().
func (s *Sim) unthrottleCfsRq(q *cfsRq) {
	tg := q.tg
	bw := &tg.bw
	rq := &s.rqs[q.se.cpu]
	q.bwq.throttled = false
	s.updateRqClock(rq)
	if q.bwq.throttledClock >= 0 {
		bw.throttledTime += int64(s.now - q.bwq.throttledClock)
		q.bwq.throttledClock = -1
	}
	if i := slices.Index(bw.throttledList, q); i >= 0 {
		bw.throttledList = slices.Delete(bw.throttledList, i, i+1) // clears the vacated slot
	}
	s.emit(Event{Kind: EvCgroupUnthrottle, CPU: rq.cpu, Prev: taskID(rq.curr), Next: NoTask, Reason: ReasonCgroupThrottled, Arg: int64(tg.id)})
	s.tgUnthrottleUp(rq, q) // cgroup_pelt_clock.go
	if s.rules.taskThrottle {
		s.unthrottleTasks(rq, q)
		s.unthrottleResched(rq)
		return
	}
	if q.load.weight == 0 {
		return
	}
	nr, delayed, idle := q.hNr, q.hDelayed, q.hIdle
	se := q.se
	for ; se != nil; se = s.parentOf(se) {
		pq := s.cfsOf(se)
		if se.se.delayed {
			s.entityDequeue(rq, pq, se, deqSleep|deqDelayed)
		} else if se.se.onRq {
			break
		}
		s.updateLoadAvg(rq, se, peltUpdateTG|peltDoAttach)
		s.entityEnqueue(rq, pq, se, enqWakeup)
		if se.my.tg.idle {
			idle = q.hNr
		}
		pq.hNr += nr
		pq.hDelayed += delayed
		pq.hIdle += idle
		if pq.bwq.throttled {
			s.unthrottleResched(rq)
			return
		}
	}
	for ; se != nil; se = s.parentOf(se) {
		pq := s.cfsOf(se)
		s.updateLoadAvg(rq, se, peltUpdateTG)
		if se.my.tg.idle {
			idle = q.hNr
		}
		pq.hNr += nr
		pq.hDelayed += delayed
		pq.hIdle += idle
		if pq.bwq.throttled {
			s.unthrottleResched(rq)
			return
		}
	}
	if nr > 0 {
		if rq.nrRunning == 0 {
			s.fairServerStart(rq)
		}
		rq.nrRunning += nr
		if rq.nrRunning >= 2 {
			s.rdOf(rq.cpu).overload = true
		}
	}
	s.unthrottleResched(rq)
}

// unthrottleResched: an idle CPU with something queued again reschedules.
func (s *Sim) unthrottleResched(rq *rq) {
	if rq.curr == nil && rq.cfs.nrQueued > 0 {
		s.reschedCurr(rq, ReasonIdleWakeup, s.peekTask(&rq.cfs), false)
	}
}
