package sched

// The hrtimer interrupt's own time on a CPU running a task. A sleeper's
// timer expires in hrtimer_interrupt() (kernel/time/hrtimer.c, read at
// torvalds/linux 009eb5da, v6.15 or later: it has
// hrtimer_setup_sleeper_on_stack(); the path is the same since high-res
// timers, v2.6.21): __hrtimer_run_queues() runs hrtimer_wakeup() ->
// wake_up_process() -> try_to_wake_up(), whose wakeup_preempt() may set
// need_resched, then hrtimer_update_next_event() and tick_program_event()
// reprogram the clock event, and the interrupt returns. Only on that return
// (irqentry_exit(): to user mode, or preempt_schedule_irq() with kernel
// preemption) does __schedule() run. The interrupted task pays all of it:
// without CONFIG_IRQ_TIME_ACCOUNTING the interrupt's time is in its
// sum_exec_runtime, and its own work stops meanwhile.
//
// hw.timer_irq_ns is that time: when a sleeper's hrtimer expires on a CPU
// running a task, the task's work stops for hw.timer_irq_ns (kernel time,
// charged as the switch costs are), the wakeup is made at the interrupt's
// entry (sched_waking and sched_wakeup there, as the kernel
// prints them), and a preemption it asks for of the CPU's task takes effect
// at the interrupt's end. On an idle CPU the idle path's own costs apply
// (idle.go). Its default is 0: the interrupt costs nothing, the model
// before this mechanism; a cost set or the trace replay
// (core/replay/costs.go) gives the machine's figure.
//
// hw.timer_irq_latency_ns is when that interrupt comes: the clock event
// (the local APIC timer, programmed by tick_program_event() for the
// earliest hard expiry) interrupts the CPU that long after the expiry, and
// hrtimer_interrupt() reads the clock then and runs every timer whose soft
// expiry is at or before it (__hrtimer_run_queues()). On a VM it is the
// TSC-deadline's exit and the interrupt's injection (12.6 us on the 2-vCPU
// guest, docs/costs.md). The sleeper's wakeup (sched_waking, sched_wakeup)
// is stamped at the interrupt, as the kernel prints it; hrtimer_expire_entry
// keeps the hard expiry in its Arg, so the lateness can be read. On a
// halted CPU the idle state's exit latency comes on top (idle.go). Default
// 0: the interrupt at the hard expiry.
//
// SIMPLIFIED: only sleepers' timers are late; the tick fires on its grid
// (a uniform shift of every tick would change nothing relative to the
// other ticks), so a tick inside a sleeper's lateness expires it early,
// as any hrtimer interrupt after the soft expiry does. Other hrtimers (the
// deadline and bandwidth timers) fire at their expiry.
//
// SIMPLIFIED: the tick's interrupt (tick_sched_timer(), the same
// hrtimer_interrupt()) is charged only when it also expires a sleeper; its
// own handling, a few microseconds per jiffy, is not modelled. Events on
// the CPU during the interrupt (a reschedule IPI, a tick) are taken at
// once, not after it.

// timerInterrupt expires the due sleepers of rq's CPU (expireTimers)
// inside the hrtimer interrupt: when the CPU runs a task and the interrupt
// wakes at least one sleeper, the task is charged hw.timer_irq_ns and a
// resched the wakeups set is acted on at the interrupt's end.
func (s *Sim) timerInterrupt(rq *rq) {
	d := s.hw.TimerIRQNs
	if d <= 0 || rq.curr == nil || !s.dueSleeper(rq) {
		s.expireTimers(rq)
		return
	}
	s.stopRun(rq)
	s.chargeKernel(rq, rq.curr, d)
	rq.segStart = rq.kernUntil // no work done until the interrupt returns (stopRun)
	rq.irqUntil = s.now + Time(d)
	s.expireTimers(rq)
	if rq.needResched {
		s.q.push(qevent{at: rq.irqUntil, kind: qIRQExit, cpu: rq.cpu, prio: prioTimer})
		return
	}
	s.armRun(rq) // the task's work resumes after the interrupt (kernUntil)
}

// timerIRQAt is when the hrtimer interrupt of a sleeper's timer with hard
// expiry hard reaches its CPU (hw.timer_irq_latency_ns later).
func (s *Sim) timerIRQAt(hard Time) Time { return hard + Time(s.hw.TimerIRQLat) }

// inTimerIRQ reports whether rq's CPU is inside a charged hrtimer
// interrupt: a wakeup made there leaves the resched to its end.
func (s *Sim) inTimerIRQ(rq *rq) bool { return s.now < rq.irqUntil }

// irqExit is the hrtimer interrupt's return on rq's CPU: the resched its
// wakeups set is acted on (irqentry_exit()).
func (s *Sim) irqExit(rq *rq) {
	s.kickIfResched(rq)
}

// dueSleeper reports whether a sleeper's timer on rq has passed its soft
// expiry and would wake it (the test expireTimers makes).
func (s *Sim) dueSleeper(rq *rq) bool {
	for _, tm := range rq.timers {
		if tm.soft <= s.now {
			if t := s.tasks[tm.task]; tm.gen == t.wakeGen && t.state == stateBlocked {
				return true
			}
		}
	}
	return false
}
