package sched

// EEVDF, the fair class of Linux v6.6 and later (kernel/sched/fair.c,
// Documentation/scheduler/sched-eevdf.rst).
//
// Mirrors update_curr()/update_deadline(), place_entity(),
// update_entity_lag(), pick_eevdf()/__pick_eevdf(), set_next_entity() and
// check_preempt_wakeup_fair()/wakeup_preempt_fair(), yield_task_fair(), and
// delayed dequeue (dequeue_entity() with DELAY_DEQUEUE,
// requeue_delayed_entity(), finish_delayed_dequeue_entity()).
//
// Version variants (Profile.version):
//   - v6.6: RUN_TO_PARITY is the "vlag == deadline" stash made in
//     set_next_entity(); the lag clamp is calc_delta_fair(max(2*slice,
//     TICK_NSEC)); yield pushes the deadline one slice out.
//   - v6.12: adds DELAY_DEQUEUE/DELAY_ZERO, PLACE_REL_DEADLINE,
//     PREEMPT_SHORT, PICK_BUDDY and custom slices.
//   - v6.18: base slice 0.70 ms (set by the profile's sysctl default).
//
// Abstracted: the augmented rbtree (a sorted slice gives the same order, see
// cfsrq.go), overflow guards, and cgroup hierarchies (flattened).

// eevdfUpdateCurr mirrors update_curr() for EEVDF. It returns true when the
// current request was used up (update_deadline()).
func (s *Sim) eevdfUpdateCurr(rq *rq) {
	q := &rq.cfs
	curr := q.curr
	if curr == nil {
		return
	}
	delta := int64(s.now - curr.se.execStart)
	if delta <= 0 {
		return
	}
	curr.se.execStart = s.now
	curr.se.sumExec += delta
	curr.se.vruntime += s.arith.calcDeltaFair(delta, &curr.se.load)
	resched := s.eevdfUpdateDeadline(curr)
	q.updateMinVruntime()
	if resched && q.nrQueued > 1 {
		s.reschedCurr(rq, ReasonSliceExpired, NoTask, true)
		q.clearBuddies(curr)
	}
}

// eevdfUpdateDeadline mirrors update_deadline(): once vruntime reaches the
// deadline the request is consumed and a new one is issued.
func (s *Sim) eevdfUpdateDeadline(t *Task) bool {
	if t.se.vruntime-t.se.deadline < 0 {
		return false
	}
	if !t.se.customSlice {
		t.se.slice = s.sys.BaseSliceNs
	}
	t.se.deadline = t.se.vruntime + s.arith.calcDeltaFair(t.se.slice, &t.se.load)
	return true
}

// eevdfPlace mirrors place_entity().
func (s *Sim) eevdfPlace(q *cfsRq, t *Task, flags int) {
	se := &t.se
	v := q.avgVruntimeOf(s)
	var lag int64
	if !se.customSlice {
		se.slice = s.sys.BaseSliceNs
	}
	vslice := s.arith.calcDeltaFair(se.slice, &se.load)
	if s.feat.Has(PlaceLag) && q.nrQueued > 0 && se.vlag != 0 {
		lag = se.vlag
		load := q.avgLoad
		if q.currCounts() {
			load += s.arith.scaleLoadDown(q.curr.se.load.weight)
		}
		lag *= load + s.arith.scaleLoadDown(se.load.weight)
		if load == 0 {
			load = 1
		}
		lag /= load // div_s64 truncates toward zero, as Go does
	}
	se.vruntime = v - lag
	if se.relDeadline && s.feat.Has(PlaceRelDeadline) {
		se.deadline += se.vruntime
		se.relDeadline = false
		return
	}
	se.relDeadline = false
	if s.feat.Has(PlaceDeadlineInitial) && flags&enqInitial != 0 {
		vslice /= 2
	}
	se.deadline = se.vruntime + vslice
}

// eevdfUpdateLag mirrors update_entity_lag(): save V - v, clamped.
func (s *Sim) eevdfUpdateLag(q *cfsRq, t *Task) {
	lag := q.avgVruntimeOf(s) - t.se.vruntime
	limit := s.arith.calcDeltaFair(max(2*t.se.slice, int64(s.tickNs)), &t.se.load)
	t.se.vlag = min(max(lag, -limit), limit)
}

// eevdfEnqueue mirrors enqueue_entity() for EEVDF.
func (s *Sim) eevdfEnqueue(rq *rq, t *Task, flags int) {
	q := &rq.cfs
	if flags&enqDelayed != 0 {
		s.eevdfRequeueDelayed(rq, t)
		return
	}
	isCurr := q.curr == t
	if isCurr {
		s.eevdfPlace(q, t, flags)
	}
	s.eevdfUpdateCurr(rq)
	if !isCurr {
		s.eevdfPlace(q, t, flags)
	}
	q.accountEnqueue(t)
	if !isCurr {
		q.insert(s, t)
	}
	t.se.onRq = true
}

// eevdfRequeueDelayed mirrors requeue_delayed_entity(): a delayed task that
// wakes before it was picked goes back in place; with DELAY_ZERO positive lag
// is dropped and the task is placed anew.
func (s *Sim) eevdfRequeueDelayed(rq *rq, t *Task) {
	q := &rq.cfs
	s.eevdfUpdateCurr(rq)
	if s.feat.Has(DelayZero) {
		s.eevdfUpdateLag(q, t)
		if t.se.vlag > 0 {
			q.nrQueued--
			if q.curr != t {
				q.remove(s, t)
			}
			t.se.vlag = 0
			s.eevdfPlace(q, t, 0)
			if q.curr != t {
				q.insert(s, t)
			}
			q.nrQueued++
		}
	}
	t.se.delayed = false
	q.nrDelayed--
}

// eevdfDequeue mirrors dequeue_entity() for EEVDF. It returns false when
// the task was delayed instead of dequeued (DELAY_DEQUEUE).
func (s *Sim) eevdfDequeue(rq *rq, t *Task, flags int) bool {
	q := &rq.cfs
	sleep := flags&deqSleep != 0
	s.eevdfUpdateCurr(rq)
	q.clearBuddies(t)
	if flags&deqDelayed == 0 {
		delay := sleep && flags&deqSpecial == 0
		if s.feat.Has(DelayDequeue) && delay && !q.eligible(s, t) {
			t.se.delayed = true
			q.nrDelayed++
			return false
		}
	}
	s.eevdfUpdateLag(q, t)
	if s.feat.Has(PlaceRelDeadline) && !sleep {
		t.se.deadline -= t.se.vruntime
		t.se.relDeadline = true
	}
	if t != q.curr {
		q.remove(s, t)
	}
	t.se.onRq = false
	q.accountDequeue(t)
	q.updateMinVruntime()
	if flags&deqDelayed != 0 {
		// finish_delayed_dequeue_entity()
		t.se.delayed = false
		q.nrDelayed--
		if s.feat.Has(DelayZero) && t.se.vlag > 0 {
			t.se.vlag = 0
		}
	}
	return true
}

// eevdfPick mirrors __pick_eevdf(): the eligible entity with the earliest
// virtual deadline, with curr protected under RUN_TO_PARITY when protect is
// set. The rule that decided is returned too.
func (s *Sim) eevdfPick(q *cfsRq, protect bool) (*Task, PickRule) {
	first := q.first()
	curr := q.curr
	if q.nrQueued == 1 {
		if curr != nil && curr.se.onRq {
			return curr, PickOnly
		}
		return first, PickOnly
	}
	if s.version >= 612 && s.feat.Has(PickBuddy) && q.next != nil && q.eligible(s, q.next) {
		return q.next, PickNextBuddy
	}
	if curr != nil && (!curr.se.onRq || !q.eligible(s, curr)) {
		curr = nil
	}
	if s.feat.Has(RunToParity) && curr != nil && protect && curr.se.vlag == curr.se.deadline {
		return curr, PickRunToParity
	}
	var best *Task
	for _, t := range q.queue { // deadline order: the first eligible is the kernel's heap-search result
		if q.eligible(s, t) {
			best = t
			break
		}
	}
	if best == nil || (curr != nil && curr.se.deadline < best.se.deadline) {
		best = curr
	}
	return best, PickEarliestEligibleDeadline
}

// eevdfPickNext mirrors pick_next_entity() (v6.6: NEXT_BUDDY before
// pick_eevdf; v6.12+: a picked delayed task is dequeued for real and the
// pick repeated by the caller, signalled by a nil result).
func (s *Sim) eevdfPickNext(rq *rq) (*Task, PickRule) {
	q := &rq.cfs
	if s.version < 612 && s.feat.Has(NextBuddy) && q.next != nil && q.eligible(s, q.next) {
		return q.next, PickNextBuddy
	}
	t, rule := s.eevdfPick(q, true)
	if t != nil && t.se.delayed {
		s.dequeueTask(rq, t, deqSleep|deqDelayed)
		return nil, rule
	}
	return t, rule
}

// eevdfSetNext mirrors set_next_entity(): take the entity out of the queue
// and, for RUN_TO_PARITY, stash the deadline it was picked with in vlag.
func (s *Sim) eevdfSetNext(q *cfsRq, t *Task) {
	if t.se.onRq {
		q.remove(s, t)
		t.se.vlag = t.se.deadline
	}
	q.curr = t
	t.se.prevSumExec = t.se.sumExec
}

// eevdfPutPrev mirrors put_prev_entity().
func (s *Sim) eevdfPutPrev(rq *rq, t *Task) {
	q := &rq.cfs
	if t.se.onRq {
		s.eevdfUpdateCurr(rq)
		q.insert(s, t)
	}
	q.curr = nil
}

// eevdfCheckPreemptWakeup mirrors check_preempt_wakeup_fair() (v6.6:
// check_preempt_wakeup()).
func (s *Sim) eevdfCheckPreemptWakeup(rq *rq, p *Task, wakeFlags int) {
	curr := rq.curr
	q := &rq.cfs
	if curr == p {
		return
	}
	if s.feat.Has(NextBuddy) && wakeFlags&wfFork == 0 && !p.se.delayed && p.policy != SchedIdle {
		q.next = p
	}
	if rq.needResched {
		return
	}
	currIdle, pIdle := curr.policy == SchedIdle, p.policy == SchedIdle
	if s.version < 612 {
		if currIdle && !pIdle {
			s.reschedCurr(rq, ReasonWakeupIdlePolicy, p.id, true)
			return
		}
		if p.policy != SchedOther || !s.feat.Has(WakeupPreemption) {
			return
		}
	} else {
		if !s.feat.Has(WakeupPreemption) {
			return
		}
		if currIdle && !pIdle {
			s.reschedCurr(rq, ReasonWakeupIdlePolicy, p.id, true)
			return
		}
		if currIdle != pIdle || p.policy != SchedOther {
			return
		}
	}
	s.eevdfUpdateCurr(rq)
	if rq.needResched { // update_curr() found curr's request used up
		return
	}
	short := s.version >= 612 && s.feat.Has(PreemptShort) && p.se.slice < curr.se.slice
	if best, _ := s.eevdfPick(q, !short); best == p {
		reason := ReasonWakeupEligible
		if short {
			reason = ReasonWakeupShortSlice
		}
		s.reschedCurr(rq, reason, p.id, true)
	}
}

// eevdfYield mirrors yield_task_fair(): give up the rest of the request.
func (s *Sim) eevdfYield(rq *rq) {
	curr := rq.curr
	if rq.nrRunning == 1 {
		return
	}
	q := &rq.cfs
	q.clearBuddies(curr)
	s.eevdfUpdateCurr(rq)
	curr.se.deadline += s.arith.calcDeltaFair(curr.se.slice, &curr.se.load)
}
