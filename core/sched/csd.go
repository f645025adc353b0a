package sched

// Call-function IPIs sent by a task: kernel/smp.c smp_call_function_single()
// with wait=1 (generic_exec_single(), __smp_call_single_queue(),
// send_call_function_single_ipi(), csd_lock_wait()), as the ipistorm module
// of S1 (docs/VALIDATION.md) sends them, and where the target runs the function:
// flush_smp_call_function_queue() in do_idle() (kernel/sched/idle.c) or
// generic_smp_call_function_single_interrupt() from the IPI.
//
// Kernel behaviour (v6.12):
//   - the sender locks its per-CPU csd, llist_add()s it to the target's
//     call_single_queue and, only if the list was empty, calls
//     send_call_function_single_ipi(): set_nr_if_polling(rq->idle) sets
//     TIF_NEED_RESCHED without an interrupt when the target's idle task
//     has TIF_POLLING_NRFLAG (set for the whole do_idle() loop: the
//     governor, POLL and MWAIT states since f8e617f45829, 2014: see
//     initIdle()), otherwise
//     arch_send_call_function_single_ipi();
//   - with wait=1 it spins in csd_lock_wait() (sys time, preemption off)
//     until the target has run the function and csd_unlock()ed;
//   - a polled target leaves its idle state, and do_idle() after the
//     need_resched() loop does tick_nohz_idle_exit(), clears the polling
//     bit and runs flush_smp_call_function_queue(): the function runs
//     there, before schedule_idle() -> __schedule(SM_IDLE), whose pick
//     SM_IDLE skips when nothing is queued;
//   - an interrupted target runs the function in the IPI handler; an idle
//     one then loops in do_idle() back into the governor (no
//     schedule_idle(): need_resched() stays clear). do_idle() runs with
//     interrupts off outside the idle state itself (the governor, the tick
//     stop, the exit path and __schedule() up to the rq unlock), so an
//     interrupt arriving there waits: for the state entry (MWAIT returns at
//     once with an interrupt pending; the handler runs, the loop goes back
//     to the governor) or for the end of schedule_idle().
//
// Costs: hw.ipi_send_ns (sender: csd_lock, llist_add, the flag cmpxchg or
// the ICR write) before the target can see the request, hw.ipi_latency_ns
// for a real interrupt, the idle state's exit latency, the idle exit path
// (idle.go), and hw.csd_func_ns for running the queue (handler entry, the
// function, csd_unlock until the sender sees it).
//
// SIMPLIFIED: the sender may be preempted while it spins (the kernel holds
// preemption off; ipistorm's sender is alone on its CPU); a handler that
// interrupts a running task or the idle path outside __schedule() does not
// delay it; a function sent to the sender's own CPU runs as hw.csd_func_ns
// of sys time; only wait=1 is modelled.

import (
	"fmt"

	"schedplay/core/quote"
)

// kmode* mark how the running task's current step is accounted.
const (
	kmodeUser uint8 = iota
	kmodeSys        // OpSys: kernel work, sys time
	kmodeSpin       // csd_lock_wait(): sys time until released
)

// csdSend starts smp_call_function_single(cpu, func, wait=1) by t; t spins
// until csdRelease. It returns false when the call completes at once.
func (s *Sim) csdSend(t *Task, cpu CPUID) bool {
	if cpu == t.cpu {
		t.runLeft, t.kmode = Time(s.hw.CSDFuncNs), kmodeSys
		return t.runLeft > 0
	}
	t.kmode, t.runLeft = kmodeSpin, Forever
	s.q.push(qevent{at: s.now + Time(s.hw.IPISendNs), kind: qCSDQueue, cpu: cpu, task: t.id, prio: prioTimer})
	return true
}

// csdPolled reports whether set_nr_if_polling() succeeds on rq: its idle
// task is in the do_idle() loop with the polling bit set.
func (s *Sim) csdPolled(rq *rq) bool {
	if rq.curr != nil {
		return false
	}
	switch rq.idle.phase {
	case idlePre, idleExit:
		return !rq.idle.irq // the loop (polling set) or leaving a state need_resched ended
	case idleIn:
		return rq.idle.polling
	}
	return false
}

// csdQueue is __smp_call_single_queue() reaching the target (qCSDQueue)
// from CPU from.
func (s *Sim) csdQueue(rq *rq, sender TaskID, from CPUID) {
	rq.csd = append(rq.csd, sender)
	if len(rq.csd) > 1 {
		return // not the first entry: the pending IPI or flush takes it
	}
	if s.ideal() && rq.curr == nil {
		s.csdFlush(rq, 0)
		return
	}
	if s.csdPolled(rq) {
		s.emit(Event{Kind: EvWakeIdleNoIPI, CPU: rq.cpu, Prev: NoTask, Next: NoTask})
		rq.needResched = true
		s.kick(rq) // idle.go: exit latency, then the flush in idlePostStart
		return
	}
	s.emit(Event{Kind: EvIPIRaise, CPU: rq.cpu, Prev: NoTask, Next: NoTask, Arg: int64(from), PrevState: 'F'})
	s.q.push(qevent{at: s.now + Time(s.hw.IPILatencyNs), kind: qCSDIPI, cpu: rq.cpu, prio: prioTimer})
}

// csdIPI is the call-function interrupt arriving at rq (qCSDIPI).
func (s *Sim) csdIPI(rq *rq) {
	s.emit(Event{Kind: EvIPIEntry, CPU: rq.cpu, Prev: NoTask, Next: NoTask, PrevState: 'F'})
	if rq.curr != nil || s.ideal() {
		s.csdFlush(rq, s.hw.CSDFuncNs)
		return
	}
	switch rq.idle.phase {
	case idleIn:
		// Wake from the state (its exit latency), then the handler.
		rq.idle.phase, rq.idle.irq = idleExit, true
		s.idleAt(rq, s.idleStates[rq.idle.state].ExitLatencyNs)
	case idlePre, idlePost, idlePick:
		// do_idle() runs the governor, the tick stop/restart, the flush
		// and schedule_idle() with interrupts off: the handler runs when
		// the state is entered (idleEnterState) or __schedule() ends.
		rq.idle.irqPending = true
	case idleExit:
		if rq.idle.irq {
			return // the handler about to run flushes the queue
		}
		rq.idle.irqPending = true // need_resched exit: the flush or after schedule_idle()
	default:
		s.csdFlush(rq, s.hw.CSDFuncNs)
	}
}

// idleIRQDone: the exit latency after an interrupt is over; the handler
// runs the queue and do_idle() loops back into the governor (or, with
// need_resched set meanwhile, leaves the loop).
func (s *Sim) idleIRQDone(rq *rq) {
	rq.idle.irq = false
	rq.idle.polling = false
	s.emit(Event{Kind: EvIdleExit, CPU: rq.cpu, Arg: -1})
	s.menuReflect(rq, int64(s.now-rq.idle.enteredAt))
	s.csdFlush(rq, s.hw.CSDFuncNs)
	s.ttwuPending(rq) // the wake-list entries of the queue (wakelist.go)
	if rq.needResched {
		s.idlePostStart(rq, true)
		return
	}
	s.idleStart(rq, s.hw.CSDFuncNs)
}

// csdDeferredIRQ runs an interrupt held off by __schedule() once it ends;
// it returns the handler's cost for the caller to add to the idle entry.
func (s *Sim) csdDeferredIRQ(rq *rq) int64 {
	if !rq.idle.irqPending {
		return 0
	}
	rq.idle.irqPending = false
	if len(rq.csd) == 0 {
		return 0
	}
	s.csdFlush(rq, s.hw.CSDFuncNs)
	return s.hw.CSDFuncNs
}

// csdFlush mirrors flush_smp_call_function_queue(): every queued function
// runs and its sender sees the unlock after d ns.
func (s *Sim) csdFlush(rq *rq, d int64) {
	for _, id := range rq.csd {
		s.q.push(qevent{at: s.now + Time(d), kind: qCSDDone, cpu: rq.cpu, task: id, prio: prioTimer}) // csdCfsb: the async unthrottle
	}
	rq.csd = rq.csd[:0]
}

// csdRelease ends t's csd_lock_wait() (qCSDDone).
func (s *Sim) csdRelease(t *Task) {
	if t.kmode != kmodeSpin {
		return
	}
	t.kmode, t.runLeft = kmodeUser, 0
	rq := &s.rqs[t.cpu]
	if rq.curr != t {
		return // preempted while spinning: it goes on when it runs again
	}
	s.emit(Event{Kind: EvKernel, CPU: rq.cpu, Prev: t.id, Next: NoTask, Arg: 0}) // closes the open sys window
	rq.runGen++
	s.localCPU = rq.cpu
	s.kick(rq)
}

// checkIPITargets rejects an ipi step naming a CPU the machine lacks.
func (s *Sim) checkIPITargets() error {
	for gi, spec := range s.cfg.Tasks {
		for j, op := range spec.Program {
			if op.Kind == OpIPI && (op.CPU < 0 || int(op.CPU) >= len(s.rqs)) {
				return fmt.Errorf("tasks[%d] (%s): step %d: ipi target cpu %d, want 0..%d", gi, quote.Clip(spec.Name), j, op.CPU, len(s.rqs)-1)
			}
		}
	}
	return nil
}
