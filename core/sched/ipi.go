package sched

// Wake delivery and IPIs: kernel/sched/core.c ttwu_queue_cond() /
// ttwu_queue_wakelist(), resched_curr() with set_nr_and_not_polling(),
// send_call_function_single_ipi() with set_nr_if_polling() (since "smp:
// Optimize send_call_function_single_ipi()", b2a02fc43a1f), and the ipi
// tracepoints (include/trace/events/ipi.h ipi_raise / ipi_entry).
//
// A remote wakeup with TTWU_QUEUE goes through the target's wake list when
// the CPUs do not share an LLC or, from v6.0 [M], the target is idle
// (nothing queued);
// otherwise the waker enqueues directly and resched_curr() asks the target
// to reschedule. Either way the target hears of it by:
//   - no IPI when its idle task is polling (POLL, and MWAIT states from
//     v3.16, f8e617f45829, see initIdle()): TIF_NEED_RESCHED is set (trace
//     sched_wake_idle_without_ipi) and the CPU notices at once, paying
//     only the state's exit latency;
//   - otherwise an IPI (function call for the wake list from v5.8, a
//     reschedule before it and for resched_curr()) that arrives
//     hw.ipi_latency_ns later.
//
// The wake-list entry itself, and the target's sched_ttwu_pending() when
// the IPI or the polling idle loop delivers it, are in wakelist.go.

// ttwuQueueWakelist mirrors ttwu_queue_cond() for a wakeup by this onto cpu.
// A wakeup with no waking CPU (the launcher's) enqueues directly.
func (s *Sim) ttwuQueueWakelist(this, cpu CPUID) bool {
	if !s.feat.Has(TTWUQueue) || this < 0 || s.localCPU < 0 || this == cpu {
		return false
	}
	if !s.sharesLLC(this, cpu) {
		return true
	}
	if !s.rules.wakeListIdleLLC {
		// Before "sched: Queue task on wakelist in the same llc if the
		// wakee cpu is idle" (Tianchen Ding, 2022; v6.0 [M]) a same-LLC
		// wakeup always enqueued directly (v3.11 ttwu_queue(): only
		// !cpus_share_cache()). SIMPLIFIED: v5.8's WF_ON_CPU case (the
		// wakee still descheduling) is not modelled.
		return false
	}
	// v6.0+: `if (!cpu_rq(cpu)->nr_running) return true;` (every class;
	// a pending wake list is not in the count).
	return s.rqNrRunning(&s.rqs[cpu]) == 0
}

func (s *Sim) sharesLLC(a, b CPUID) bool {
	la, lb := s.topo[a].sdLLC, s.topo[b].sdLLC
	if la == nil || lb == nil {
		return a == b
	}
	for _, c := range la.cpus {
		if c == b {
			return true
		}
	}
	return false
}

// sendResched delivers a remote reschedule request to rq.
func (s *Sim) sendResched(rq *rq) {
	if rq.curr == nil && rq.idle.polling {
		s.emit(Event{Kind: EvWakeIdleNoIPI, CPU: rq.cpu, Prev: NoTask, Next: NoTask})
		rq.ipiKind = 0
		s.q.push(qevent{at: s.now, kind: qResched, cpu: rq.cpu, prio: prioTimer})
		return
	}
	s.sendIPI(rq, 'R')
}

// sendIPI raises an IPI of kind ('R' reschedule, 'F' function call) on rq.
func (s *Sim) sendIPI(rq *rq, kind byte) {
	rq.ipiKind = kind
	from := s.localCPU
	s.emit(Event{Kind: EvIPIRaise, CPU: rq.cpu, Prev: NoTask, Next: NoTask, Arg: int64(from), PrevState: kind})
	s.q.push(qevent{at: s.now + Time(s.hw.IPILatencyNs), kind: qResched, cpu: rq.cpu, prio: prioTimer})
}

// ipiArrive runs when a request reaches rq: the IPI handler entry. A CPU
// running a task, or in the irqs-off parts of the idle path, runs
// sched_ttwu_pending() now (wakelist.go); one in an idle state leaves it
// first (the exit latency) and runs it then.
func (s *Sim) ipiArrive(rq *rq) {
	inState := rq.idle.phase == idleIn || rq.idle.phase == idleExit
	if !inState || s.ideal() {
		s.ttwuPending(rq)
	}
	if rq.ipiKind != 0 {
		s.emit(Event{Kind: EvIPIEntry, CPU: rq.cpu, Prev: NoTask, Next: NoTask, PrevState: rq.ipiKind})
		rq.ipiKind = 0
		if rq.curr == nil && !rq.needResched && rq.idle.phase == idleIn && !s.ideal() {
			if len(rq.wakeList) > 0 {
				// The interrupt ends the state; the handler runs
				// sched_ttwu_pending() once it has exited (csd.go
				// idleIRQDone).
				rq.idle.phase, rq.idle.irq = idleExit, true
				s.idleAt(rq, s.idleStates[rq.idle.state].ExitLatencyNs)
				return
			}
			// An interrupt without need_resched: the handler runs and
			// do_idle() loops back into the governor (SIMPLIFIED: like
			// the retained tick, at no modelled cost).
			s.emit(Event{Kind: EvIdleExit, CPU: rq.cpu, Arg: -1})
			s.menuReflect(rq, int64(s.now-rq.idle.enteredAt))
			rq.idle.state, rq.idle.stopTick = s.menuSelect(rq)
			s.idleEnterState(rq)
		}
	}
}

// SendCallFunctionIPI models smp_call_function_single(to, nop) from CPU
// from with nothing to run (the ipistorm module of S1 (docs/VALIDATION.md)):
// set_nr_if_polling() or a function-call IPI; the target runs the idle
// exit path and schedule_idle() with nothing queued.
func (s *Sim) SendCallFunctionIPI(from, to CPUID) {
	rq := &s.rqs[to]
	if rq.ipiPending {
		return
	}
	s.localCPU = from
	rq.ipiPending = true
	if rq.curr == nil && rq.idle.polling {
		// set_nr_if_polling(): the idle loop sees need_resched and goes
		// through schedule_idle() (where SM_IDLE matters).
		rq.needResched = true
		s.emit(Event{Kind: EvWakeIdleNoIPI, CPU: rq.cpu, Prev: NoTask, Next: NoTask})
		rq.ipiKind = 0
		s.q.push(qevent{at: s.now, kind: qResched, cpu: rq.cpu, prio: prioTimer})
		return
	}
	s.sendIPI(rq, 'F')
}
