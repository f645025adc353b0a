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
// Version variants (Sim.rules, rules.go; docs/kernel-rules.md has the source
// read for each):
//   - v6.6: the tree is in vruntime order; RUN_TO_PARITY is the "vlag ==
//     deadline" stash made in set_next_entity(); new tasks are placed
//     without ENQUEUE_INITIAL (a full first slice); yield pushes the
//     deadline one slice out; the next buddy is honoured under NEXT_BUDDY.
//   - v6.12: deadline-ordered tree; DELAY_DEQUEUE/DELAY_ZERO,
//     PLACE_REL_DEADLINE, PREEMPT_SHORT (did_preempt_short()) and custom
//     slices; new tasks get half a slice (PLACE_DEADLINE_INITIAL).
//   - v6.18 (6.18.y stable): base slice 0.70 ms; slice protection is vprot
//     (set_protect_slice()), and update_curr() asks for a reschedule once
//     it runs out; PICK_BUDDY; lazy preemption requests
//     (resched_curr_lazy()); yield forfeits the rest of the slice (commit
//     79104becf42b, backported to 6.18.2).
//
// The lag clamp is calc_delta_fair(max(2*slice, TICK_NSEC)) in all three.
// Abstracted: the augmented rbtree (a sorted slice gives the same order, see
// cfsrq.go; the v6.6 heap walk's tie-breaking between equal deadlines is
// approximated by vruntime order) and overflow guards. Each function works
// on one cfs_rq; the walks over the task-group hierarchy are in
// cgroup_fair.go.

// eevdfUpdateCurr mirrors update_curr() for EEVDF. It returns true when the
// current request was used up (update_deadline()).
func (s *Sim) eevdfUpdateCurr(rq *rq, q *cfsRq) {
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
	if curr.my == nil {
		s.fairServerCharge(rq, delta) // v6.12+ dl_server_update(&rq->fair_server)
		if curr.tg != nil {
			s.chargeCgroup(curr, delta) // cgroup_stat.go
		}
	}
	s.accountCfsRqRuntime(q, delta) // cgroup_bandwidth.go
	resched := s.eevdfUpdateDeadline(curr)
	q.updateMinVruntime()
	reason := ReasonSliceExpired
	switch {
	case !s.rules.preemptShort:
		if !resched || q.nrQueued <= 1 {
			return
		}
	case !s.rules.vprot:
		if rq.nrRunning == 1 {
			return
		}
		// did_preempt_short(): a shorter-slice wakee cancelled curr's
		// protection; reschedule once curr is no longer eligible.
		short := s.feat.Has(PreemptShort) && curr.se.vlag != curr.se.deadline && !q.eligible(s, curr)
		if !resched && !short {
			return
		}
		if !resched {
			reason = ReasonProtectionEnded
		}
	default:
		if q.nrQueued == 1 {
			return
		}
		if !resched && curr.se.vprot-curr.se.vruntime > 0 {
			return
		}
		if !resched {
			reason = ReasonProtectionEnded
		}
	}
	s.reschedCurr(rq, reason, NoTask, s.rules.lazyPreempt)
	s.clearBuddies(q, curr)
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
	// vslice is only needed here: a kept relative deadline ignores it, and
	// calc_delta_fair() has no effect but the inv_weight cache.
	vslice := s.arith.calcDeltaFair(se.slice, &se.load)
	if s.feat.Has(PlaceDeadlineInitial) && flags&enqInitial != 0 {
		vslice /= 2
	}
	se.deadline = se.vruntime + vslice
}

// eevdfUpdateLag mirrors update_entity_lag(): save V - v, clamped.
func (s *Sim) eevdfUpdateLag(q *cfsRq, t *Task) {
	lag := q.avgVruntimeOf(s) - t.se.vruntime
	if lag == 0 {
		t.se.vlag = 0 // the clamp limit is never negative
		return
	}
	limit := s.arith.calcDeltaFair(max(2*t.se.slice, int64(s.tickNs)), &t.se.load)
	t.se.vlag = min(max(lag, -limit), limit)
}

// eevdfEnqueue mirrors enqueue_entity() for EEVDF.
func (s *Sim) eevdfEnqueue(rq *rq, q *cfsRq, t *Task, flags int) {
	if flags&enqDelayed != 0 {
		s.eevdfRequeueDelayed(q, t)
		return
	}
	isCurr := q.curr == t
	if isCurr {
		s.eevdfPlace(q, t, flags)
	}
	s.eevdfUpdateCurr(rq, q)
	if t.my != nil {
		s.updateCfsGroup(t) // enqueue_entity(): update_cfs_group() before placement
	}
	if !isCurr {
		s.eevdfPlace(q, t, flags)
	}
	q.accountEnqueue(t)
	if flags&enqMigrated != 0 && s.rules.execStartResetOnEnqueue {
		t.se.execStart = 0 // no longer cache-hot (rules.go)
	}
	if !isCurr {
		q.insert(s, t)
	}
	t.se.onRq = true
	if rq.pollAlone {
		s.pollAloneEnded(rq) // curr may no longer be alone on its cfs_rq (clock_poll.go)
	}
}

// eevdfRequeueDelayed mirrors requeue_delayed_entity(): a delayed task that
// wakes before it was picked goes back in place; with DELAY_ZERO positive lag
// is dropped and the task is placed anew.
func (s *Sim) eevdfRequeueDelayed(q *cfsRq, t *Task) {
	// No update_curr() here, as in the kernel: the lag is taken against V
	// as of curr's last update; check_preempt_wakeup_fair() updates next.
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
func (s *Sim) eevdfDequeue(rq *rq, q *cfsRq, t *Task, flags int) bool {
	sleep := flags&deqSleep != 0
	s.eevdfUpdateCurr(rq, q)
	s.clearBuddies(q, t)
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
	s.returnCfsRqRuntime(q) // cgroup_bandwidth.go
	if t.my != nil {
		s.updateCfsGroup(t)
	}
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
// virtual deadline, with curr kept while its slice is protected (when
// protect is set). The rule that decided is returned too.
func (s *Sim) eevdfPick(q *cfsRq, protect bool) (*Task, PickRule) {
	curr := q.curr
	if s.rules.deadlineTree && q.nrQueued == 1 {
		if curr != nil && curr.se.onRq {
			return curr, PickOnly
		}
		return q.first(), PickOnly
	}
	if curr != nil && (!curr.se.onRq || !q.eligible(s, curr)) {
		curr = nil
	}
	if curr != nil && protect {
		if !s.rules.vprot {
			if s.feat.Has(RunToParity) && curr.se.vlag == curr.se.deadline {
				return curr, PickRunToParity
			}
		} else if curr.se.vprot-curr.se.vruntime > 0 { // protect_slice()
			return curr, PickRunToParity
		}
	}
	rule := PickEarliestEligibleDeadline
	if q.nrQueued == 1 {
		rule = PickOnly
	}
	if !s.rules.deadlineTree {
		// v6.6: vruntime-ordered tree; curr seeds best and wins ties.
		best := curr
		avg, load := q.eligibleSums(s)
		for _, t := range q.queue {
			if avg >= (t.se.vruntime-q.minVruntime)*load && (best == nil || t.se.deadline < best.se.deadline) {
				best = t
			}
		}
		if best == nil {
			best = q.first() // pick_eevdf()'s fallback ("EEVDF scheduling fail")
		}
		return best, rule
	}
	var best *Task
	avg, load := q.eligibleSums(s)
	for _, t := range q.queue { // deadline order: the first eligible is the heap search's result
		if avg >= (t.se.vruntime-q.minVruntime)*load { // entity_eligible()
			best = t
			break
		}
	}
	if best == nil || (curr != nil && curr.se.deadline < best.se.deadline) {
		best = curr
	}
	return best, rule
}

// eevdfPickNext mirrors pick_next_entity() (v6.6: NEXT_BUDDY before
// pick_eevdf; v6.12+: a picked delayed task is dequeued for real and the
// pick repeated by the caller, signalled by a nil result).
func (s *Sim) eevdfPickNext(rq *rq, q *cfsRq) (*Task, PickRule) {
	buddy := NextBuddy // v6.6, v6.12: the pick honours cfs_rq->next under NEXT_BUDDY
	if s.rules.pickBuddy {
		buddy = PickBuddy
	}
	if s.feat.Has(buddy) && q.next != nil && q.eligible(s, q.next) {
		return q.next, PickNextBuddy
	}
	t, rule := s.eevdfPick(q, true)
	if t != nil && t.se.delayed {
		if t.my != nil {
			s.dequeueEntities(rq, t, deqSleep|deqDelayed) // a delayed group entity (cgroup_fair.go)
		} else {
			s.dequeueTask(rq, t, deqSleep|deqDelayed)
		}
		return nil, rule
	}
	return t, rule
}

// eevdfSetNext mirrors set_next_entity(): take the entity out of the queue
// and protect its slice: v6.6/v6.12 stash the deadline it was picked with in
// vlag (RUN_TO_PARITY), v6.18 computes vprot (set_protect_slice()).
func (s *Sim) eevdfSetNext(q *cfsRq, t *Task) {
	s.clearBuddies(q, t)
	if t.se.onRq {
		q.remove(s, t)
		if !s.rules.vprot {
			t.se.vlag = t.se.deadline
		} else {
			s.eevdfSetProtectSlice(q, t)
		}
	}
	q.curr = t
	t.se.prevSumExec = t.se.sumExec
}

// eevdfMinSlice mirrors cfs_rq_min_slice(): the smallest slice among the
// queued entities and curr; -1 when there are none.
func eevdfMinSlice(q *cfsRq) int64 {
	m := int64(-1)
	if q.curr != nil && q.curr.se.onRq {
		m = q.curr.se.slice
	}
	for _, t := range q.queue {
		if m < 0 || t.se.slice < m {
			m = t.se.slice
		}
	}
	return m
}

// eevdfSetProtectSlice mirrors set_protect_slice() (v6.18): curr is
// protected up to its deadline, or for the shortest queued slice if that is
// shorter (RUN_TO_PARITY), or for the unscaled base slice without it.
func (s *Sim) eevdfSetProtectSlice(q *cfsRq, t *Task) {
	slice := s.normBaseSlice
	vprot := t.se.deadline
	if s.feat.Has(RunToParity) {
		if m := eevdfMinSlice(q); m >= 0 {
			slice = m
		} else {
			slice = t.se.slice
		}
	}
	slice = min(slice, t.se.slice)
	if slice != t.se.slice {
		vprot = min(vprot, t.se.vruntime+s.arith.calcDeltaFair(slice, &t.se.load))
	}
	t.se.vprot = vprot
}

// eevdfUpdateProtectSlice mirrors update_protect_slice() (v6.18).
func (s *Sim) eevdfUpdateProtectSlice(q *cfsRq, t *Task) {
	if m := eevdfMinSlice(q); m >= 0 {
		t.se.vprot = min(t.se.vprot, t.se.vruntime+s.arith.calcDeltaFair(m, &t.se.load))
	}
}

// eevdfPutPrev mirrors put_prev_entity().
func (s *Sim) eevdfPutPrev(rq *rq, q *cfsRq, t *Task) {
	if t.se.onRq {
		s.eevdfUpdateCurr(rq, q)
		q.insert(s, t)
	}
	q.curr = nil
}

// eevdfCheckPreemptWakeup mirrors check_preempt_wakeup_fair() (v6.6:
// check_preempt_wakeup()), in each version's order of checks. With task
// groups the decision is taken between curr's and p's entities on the
// first cfs_rq they share (find_matching_se()).
func (s *Sim) eevdfCheckPreemptWakeup(rq *rq, p *Task, wakeFlags int) {
	curr := rq.curr
	if curr == p {
		return
	}
	if s.wakeeThrottled(p) {
		return
	}
	if s.feat.Has(NextBuddy) && wakeFlags&wfFork == 0 && !p.se.delayed && p.policy != SchedIdle {
		s.setNextBuddy(p)
	}
	if rq.needResched {
		return
	}
	lazy := s.rules.lazyPreempt
	se, pse := curr, p
	if !s.rules.wakeupIdleSE {
		if curr.policy == SchedIdle && p.policy != SchedIdle {
			s.reschedCurr(rq, ReasonWakeupIdlePolicy, p.id, false)
			return
		}
		if p.policy != SchedOther || !s.feat.Has(WakeupPreemption) {
			return
		}
		se, pse = s.findMatchingSE(se, pse)
		if ci, pi := s.seIsIdle(se), s.seIsIdle(pse); ci != pi {
			if ci {
				s.reschedCurr(rq, ReasonWakeupIdlePolicy, p.id, false)
			}
			return
		}
	} else {
		if !s.feat.Has(WakeupPreemption) {
			return
		}
		se, pse = s.findMatchingSE(se, pse)
		currIdle, pIdle := s.seIsIdle(se), s.seIsIdle(pse)
		if currIdle && !pIdle {
			if s.rules.vprot && se.se.vprot-se.se.vruntime > 0 {
				se.se.vprot = se.se.vruntime // cancel_protect_slice()
			}
			s.reschedCurr(rq, ReasonWakeupIdlePolicy, p.id, lazy)
			return
		}
		if currIdle != pIdle || p.policy != SchedOther {
			return
		}
	}
	q := s.cfsOf(se)
	s.eevdfUpdateCurr(rq, q)
	if rq.needResched { // update_curr() found curr's request used up
		return
	}
	protect, short := true, false
	switch {
	case s.rules.vprot:
		short = s.feat.Has(PreemptShort) && pse.se.slice < se.se.slice
		protect = !short
	case s.rules.preemptShort:
		// do_preempt_short(): cancel curr's RUN_TO_PARITY stash.
		short = s.feat.Has(PreemptShort) && pse.se.slice < se.se.slice && q.eligible(s, pse) &&
			(pse.se.deadline < se.se.deadline || !q.eligible(s, se))
		if short && se.se.vlag == se.se.deadline {
			se.se.vlag = se.se.deadline + 1
		}
	}
	if best, _ := s.eevdfPick(q, protect); best == pse {
		reason := ReasonWakeupEligible
		if short {
			reason = ReasonWakeupShortSlice
			if s.rules.vprot && se.se.vprot-se.se.vruntime > 0 {
				se.se.vprot = se.se.vruntime
			}
		}
		s.reschedCurr(rq, reason, p.id, lazy)
		return
	}
	if s.rules.vprot && short && s.feat.Has(RunToParity) {
		s.eevdfUpdateProtectSlice(q, se)
	}
}

// eevdfYield mirrors yield_task_fair(): give up the rest of the request.
func (s *Sim) eevdfYield(rq *rq) {
	curr := rq.curr
	if rq.nrRunning == 1 {
		return
	}
	q := s.cfsOf(curr)
	s.clearBuddies(q, curr)
	s.eevdfUpdateCurr(rq, q)
	if s.rules.yieldForfeit {
		// Forfeit the rest of the slice (79104becf42b): only an eligible
		// yielder moves, to its deadline.
		if !q.eligible(s, curr) {
			return
		}
		curr.se.vruntime = curr.se.deadline
		curr.se.deadline += s.arith.calcDeltaFair(curr.se.slice, &curr.se.load)
		q.updateMinVruntime()
		return
	}
	curr.se.deadline += s.arith.calcDeltaFair(curr.se.slice, &curr.se.load)
}
