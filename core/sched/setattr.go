package sched

// Policy and priority changes during a run: kernel/sched/syscalls.c
// (core.c before v6.10) __sched_setscheduler(), reached from
// sched_setattr() and sched_setscheduler() (OpSetattr), and
// set_user_nice(), reached from setpriority() and nice() (OpNice), with
// __setscheduler_params(), set_load_weight(), __setscheduler_prio() and
// check_class_changed() (core.c).
//
// __sched_setscheduler() of a task p:
//
//   - nothing changes when the policy is p's and its parameter (nice, RT
//     priority, DL parameters) too: the call returns without touching p;
//   - the refusals the simulator can meet are -EPERM (an RT policy for a
//     task in a cgroup without RT runtime under RT_GROUP_SCHED; a deadline
//     policy for a task whose affinity does not span the root domain) and
//     -EBUSY (sched_dl_overflow(): the deadline bandwidth would exceed the
//     root domain's limit). rt-app exits when sched_setattr() fails; the
//     simulator stops the run with an error naming the task, the call and
//     the time (as a deadline task refused at its creation does);
//   - the new prio is __normal_prio() of the new parameters, raised by the
//     top PI waiter (rt_effective_prio()): a boosted task keeps its boosted
//     prio and class, the new parameters take effect when the boost ends
//     (rt_mutex_setprio() then computes the prio from the new normal prio,
//     pi.go). An unchanged prio drops DEQUEUE_MOVE: an RT task keeps its
//     place in its list;
//   - dequeue (DEQUEUE_SAVE) and put_prev_task() if running; the new
//     parameters; set_load_weight(p, true), which reweights through
//     reweight_task() -> reweight_entity() (cgroup_shares.go: the lag and
//     the relative deadline rescaled between the weights on EEVDF, the
//     vruntime kept relative on legacy CFS) when p is in the fair class, and
//     stores the weight otherwise; enqueue (ENQUEUE_RESTORE, ENQUEUE_HEAD
//     when the prio got worse) and set_next_task() if running;
//   - check_class_changed(): switched_from/switched_to when the class
//     changed, else prio_changed when the prio changed (always for a
//     deadline task); see classChanged();
//   - rt_mutex_adjust_pi(): a task blocked on a mutex is requeued among
//     its waiters and its owner's boost recomputed.
//
// set_user_nice() changes only static_prio for RT and deadline tasks; a
// fair task is dequeued, reweighted and enqueued again, and
// prio_changed_fair() decides on a reschedule (v5.6+; before, the "delta <
// 0, or delta > 0 and running" test of set_user_nice() itself, and v3.11
// neither puts nor sets the running task).
//
// A deadline task leaving the class keeps its bandwidth in the root
// domain's total_bw until its 0-lag time (switched_from_dl() ->
// task_non_contending() and the inactive timer); the release is applied
// lazily, before each admission test (dlReleaseDue()), which is the only
// reader of total_bw. Returning to the class before that time takes the
// pending bandwidth back out as sched_dl_overflow() does.
//
// SIMPLIFIED: a delayed-dequeue fair task (sleeping, still queued) that
// stays in the fair class is requeued and reweighted without the wakeup
// preemption check prio_changed_fair() would make for it; uclamp and
// SCHED_FLAG_* are not modelled; a blocked legacy CFS task switched out of
// and back into the fair class has its vruntime normalised as v5.8's
// detach_task_cfs_rq()/attach_task_cfs_rq() do, also on v3.11.

import (
	"fmt"

	"schedplay/core/quote"
)

// Attr is the request of an OpSetattr or OpNice step.
type Attr struct {
	Policy Policy // OpSetattr
	// KeepNice leaves the fair task's nice as it is (sched_setscheduler()
	// passes the task's own nice in its sched_attr); else Nice applies.
	KeepNice bool
	Nice     int      // -20..19
	RTPrio   int      // 1..99 for SCHED_FIFO/SCHED_RR, 0 otherwise
	DL       DLParams // SCHED_DEADLINE
	// Group is the task group whose instances are changed (each instance
	// created and not exited, in instance order); -1 = the task itself.
	Group int
}

// Check validates a as __sched_setscheduler() does (-EINVAL).
func (a *Attr) Check(nice bool) error {
	if a.Nice < -20 || a.Nice > 19 {
		return fmt.Errorf("nice %d out of range -20..19", a.Nice)
	}
	if nice {
		return nil
	}
	if int(a.Policy) >= len(policyNames) {
		return fmt.Errorf("unknown policy %d", a.Policy)
	}
	if a.Policy.IsRT() != (a.RTPrio != 0) || a.RTPrio < 0 || a.RTPrio >= MaxRTPrio {
		if a.Policy.IsRT() {
			return fmt.Errorf("%s needs an rt_priority 1..99, got %d", a.Policy, a.RTPrio)
		}
		return fmt.Errorf("%s takes no rt_priority (got %d)", a.Policy, a.RTPrio)
	}
	if a.Policy.IsDeadline() {
		return CheckDLParams(a.DL)
	}
	if a.DL != (DLParams{}) {
		return fmt.Errorf("%s takes no deadline parameters", a.Policy)
	}
	return nil
}

// setattrOp executes an OpSetattr or OpNice step of the running task t. It
// reports false when the run failed.
func (s *Sim) setattrOp(t *Task, op *Op) bool {
	apply := func(p *Task) error {
		if op.Kind == OpNice {
			s.setUserNice(t, p, op.Attr.Nice)
			return nil
		}
		return s.schedSetattr(t, p, op.Attr)
	}
	// The call runs on t's CPU: reschedules of other CPUs go by IPI.
	saved := s.localCPU
	s.localCPU = t.cpu
	defer func() { s.localCPU = saved }()
	if op.Attr.Group < 0 {
		if err := apply(t); err != nil {
			s.fail(err)
			return false
		}
		return true
	}
	for _, p := range s.tasks {
		if p.group != op.Attr.Group || p.my != nil {
			continue
		}
		if err := apply(p); err != nil {
			s.fail(err)
			return false
		}
	}
	return true
}

// normalPrioOf is __normal_prio().
func normalPrioOf(policy Policy, rtPrio, nice int) int {
	switch {
	case policy.IsDeadline():
		return -1
	case policy.IsRT():
		return MaxRTPrio - 1 - rtPrio
	}
	return 120 + nice
}

// rtEffectivePrio is rt_effective_prio(): prio raised by p's top PI waiter.
func (s *Sim) rtEffectivePrio(p *Task, prio int) int {
	if !s.cfg.PI {
		return prio
	}
	for _, m := range p.lk.held {
		r := &s.res[m]
		if len(r.waiters) > 0 {
			prio = min(prio, s.tasks[r.waiters[0]].prio())
		}
	}
	return prio
}

// schedSetattr mirrors __sched_setscheduler(p, attr, user, pi=true).
func (s *Sim) schedSetattr(by, p *Task, a *Attr) error {
	if p.state == stateUnborn || p.state == stateDead {
		return nil // -ESRCH: nothing to change
	}
	nice := a.Nice
	if a.KeepNice || !fairPolicy(a.Policy) {
		nice = p.nice // static_prio stays for RT and deadline policies
	}
	if a.Policy == p.policy {
		switch {
		case a.Policy.IsRT() && a.RTPrio == p.rtPrio,
			a.Policy.IsDeadline() && a.DL == p.dl.params,
			fairPolicy(a.Policy) && nice == p.nice:
			return nil
		}
	}
	if err := s.setattrPerm(p, a); err != nil {
		return err
	}
	if a.Policy.IsDeadline() || p.isDL() {
		if err := s.dlSetattrOverflow(p, a); err != nil {
			return err
		}
	}
	oldprio := p.effPrio
	newprio := s.rtEffectivePrio(p, normalPrioOf(a.Policy, a.RTPrio, nice))
	s.changePrio(by, p, oldprio, newprio, func() {
		p.policy = a.Policy
		s.noteSchedIdlePolicy(a.Policy)
		p.nice = nice
		p.rtPrio = a.RTPrio
		if a.Policy.IsDeadline() {
			p.dl.params = a.DL // __setparam_dl()
			p.dl.bw = toRatio(a.DL.Period, a.DL.Runtime)
			p.dl.density = toRatio(a.DL.Deadline, a.DL.Runtime)
		}
	})
	if s.cfg.PI && p.lk.blockedOn >= 0 {
		// rt_mutex_adjust_pi(): requeue p among its mutex's waiters and
		// walk the chain from the owner.
		r := &s.res[p.lk.blockedOn]
		dequeueWaiter(r, p)
		s.enqueueWaiter(r, p)
		s.adjustPrioChain(r.owner)
	}
	return nil
}

// setUserNice mirrors set_user_nice(p, nice).
func (s *Sim) setUserNice(by, p *Task, nice int) {
	if p.state == stateUnborn || p.state == stateDead || p.nice == nice {
		return
	}
	if p.policy.IsRT() || p.policy.IsDeadline() {
		p.nice = nice // no effect until the task is fair again
		return
	}
	oldprio := p.effPrio
	newprio := oldprio
	if oldprio >= MaxRTPrio {
		newprio = 120 + nice // effective_prio(): a boosted prio stays
	}
	if !s.rules.niceViaPrioChanged {
		s.setUserNiceV3(by, p, nice, oldprio, newprio)
		return
	}
	s.changePrio(by, p, oldprio, newprio, func() { p.nice = nice })
}

// setUserNiceV3 is v3.11's set_user_nice(): dequeue and enqueue without
// put_prev_task()/set_curr_task(), and a reschedule when the prio rose or
// the running task's fell.
func (s *Sim) setUserNiceV3(by, p *Task, nice, oldprio, newprio int) {
	rq := &s.rqs[p.cpu]
	s.updateRqClock(rq)
	queued := p.state == stateRunnable
	fair := oldprio >= MaxRTPrio
	if queued && fair {
		s.dequeueTask(rq, p, 0)
	}
	p.nice = nice
	s.setLoadWeight(p, fair)
	p.effPrio = newprio
	if queued && fair {
		s.enqueueTask(rq, p, 0)
	}
	if queued && (newprio < oldprio || (newprio > oldprio && rq.curr == p)) {
		s.reschedCurr(rq, ReasonSetattr, p.id, false)
	}
	s.emitSetattr(rq, by, p, oldprio)
}

// fairPolicy is fair_policy().
func fairPolicy(p Policy) bool { return p == SchedOther || p == SchedBatch || p == SchedIdle }

// setattrPerm is the -EPERM part of __sched_setscheduler() that a
// privileged caller still meets.
func (s *Sim) setattrPerm(p *Task, a *Attr) error {
	if a.Policy.IsRT() && s.cfg.RTGroupSched && p.tg != nil && p.tg.id <= len(s.cfg.Cgroups) && p.tg.rt == nil {
		return fmt.Errorf("task %s: sched_setattr(%s) at %s fails with EPERM: its cgroup %s has no RT runtime (cpu.rt_runtime_us 0)", quote.Clip(p.name), a.Policy, s.now, quote.Clip(s.cfg.Cgroups[p.tg.id-1].Path))
	}
	if a.Policy.IsDeadline() && p.affinity.weight() < len(s.rqs) {
		return fmt.Errorf("task %s: sched_setattr(SCHED_DEADLINE) at %s fails with EPERM: its affinity does not span the root domain's %d CPUs", quote.Clip(p.name), s.now, len(s.rqs))
	}
	return nil
}

// changePrio is the common body of __sched_setscheduler() and
// set_user_nice() from the dequeue to check_class_changed(): set changes
// p's parameters while it is off its class's queue.
func (s *Sim) changePrio(by, p *Task, oldprio, newprio int, set func()) {
	rq := &s.rqs[p.cpu]
	if rq.pollAlone && rq.curr == p {
		s.pollAloneEnded(rq) // clock_poll.go
	}
	s.updateRqClock(rq)
	queued := p.state == stateRunnable
	running := rq.curr == p
	wasFair, wasRT := oldprio >= MaxRTPrio, oldprio >= 0 && oldprio < MaxRTPrio
	toFair := newprio >= MaxRTPrio
	delayed := wasFair && !queued && p.se.onRq
	if delayed && !toFair {
		// A delayed task leaving the fair class finishes its dequeue
		// first (98442f0ccd82, v6.12).
		s.dequeueTask(rq, p, deqSleep|deqDelayed)
		delayed = false
	}
	inPlace := queued && wasRT && newprio == oldprio // no DEQUEUE_MOVE
	limbo := queued && p.throttled                   // v6.18: on its cfs_rq's throttled limbo list
	switch {
	case inPlace:
		s.updateCurrRT(rq)
		if p.policy == SchedRR {
			rq.rt.rrNrRunning--
		}
	case queued:
		s.classDequeue(rq, p, running)
	case delayed:
		s.dequeueTask(rq, p, 0)
	}
	set()
	s.setLoadWeight(p, wasFair)
	if wasFair && !toFair {
		s.switchedFromFair(rq, p, queued)
	}
	p.effPrio = newprio
	switch {
	case inPlace:
		if p.policy == SchedRR {
			rq.rt.rrNrRunning++
		}
	case queued:
		s.classEnqueue(rq, p, dlEnqRestore, running)
		if p.isRT() && oldprio < newprio {
			s.rtMoveHead(rq, p) // ENQUEUE_HEAD
		}
	case delayed:
		s.enqueueTask(rq, p, 0)
	}
	if limbo && p.throttled {
		queued = false // still throttled: no wakeup preemption for a throttled hierarchy
	}
	s.classChanged(rq, p, oldprio, queued && !delayed)
	s.emitSetattr(rq, by, p, oldprio)
}

// setLoadWeight mirrors set_load_weight(p, true): reweight_task() when p
// is in the fair class (v6.6 and older store SCHED_IDLE's weight directly,
// the branch ef73d6a4ef0b removed), the weight stored otherwise.
func (s *Sim) setLoadWeight(p *Task, fairClass bool) {
	lw := s.arith.taskWeight(p.policy, p.nice)
	if !fairClass || (p.policy == SchedIdle && !s.rules.idleReweight) {
		p.se.load = lw
		return
	}
	if lw.weight != p.se.load.weight {
		// The task is off its queue here: reweight_entity() rescales the
		// saved lag (and relative deadline) and the PELT load.
		s.reweightEntity(s.cfsOf(p), p, lw.weight)
	}
	p.se.load.invWeight = lw.invWeight
}

// switchedFromFair is switched_from_fair() -> detach_task_cfs_rq(): the
// PELT signal leaves the cfs_rq; a sleeping legacy CFS task has its
// vruntime placed and made relative (v5.8's vruntime_normalized() test).
func (s *Sim) switchedFromFair(rq *rq, p *Task, queued bool) {
	if !s.eevdf && !queued && !p.se.onRq && p.se.sumExec != 0 {
		q := s.cfsOf(p)
		s.cfsPlace(q, p, false)
		p.se.vruntime -= q.minVruntime
	}
	if p.se.avg.attached {
		s.updateLoadAvg(rq, p, peltDoDetach)
	}
}

// emitSetattr reports a change applied to p (the simulator's event: the
// kernel has no sched tracepoint for it; later sched_switch lines show the
// new prio).
func (s *Sim) emitSetattr(rq *rq, by, p *Task, oldprio int) {
	s.emit(Event{Kind: EvSetattr, CPU: rq.cpu, Prev: by.id, Next: p.id, Arg: int64(oldprio)})
}
