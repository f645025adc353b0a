package sched

// Non-preemptible, interrupts-off spans on a CPU: the stretch of
// kernel/sched/fair.c newidle_balance() (sched_balance_newidle()) that runs
// inside __schedule() with this rq's lock dropped by raw_spin_rq_unlock()
// (raw_spin_unlock() in v5.x), i.e. still with interrupts disabled and
// preemption off. Interrupts that arrive meanwhile (the hrtimer of a
// sleeping task, a reschedule or function-call IPI, the tick) stay pending
// in the local APIC and are taken when interrupts are enabled again, at the
// end of the span: the event that stands for the interrupt (qWake, qResched,
// qTick) is moved to rq.spanUntil.
//
// The three RFC patches of S2 (docs/VALIDATION.md) ("newidle_balance() latency
// mitigation", S. Wood and R. van Riel, Apr 2020) change where the span
// ends (newidle.go):
//
//   - NEWIDLE_FROM_FINISH_SWITCH (1/3): newidle_balance() is called from
//     finish_task_switch() once the CPU switched to idle, entered with
//     preemption and interrupts enabled; it then takes preempt_disable(),
//     local_bh_disable() and raw_spin_lock_irq() itself, so on its own the
//     walk is still one interrupts-off span. No latency change by itself:
//     it is what lets 2/3 enable interrupts.
//   - NEWIDLE_IRQ_ON_UNLOCK (2/3, written on top of 1/3 and modelled only
//     together with it: called from __schedule(), the walk would run with
//     the caller's interrupts off): raw_spin_unlock_irq() /
//     raw_spin_lock_irq() around the domain walk: a pending interrupt is
//     taken at once. An RT task woken by its hrtimer is enqueued, but
//     preemption is still disabled, so it runs only when the walk stops:
//     at the existing "pulled_task || this_rq->nr_running > 0" check after
//     the current domain's load_balance().
//   - NEWIDLE_RT_ABORT (3/3): rq_has_runnable_rt_task() (nr_running !=
//     cfs.h_nr_running) in should_we_balance() (before a domain's
//     statistics, and again at every LBF_ALL_PINNED redo of
//     load_balance(), which jumps back before it), after detach_tasks()/
//     attach_tasks() (goto out: no redo) and in need_active_balance(). With
//     interrupts off during the walk (2/3 not applied) nothing can make an
//     RT task runnable on this CPU except a remote enqueue, which the
//     look-ahead below does not model.
//
// Why the unpatched walk is several statistics passes long: rteval binds
// each of its loads to one NUMA node (numactl --cpunodebind), so at the
// NUMA level the busiest queue's tasks are all pinned away from the
// balancing CPU; detach_tasks() moves nothing, LBF_ALL_PINNED stays set,
// and load_balance() drops that queue from env->cpus and gathers the
// domain's statistics again ("goto redo"), once per such queue, while
// find_busiest_group() still sees an imbalance (balance.go, lbcost.go).
//
// SIMPLIFIED:
//   - The walk is computed when the CPU goes idle (decisions on the state of
//     that instant). Whether an interrupt cuts it short is decided by
//     looking ahead at the hrtimers already armed on this CPU for RT tasks
//     (cyclictest-like threads): they are known in advance, and no other
//     code runs on the CPU meanwhile to arm new ones. Remote wakeups
//     arriving during the walk do not shorten it.
//   - With NEWIDLE_IRQ_ON_UNLOCK the interrupt is really taken inside the
//     walk; here it is delivered at the span's end, which the look-ahead
//     has already moved to the first check after the expiry. The woken RT
//     task runs at the same time either way; only its sched_wakeup is
//     stamped later. The short locked parts around the walk (rq lock held,
//     interrupts off) cost no time.
//   - The span is one piece: the switch to idle (or to the pulled task) is
//     stamped at its start, the kernel time after it.

// maxTime is a time after every run's end.
const maxTime Time = 1<<63 - 1

// deferIRQ reports whether an interrupt event for cpu must wait for the end
// of a span, and re-queues it there if so.
func (s *Sim) deferIRQ(e *qevent) bool {
	rq := &s.rqs[e.cpu]
	if rq.spanUntil <= e.at {
		return false
	}
	d := *e
	d.at = rq.spanUntil
	s.q.push(d)
	return true
}

// startSpan opens a non-preemptible span of d ns on rq from now.
func (s *Sim) startSpan(rq *rq, d int64) {
	if d <= 0 {
		return
	}
	rq.spanUntil = max(rq.spanUntil, s.now+Time(d))
}

// rtTimerAt is when the earliest hrtimer armed on rq for a blocked RT or
// deadline task (rq_has_runnable_rt_task() counts every class above fair)
// interrupts the CPU (its hard expiry, plus the interrupt's lateness:
// timerIRQAt), or maxTime when there is none.
func (s *Sim) rtTimerAt(rq *rq) Time {
	at := maxTime
	for _, tm := range rq.timers {
		t := s.tasks[tm.task]
		if (t.isRT() || t.isDL()) && tm.gen == t.wakeGen && t.state == stateBlocked && tm.hard < at {
			at = tm.hard
		}
	}
	if at == maxTime {
		return at
	}
	return s.timerIRQAt(at)
}

// nlbAbort is what load_balance() needs, inside a newidle walk, to stop
// once an RT task is runnable on the balancing CPU: where the current
// load_balance() started (t0: its elapsed time is t0 + s.lbCost), when the
// RT task becomes runnable (rtAt, maxTime when it cannot inside the walk),
// and which checks exist: swb, rq_has_runnable_rt_task() in
// should_we_balance() (RFC 3/3; v6.x checks dst nr_running there),
// evaluated again on every LBF_ALL_PINNED redo; detach, the RFC 3/3 check
// after detach_tasks()/attach_tasks(), before the redo.
type nlbAbort struct {
	t0, rtAt    Time
	swb, detach bool
}

// nlbRTRunnable reports whether check (one of s.nlb's flags) sees the RT
// task runnable at the current point of the load_balance() under way.
func (s *Sim) nlbRTRunnable(check bool) bool {
	return check && s.nlb.rtAt <= s.nlb.t0+Time(s.lbCost)
}

// takeLBSpan returns and clears the newidle balance time the switch after
// it adds: to the idle entry, or as kernel time of the pulled task.
func (s *Sim) takeLBSpan(rq *rq) int64 {
	d := rq.lbSpan
	rq.lbSpan = 0
	return d
}
