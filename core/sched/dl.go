package sched

// The deadline class (SCHED_DEADLINE): kernel/sched/deadline.c as read at
// torvalds/linux 0039189a3b15 (a v5.10-era copy; see docs/kernel-rules.md
// section 12 for what was read and what is from memory).
//
// Mirrors enqueue_task_dl() / enqueue_dl_entity() / __enqueue_dl_entity(),
// dequeue_task_dl(), pick_task_dl() (the leftmost entity of the deadline
// rb-tree: earliest absolute deadline first, EDF), set_next_task_dl(),
// put_prev_task_dl(), update_curr_dl() / update_curr_dl_se(),
// task_tick_dl(), wakeup_preempt_dl() (dl_entity_preempt(): a strictly
// earlier deadline preempts) and yield_task_dl(). The constant bandwidth
// server rules (replenishment, throttling, the dl_timer) are in dl_cbs.go,
// admission control in dl_admit.go, placement and push/pull in
// dl_balance.go.
//
// The rb-tree is flattened into a slice ordered by deadline, ties in
// insertion order (__dl_less() is a strict "before", so an equal key goes
// right of the existing ones); the running task stays on it as in the
// kernel. A throttled task is runnable (on_rq) but off the tree until its
// replenishment timer fires.
//
// SIMPLIFIED: runtime is enforced where update_curr_dl() runs (the tick,
// a dequeue, a put_prev) as in the kernel with HRTICK_DL off (the default),
// so a task overruns by up to one tick; no GRUB reclaiming (SCHED_FLAG_RECLAIM)
// and no 0-lag inactive timer (task_non_contending(): it only matters for
// GRUB and for a bandwidth change of a sleeping task); no
// SCHED_FLAG_DL_OVERRUN signal; no capacity fitness (dl_task_fits_capacity())
// on asymmetric machines: runtime is scaled by CPU capacity
// (dl_scaled_delta_exec()) but placement ignores it.

import "slices"

// DLParams are a deadline task's sched_attr parameters.
type DLParams struct {
	Runtime  Time // sched_runtime
	Deadline Time // sched_deadline (relative)
	Period   Time // sched_period
}

// dlEntity is struct sched_dl_entity of a task.
type dlEntity struct {
	params    DLParams
	bw        int64 // dl_bw: to_ratio(period, runtime)
	density   int64 // dl_density: to_ratio(deadline, runtime)
	runtime   int64 // remaining runtime, ns
	deadline  Time  // absolute deadline
	throttled bool  // dl_throttled
	yielded   bool  // dl_yielded
	onRq      bool  // on the deadline tree (on_dl_rq())
	admitted  bool  // its bandwidth is in the root domain's total_bw
	releaseAt Time  // left SCHED_DEADLINE: total_bw drops at this 0-lag time (setattr_class.go); 0 = none
	timerGen  uint32
	// pi is pi_se: the entity whose parameters apply, another task's
	// while a deadline waiter boosts this one (pi.go); nil = its own.
	pi *Task

	// rd is the root domain it was admitted in (root_domain.go).
	rd *rootDomain
}

// dlRq is the CPU's struct dl_rq.
type dlRq struct {
	queue []*Task // the deadline tree, flattened (see the file comment)
}

// piParams is pi_of(dl_se)'s parameters.
func (t *Task) piParams() DLParams {
	if t.dl.pi != nil {
		return t.dl.pi.dl.params
	}
	return t.dl.params
}

// boosted is is_dl_boosted().
func (t *Task) dlBoosted() bool { return t.dl.pi != nil }

// enqueue flags of the deadline class.
const (
	dlEnqWakeup    = 1 << iota // ENQUEUE_WAKEUP
	dlEnqReplenish             // ENQUEUE_REPLENISH
	dlEnqRestore               // ENQUEUE_RESTORE (a class or priority change)
)

// enqueueDL mirrors enqueue_task_dl() -> enqueue_dl_entity().
func (s *Sim) enqueueDL(rq *rq, p *Task, flags int) {
	s.updateRqClock(rq)
	if p.dlBoosted() && p.dl.throttled {
		// A boosted task is never throttled: cancel the timer.
		p.dl.timerGen++
		p.dl.throttled = false
	}
	if !p.dl.throttled && p.dl.params.Deadline != p.dl.params.Period && p.dl.params.Deadline > 0 {
		s.dlCheckConstrained(p) // dl_check_constrained_dl()
	}
	if p.dl.throttled && flags&dlEnqReplenish == 0 {
		return // "If p is throttled, we do not enqueue it": the dl_timer will
	}
	switch {
	case flags&dlEnqWakeup != 0:
		s.updateDLEntity(p)
	case flags&dlEnqReplenish != 0:
		s.replenishDL(p)
	case flags&dlEnqRestore != 0 && !p.dlBoosted() && p.dl.deadline < s.now:
		s.replenishDLNewPeriod(p) // setup_new_dl_entity()
	}
	q := &rq.dl
	i := len(q.queue)
	for i > 0 && q.queue[i-1].dl.deadline > p.dl.deadline {
		i--
	}
	q.queue = append(q.queue, nil)
	copy(q.queue[i+1:], q.queue[i:])
	q.queue[i] = p
	p.dl.onRq = true
}

// dequeueDL mirrors dequeue_task_dl(): update_curr_dl(), then take p off
// the tree (it may already be off: throttled).
func (s *Sim) dequeueDL(rq *rq, p *Task) {
	s.updateRqClock(rq)
	s.updateCurrDL(rq)
	s.dlRemove(rq, p)
}

// dlRemove is __dequeue_dl_entity().
func (s *Sim) dlRemove(rq *rq, p *Task) {
	if !p.dl.onRq {
		return
	}
	q := &rq.dl
	if i := slices.Index(q.queue, p); i >= 0 {
		q.queue = slices.Delete(q.queue, i, i+1) // clears the vacated slot
	}
	p.dl.onRq = false
}

// updateCurrDL mirrors update_curr_dl() -> update_curr_dl_se(): charge
// curr's execution, scaled by the CPU's capacity (dl_scaled_delta_exec()),
// and throttle it once its runtime is used up (or it yielded): off the
// tree until the dl_timer replenishes it at the next period, or at once if
// it is boosted or that instant has passed.
func (s *Sim) updateCurrDL(rq *rq) {
	curr := rq.curr
	if curr == nil || !curr.isDL() {
		return
	}
	delta := int64(s.now - curr.se.execStart)
	if delta < 0 {
		return
	}
	curr.se.sumExec += delta
	curr.se.execStart = s.now
	if curr.tg != nil {
		s.chargeCgroup(curr, delta) // cgroup_account_cputime() (cgroup_stat.go)
	}
	if s.rtThrottling() && (s.rtPeriodActive || rq.rt.rtTime < s.sys.RTRuntimeUs*1000) {
		// Before v6.12 deadline time is charged to the RT bandwidth too
		// (sched_rt_bandwidth_account()); the rt_rq's own check throttles.
		rq.rt.rtTime += delta
	}
	curr.dl.runtime -= delta * rq.capacity / 1024
	if curr.dl.runtime > 0 && !curr.dl.yielded {
		return
	}
	if !curr.dl.onRq {
		return // already throttled, or dequeued for sleep
	}
	curr.dl.throttled = true
	s.dlRemove(rq, curr)
	if curr.dlBoosted() || !s.startDLTimer(curr) {
		s.enqueueDL(rq, curr, dlEnqReplenish)
	}
	if len(rq.dl.queue) == 0 || rq.dl.queue[0] != curr {
		// !is_leftmost(): resched_curr().
		by := NoTask
		if len(rq.dl.queue) > 0 {
			by = rq.dl.queue[0].id
		}
		s.reschedCurr(rq, ReasonDLThrottled, by, false)
	}
}

// setNextDL mirrors set_next_task_dl() (the pushable list is recomputed
// where it is read, dl_balance.go).
func (s *Sim) setNextDL(t *Task) { t.se.execStart = s.now }

// taskTickDL mirrors task_tick_dl(): update_curr_dl() (no hrtick).
func (s *Sim) taskTickDL(rq *rq) { s.updateCurrDL(rq) }

// checkPreemptDL mirrors wakeup_preempt_dl(): dl_entity_preempt(), a
// strictly earlier deadline. check_preempt_equal_dl() is not modelled.
func (s *Sim) checkPreemptDL(rq *rq, p *Task) {
	if p.dl.deadline < rq.curr.dl.deadline {
		s.reschedCurr(rq, ReasonDLEarlierDeadline, p.id, false)
	}
}

// yieldDL mirrors yield_task_dl(): the task gives up the rest of its
// runtime; update_curr_dl() throttles it until its next period.
func (s *Sim) yieldDL(rq *rq) {
	rq.curr.dl.yielded = true
	s.updateCurrDL(rq)
}

// pickDL is pick_task_dl()'s choice between the leftmost task and the
// v6.12+ fair server (rt_bandwidth.go), the one other deadline entity: the
// running server wins when its deadline is earlier (EDF between entities).
func (s *Sim) pickDL(rq *rq) *Task {
	if len(rq.dl.queue) == 0 {
		return nil
	}
	if fs := &rq.rt.fs; fs.running && rq.cfs.nrQueued > 0 && fs.deadline < rq.dl.queue[0].dl.deadline {
		return nil
	}
	return rq.dl.queue[0]
}
