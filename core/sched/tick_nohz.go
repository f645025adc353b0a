package sched

// The tick in idle: kernel/time/tick-sched.c tick_nohz_idle_stop_tick() /
// tick_nohz_stop_sched_tick(), tick_nohz_idle_retain_tick(),
// tick_nohz_idle_exit() -> tick_nohz_restart_sched_tick() ->
// tick_nohz_restart(), with the clock-event programming of
// kernel/time/hrtimer.c: __remove_hrtimer(), hrtimer_force_reprogram(),
// hrtimer_reprogram() and tick_program_event() (read in the v3.11 tree,
// docs/kernel-rules.md 11.5).
//
// The tick is the hrtimer ts->sched_timer; cpu_base->expires_next is the
// instant the clock event (LAPIC timer) is programmed for. The rules that
// decide how many clock-event writes a stop and a restart cost:
//   - remove_hrtimer() of the first-expiring timer whose expiry equals
//     expires_next calls hrtimer_force_reprogram(): expires_next becomes the
//     next timer of the CPU and is programmed (one write);
//   - enqueueing a first-expiring timer programs the event only when it
//     expires before expires_next (hrtimer_reprogram(): `if (expires >=
//     cpu_base->expires_next) return 0`).
// Stop: hrtimer_start(sched_timer, far expiry) = remove + enqueue. Restart:
// hrtimer_cancel() + hrtimer_forward(last_tick, now) + start.
//   - Unpatched: the removal reprograms to the CPU's next hrtimer, the far
//     expiry is earlier than it and is programmed: 2 writes; the restart's
//     cancel reprograms again and the next tick is programmed: 2 writes.
//   - features.HRTIMER_NO_REPROGRAM_ON_REMOVE (the 2013 patch of
//     S4 (docs/VALIDATION.md): remove_hrtimer() passes reprogram = 0): the event
//     stays programmed for the old tick (ts->last_tick), the far expiry is
//     later than it: no write. A restart before that instant forwards the
//     tick to last_tick itself, equal to expires_next: no write. Once the
//     old tick has passed (its interrupt found nothing to run and
//     reprogrammed to the far expiry), the restart programs the next tick:
//     one write.
// Each stop and restart also pays its bookkeeping (hw.tick_stop_ns,
// hw.tick_restart_ns).
//
// features.NOHZ_RATELIMIT ("sched: ratelimit nohz", Mike Galbraith, SUSE,
// June 2012, "Patch-mainline: never"): sched_needs_cpu() is true while
// rq->avg_idle < sysctl_sched_migration_cost and keeps the tick like
// rcu_needs_cpu() (next event = next jiffy, so tick_nohz_stop_sched_tick()
// returns before stopping), applied in menuSelect. rq->avg_idle is updated
// as the kernel's update_avg() at each wakeup of an idle CPU (newidle.go).
// With the hrtimer patch a stop and restart inside a jiffy program nothing,
// so keeping the tick saves only their bookkeeping.
//
// A tick retained in idle fires on the idle CPU: the state is left, the
// CPU runs its own periodic balance (balance_trigger.go) and the governor
// runs again (do_idle()'s loop), at no modelled cost. Only a stopped tick
// puts the CPU in nohz.idle_cpus_mask (nohz_mask.go).
//
// SIMPLIFIED: the CPU is assumed to have another hrtimer later than the
// stopped tick's far expiry (the softlockup watchdog's, 4 s), which is what
// makes the unpatched removals reprogram; without one the unpatched stop
// and restart write once each. With the patch, the interrupt of the old
// tick on a CPU still idle (it wakes the CPU for nothing) is not modelled.

// tickStopCost is the cost of tick_nohz_stop_sched_tick() stopping the tick.
func (s *Sim) tickStopCost() int64 {
	if s.feat.Has(HrtimerNoReprogramOnRemove) {
		return s.hw.TickStopNs
	}
	return s.hw.TickStopNs + 2*s.hw.ClockEventNs
}

// tickNohzStop stops the CPU's tick (the cost was charged at idle entry).
// ts->last_tick is the sched_timer's expiry: the first jiffy after now (a
// tick that fired on the idle CPU was forwarded to it by tick_sched_timer()
// before the idle loop stopped it).
func (s *Sim) tickNohzStop(rq *rq) {
	if rq.idle.tickStopped {
		return
	}
	rq.idle.tickStopped = true
	s.nohzBalanceEnterIdle(rq) // nohz_mask.go
	rq.idle.lastTick = s.nextTick()
	rq.tickArmed = false
	rq.tickGen++
}

// tickNohzRestart restarts the tick on idle exit and returns its cost.
func (s *Sim) tickNohzRestart(rq *rq) int64 {
	rq.idle.tickStopped = false
	s.armTick(rq)
	c := s.hw.TickRestart
	switch {
	case !s.feat.Has(HrtimerNoReprogramOnRemove):
		c += 2 * s.hw.ClockEventNs
	case s.now >= rq.idle.lastTick:
		c += s.hw.ClockEventNs // the old tick fired: program the next one
	}
	return c
}

// idleTick is sched_tick() on a CPU running the idle task, whose tick the
// governor kept: rq->idle_balance = idle_cpu() and the periodic balance
// (balance_trigger.go). A task pulled there ends the idle loop (the
// interrupt left the state; tick_nohz_idle_exit() finds the tick running);
// otherwise the state is re-entered after the governor runs again.
func (s *Sim) idleTick(rq *rq) {
	if s.ideal() {
		return // the engine's earlier lazy NO_HZ_IDLE stop
	}
	if rq.idle.phase != idleIn {
		s.armTick(rq) // in the idle path's kernel work: the tick keeps running
		s.triggerLoadBalance(rq, s.idleCPU(rq.cpu))
		return // a pull sets need_resched, which the pending step sees
	}
	s.emit(Event{Kind: EvIdleExit, CPU: rq.cpu, Arg: -1})
	s.menuReflect(rq, int64(s.now-rq.idle.enteredAt))
	s.triggerLoadBalance(rq, s.idleCPU(rq.cpu))
	if rq.needResched {
		rq.idle.polling = false
		s.armTick(rq)
		s.idlePostStart(rq, true)
		return
	}
	rq.idle.state, rq.idle.stopTick = s.menuSelect(rq)
	if !rq.idle.stopTick {
		s.armTick(rq)
	}
	s.idleEnterState(rq)
}
