package sched

// The tick in idle: kernel/time/tick-sched.c tick_nohz_idle_stop_tick() /
// tick_nohz_stop_tick(), tick_nohz_idle_retain_tick(),
// tick_nohz_idle_exit() -> tick_nohz_restart_sched_tick(), with the
// clock-event reprogramming of kernel/time/hrtimer.c (__remove_hrtimer(),
// hrtimer_force_reprogram(), tick_program_event()).
//
// Costs (hw.go):
//   - stop = hw.tick_stop_ns + reprogram on removing the tick hrtimer
//     (remove_hrtimer() reprograms when the removed timer was the next to
//     expire; skipped with features.HRTIMER_NO_REPROGRAM_ON_REMOVE, the
//     2013 patch of experiments.md S4) + one tick_program_event() for the
//     next event;
//   - restart = hw.tick_restart_ns + the same removal reprogram (cancel the
//     far sched_timer) + one program of the next tick.
//
// features.NOHZ_RATELIMIT ("sched: ratelimit nohz", 2013, not merged):
// sched_needs_cpu() is true while rq->avg_idle < sysctl_sched_migration_cost
// and keeps the tick (applied in menuSelect). rq->avg_idle is updated as the
// kernel's update_avg() at each wakeup of an idle CPU (newidle.go).
//
// A tick retained in idle fires on the idle CPU: the state is left and the
// governor runs again (do_idle()'s loop), at no modelled cost.

func (s *Sim) tickStopCost() int64 {
	c := s.hw.TickStopNs + s.hw.ClockEventNs
	if !s.feat.Has(HrtimerNoReprogramOnRemove) {
		c += s.hw.ClockEventNs
	}
	return c
}

// tickNohzStop stops the CPU's tick (the cost was charged at idle entry).
func (s *Sim) tickNohzStop(rq *rq) {
	if rq.idle.tickStopped {
		return
	}
	rq.idle.tickStopped = true
	rq.tickArmed = false
	rq.tickGen++
}

// tickNohzRestart restarts the tick on idle exit and returns its cost.
func (s *Sim) tickNohzRestart(rq *rq) int64 {
	rq.idle.tickStopped = false
	s.armTick(rq)
	c := s.hw.TickRestart + s.hw.ClockEventNs
	if !s.feat.Has(HrtimerNoReprogramOnRemove) {
		c += s.hw.ClockEventNs
	}
	return c
}

// idleTick is sched_tick() on a CPU running the idle task.
func (s *Sim) idleTick(rq *rq) {
	if s.ideal() {
		return // the engine's earlier lazy NO_HZ_IDLE stop
	}
	if rq.idle.phase != idleIn {
		s.armTick(rq) // in the idle path's kernel work: the tick keeps running
		return
	}
	s.emit(Event{Kind: EvIdleExit, CPU: rq.cpu, Arg: -1})
	s.menuReflect(rq, int64(s.now-rq.idle.enteredAt))
	rq.idle.state, rq.idle.stopTick = s.menuSelect(rq)
	if !rq.idle.stopTick {
		s.armTick(rq)
	}
	s.idleEnterState(rq)
}
