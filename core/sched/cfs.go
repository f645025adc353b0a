package sched

// Legacy CFS, the fair class of Linux before v6.6 (kernel/sched/fair.c as in
// v3.11 and v5.8).
//
// Mirrors update_curr(), update_min_vruntime(), __sched_period(),
// sched_slice(), sched_vslice(), place_entity() (START_DEBIT, sleeper credit
// with GENTLE_FAIR_SLEEPERS), enqueue_entity()/dequeue_entity() with the
// min_vruntime normalisation of the era, task_fork_fair(),
// check_preempt_tick(), check_preempt_wakeup() with wakeup_gran() and
// wakeup_preempt_entity(), pick_next_entity() with the skip/last/next
// buddies, and yield_task_fair().
//
// The SCHED_IDLE_NO_SLEEPER_CREDIT feature is the patch "sched/fair: avoid
// vruntime compensation for SCHED_IDLE task" (Jiang Biao, Aug 2020): no
// sleeper credit for idle-policy tasks in place_entity().

const sched_nr_latency = 8

// cfsUpdateCurr mirrors update_curr().
func (s *Sim) cfsUpdateCurr(rq *rq, q *cfsRq) {
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
	q.updateMinVruntime()
	if curr.tg != nil && curr.my == nil {
		s.chargeCgroup(curr, delta) // cgroup_stat.go
	}
	s.accountCfsRqRuntime(q, delta) // cgroup_bandwidth.go
}

// cfsNrLatency is sched_nr_latency as the sysctl handler recomputes it:
// DIV_ROUND_UP(latency, min_granularity).
func (s *Sim) cfsNrLatency() int64 {
	return (s.sys.LatencyNs + s.sys.MinGranularityNs - 1) / s.sys.MinGranularityNs
}

// cfsPeriod mirrors __sched_period().
func (s *Sim) cfsPeriod(nr int64) int64 {
	if nr > s.cfsNrLatency() {
		return nr * s.sys.MinGranularityNs
	}
	return s.sys.LatencyNs
}

// cfsSlice mirrors sched_slice(): the wall-time share of the period for t,
// scaled by its weight's share at every level of the hierarchy.
func (s *Sim) cfsSlice(q *cfsRq, t *Task) int64 {
	nr := int64(q.nrQueued)
	if !t.se.onRq {
		nr++
	}
	slice := s.cfsPeriod(nr)
	for se := t; se != nil; se = s.parentOf(se) {
		if se != t {
			q = s.cfsOf(se)
		}
		load := &q.load
		var lw loadWeight
		if !se.se.onRq {
			lw = loadWeight{weight: q.load.weight + se.se.load.weight}
			load = &lw
		}
		slice = s.arith.calcDelta(slice, se.se.load.weight, load)
	}
	return slice
}

// cfsVslice mirrors sched_vslice().
func (s *Sim) cfsVslice(q *cfsRq, t *Task) int64 {
	return s.arith.calcDeltaFair(s.cfsSlice(q, t), &t.se.load)
}

// cfsPlace mirrors place_entity(): initial placement one vslice behind
// (START_DEBIT), wakeup placement with sleeper credit, never backwards.
func (s *Sim) cfsPlace(q *cfsRq, t *Task, initial bool) {
	v := q.minVruntime
	if initial && s.feat.Has(StartDebit) {
		v += s.cfsVslice(q, t)
	}
	if !initial {
		credit := !(s.feat.Has(SchedIdleNoSleeperCredit) && t.policy == SchedIdle)
		if credit {
			thresh := s.sys.LatencyNs
			if s.feat.Has(GentleFairSleepers) {
				thresh >>= 1
			}
			v -= thresh
		}
	}
	if v-t.se.vruntime > 0 { // max_vruntime()
		t.se.vruntime = v
	}
}

// cfsEnqueue mirrors enqueue_entity(). A task that is not simply waking up
// (new, or migrated) carries a vruntime relative to its old queue and is
// renormalised here.
func (s *Sim) cfsEnqueue(rq *rq, q *cfsRq, t *Task, flags int) {
	renorm := flags&enqWakeup == 0 || flags&enqMigrated != 0
	isCurr := q.curr == t
	if renorm && isCurr {
		t.se.vruntime += q.minVruntime
	}
	s.cfsUpdateCurr(rq, q)
	if renorm && !isCurr {
		t.se.vruntime += q.minVruntime
	}
	if t.my != nil {
		s.updateCfsGroup(t)
	}
	q.accountEnqueue(t)
	if flags&enqWakeup != 0 {
		s.cfsPlace(q, t, false)
	}
	if !isCurr {
		q.insert(s, t)
	}
	t.se.onRq = true
}

// cfsDequeue mirrors dequeue_entity(). A task leaving for another queue
// keeps its vruntime relative to this queue's min_vruntime.
func (s *Sim) cfsDequeue(rq *rq, q *cfsRq, t *Task, flags int) {
	s.cfsUpdateCurr(rq, q)
	s.clearBuddies(q, t)
	if t != q.curr {
		q.remove(s, t)
	}
	t.se.onRq = false
	q.accountDequeue(t)
	if flags&deqSleep == 0 {
		t.se.vruntime -= q.minVruntime
	}
	s.returnCfsRqRuntime(q) // cgroup_bandwidth.go
	if t.my != nil {
		s.updateCfsGroup(t)
	}
	q.updateMinVruntime()
}

// cfsForkPlace mirrors task_fork_fair(): the child starts at the parent's
// vruntime (or min_vruntime without one), placed one vslice behind, and is
// stored relative to the queue's min_vruntime until wake_up_new_task
// enqueues it. It returns true when the child must run first.
func (s *Sim) cfsForkPlace(rq *rq, child, parent *Task) bool {
	q := s.tgCfs(child.tg, rq.cpu)
	if q.curr != nil {
		s.cfsUpdateCurr(rq, q)
	}
	if parent != nil && parent.se.onRq && parent == q.curr {
		child.se.vruntime = parent.se.vruntime
	} else {
		// A launcher outside the simulation: as if it sat at min_vruntime.
		child.se.vruntime = q.minVruntime
	}
	s.cfsPlace(q, child, true)
	swapped := false
	if s.sys.ChildRunsFirst != 0 && parent != nil && parent == q.curr && parent.se.vruntime < child.se.vruntime {
		parent.se.vruntime, child.se.vruntime = child.se.vruntime, parent.se.vruntime
		swapped = true
	}
	child.se.vruntime -= q.minVruntime
	return swapped
}

// cfsTick mirrors entity_tick() and check_preempt_tick() on one level.
func (s *Sim) cfsTick(rq *rq, q *cfsRq) {
	s.cfsUpdateCurr(rq, q)
	if q.nrQueued <= 1 {
		return
	}
	curr := q.curr
	ideal := s.cfsSlice(q, curr)
	ran := curr.se.sumExec - curr.se.prevSumExec
	if ran > ideal {
		s.reschedCurr(rq, ReasonTickIdealRuntime, NoTask, false)
		s.clearBuddies(q, curr)
		return
	}
	if ran < s.sys.MinGranularityNs {
		return
	}
	left := q.first()
	delta := curr.se.vruntime - left.se.vruntime
	if delta < 0 {
		return
	}
	if delta > ideal {
		s.reschedCurr(rq, ReasonTickVruntimeSpread, left.id, false)
	}
}

// cfsWakeupGran mirrors wakeup_gran(): the wakeup granularity in the
// wakee's virtual time.
func (s *Sim) cfsWakeupGran(t *Task) int64 {
	return s.arith.calcDeltaFair(s.sys.WakeupGranularityNs, &t.se.load)
}

// cfsWakeupPreemptEntity mirrors wakeup_preempt_entity(): -1 when se is not
// behind curr, 1 when it is behind by more than the granularity, else 0.
func (s *Sim) cfsWakeupPreemptEntity(curr, se *Task) int {
	vdiff := curr.se.vruntime - se.se.vruntime
	if vdiff <= 0 {
		return -1
	}
	if vdiff > s.cfsWakeupGran(se) {
		return 1
	}
	return 0
}

// cfsBuddyOK: set_next_buddy()/set_last_buddy() ignore idle-policy tasks.
func cfsBuddyOK(t *Task) bool { return t.policy != SchedIdle }

// cfsCheckPreemptWakeup mirrors check_preempt_wakeup(): the decision is
// taken between curr's and p's entities on the first cfs_rq they share
// (find_matching_se()).
func (s *Sim) cfsCheckPreemptWakeup(rq *rq, p *Task, wakeFlags int) {
	curr := rq.curr
	if curr == p {
		return
	}
	if s.throttledHierarchy(s.cfsOf(p)) {
		return
	}
	scale := int64(s.cfsOf(curr).nrQueued) >= s.cfsNrLatency()
	nextMarked := false
	if s.feat.Has(NextBuddy) && scale && wakeFlags&wfFork == 0 {
		if cfsBuddyOK(p) {
			s.setNextBuddy(p)
		}
		nextMarked = true
	}
	if rq.needResched {
		return
	}
	se, pse := curr, p
	reason := ReasonNone
	if curr.policy == SchedIdle && p.policy != SchedIdle {
		reason = ReasonWakeupIdlePolicy
	} else {
		if p.policy != SchedOther || !s.feat.Has(WakeupPreemption) {
			return
		}
		se, pse = s.findMatchingSE(se, pse)
		s.cfsUpdateCurr(rq, s.cfsOf(se))
		if s.cfsWakeupPreemptEntity(se, pse) != 1 {
			return
		}
		if !nextMarked && cfsBuddyOK(p) {
			s.setNextBuddy(p)
		}
		reason = ReasonWakeupGranularity
	}
	s.reschedCurr(rq, reason, p.id, false)
	if !se.se.onRq {
		return
	}
	if s.feat.Has(LastBuddy) && scale && se.my == nil && cfsBuddyOK(se) {
		for ; se != nil; se = s.parentOf(se) { // set_last_buddy()
			s.cfsOf(se).last = se
		}
	}
}

// cfsPickNext mirrors pick_next_entity() with curr still set (the
// FAIR_GROUP_SCHED path of pick_next_task_fair()).
func (s *Sim) cfsPickNext(q *cfsRq) (*Task, PickRule) {
	curr := q.curr
	if curr != nil && !curr.se.onRq {
		curr = nil
	}
	left := q.first()
	if left == nil || (curr != nil && curr.se.vruntime < left.se.vruntime) {
		left = curr
	}
	se, rule := left, PickLeftmost
	if q.nrQueued == 1 {
		rule = PickOnly
	}
	if q.skip != nil && q.skip == se {
		var second *Task
		if se == curr {
			second = q.first()
		} else {
			if len(q.queue) > 1 {
				second = q.queue[1]
			}
			if second == nil || (curr != nil && curr.se.vruntime < second.se.vruntime) {
				second = curr
			}
		}
		if second != nil && s.cfsWakeupPreemptEntity(second, left) < 1 {
			se, rule = second, PickSkipAvoided
		}
	}
	if q.last != nil && s.cfsWakeupPreemptEntity(q.last, left) < 1 {
		se, rule = q.last, PickLastBuddy
	}
	if q.next != nil && s.cfsWakeupPreemptEntity(q.next, left) < 1 {
		se, rule = q.next, PickNextBuddy
	}
	s.clearBuddies(q, se)
	return se, rule
}

// cfsSetNext mirrors set_next_entity().
func (s *Sim) cfsSetNext(q *cfsRq, t *Task) {
	if t.se.onRq {
		q.remove(s, t)
	}
	q.curr = t
	t.se.prevSumExec = t.se.sumExec
}

// cfsPutPrev mirrors put_prev_entity().
func (s *Sim) cfsPutPrev(rq *rq, q *cfsRq, t *Task) {
	if t.se.onRq {
		s.cfsUpdateCurr(rq, q)
		q.insert(s, t)
	}
	q.curr = nil
}

// cfsYield mirrors yield_task_fair(): mark the task as the skip buddy.
func (s *Sim) cfsYield(rq *rq) {
	curr := rq.curr
	if rq.nrRunning == 1 {
		return
	}
	q := s.cfsOf(curr)
	s.clearBuddies(q, curr)
	if curr.policy != SchedBatch {
		s.cfsUpdateCurr(rq, q)
	}
	for se := curr; se != nil; se = s.parentOf(se) { // set_skip_buddy()
		s.cfsOf(se).skip = se
	}
}
