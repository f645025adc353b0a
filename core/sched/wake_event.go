package sched

// The wakeup events: the context try_to_wake_up() ran in, as its
// tracepoints record it (kernel/sched/core.c).
//
// trace_sched_waking() fires at the top of try_to_wake_up(), before the
// CPU is chosen, on the CPU that runs it: the waker's in process context,
// or for a timer or interrupt wakeup the CPU where the interrupt fired,
// with whatever task was current there (EvWaking). trace_sched_wakeup()
// fires in ttwu_do_wakeup(), from ttwu_runnable() or ttwu_do_activate():
// on the same CPU when the waker enqueues the task itself, or on the
// target CPU when ttwu_queue_wakelist() hands the wakeup to it
// (sched_ttwu_pending(), after the IPI or in the polling idle loop)
// (EvWakeup, the line's CPU in Arg). The trace writers print each line
// where the kernel does, so a replayed trace sees who woke whom.
//
// A wake-list wakeup's sched_wakeup is emitted when the target runs
// sched_ttwu_pending() (wakelist.go), so it carries that CPU's later
// timestamp. SIMPLIFIED: the RT and deadline wakeup paths never go through
// the wake list.

// emitWaking emits the EvWaking of t by waker (nil: interrupt context) on
// the CPU running try_to_wake_up() (s.localCPU; t's CPU when the event is
// not tied to one).
func (s *Sim) emitWaking(t *Task, reason Reason, waker *Task) {
	if !s.observed() {
		return
	}
	cpu := s.localCPU
	if cpu < 0 || int(cpu) >= len(s.rqs) {
		cpu = t.cpu
	}
	s.emit(Event{Kind: EvWaking, CPU: cpu, Prev: taskID(waker), Next: t.id, Reason: reason, Arg: int64(t.cpu)})
}

// emitWakeup emits the EvWakeup of t onto cpu by waker: printed on the
// CPU running try_to_wake_up(), or on cpu when the wakeup went through
// its wake list (queued).
func (s *Sim) emitWakeup(cpu CPUID, t *Task, reason Reason, waker *Task, queued bool) {
	at := s.localCPU
	if queued || at < 0 || int(at) >= len(s.rqs) {
		at = cpu
	}
	s.emit(Event{Kind: EvWakeup, CPU: cpu, Prev: taskID(waker), Next: t.id, Reason: reason, Arg: int64(at)})
}
