package sched

// The idle path: kernel/sched/idle.c do_idle(), cpuidle_idle_call() and
// schedule_idle(), with drivers/cpuidle/cpuidle.c cpuidle_enter_state() and
// cpuidle_reflect(), and the SM_IDLE fast path of __schedule(SM_IDLE)
// (commit 3dcac251b066, v6.12).
//
// A CPU that runs out of tasks walks these phases (rq.idle.phase), each an
// engine event (qIdle) at the end of the time it costs:
//
//	idlePre   pick + context switch to idle + do_idle() entry (governor
//	          select, tick stop if the governor says so): sys time
//	idleIn    in the chosen state; cpu_idle state=N; residency accounted
//	idleExit  a wakeup arrived: the state's exit latency (hardware)
//	idlePost  cpu_idle exit; tick restart (if stopped), do_idle() exit,
//	          schedule_idle() without the pick: sys time
//	idlePick  pick_next_task(); skipped by SM_IDLE when nothing is queued,
//	          which re-enters idle at once
//
// The governor's verdict is taken when the CPU starts idling (the simulator
// does not re-run it at the end of idlePre). A wakeup during idlePre does
// not enter the state (do_idle() checks need_resched before entering); one
// during idleExit or idlePost is seen by the pick. The tick interrupting a
// state (tick retained) leaves and re-enters it at no cost.
//
// With the zero HW (an ideal machine, no cpuidle driver) every phase takes
// no time, one state "IDLE" is used and the event stream is the one the
// engine produced before idle states existed.

import (
	"fmt"

	"schedplay/core/topology"
)

const (
	idleRun uint8 = iota // running a task, or not in the idle loop
	idlePre
	idleIn
	idleExit
	idlePost
	idlePick
)

type idleCPU struct {
	phase       uint8
	state       int // chosen / current state index
	stopTick    bool
	tickStopped bool
	lastTick    Time // ts->last_tick: the tick the clock event was armed for when the tick stopped (tick_nohz.go)
	polling     bool // TIF_POLLING_NRFLAG of the idle task
	irq         bool // idleExit: leaving the state for an interrupt (csd.go), not need_resched
	irqPending  bool // a call-function IPI waits for the end of schedule_idle() (csd.go)
	enteredAt   Time
	gen         uint32
	menu        menuState
}

type idleStateInfo struct {
	topology.IdleState
	polls bool // keeps TIF_POLLING_NRFLAG set while in the state
}

func (s *Sim) ideal() bool { return s.cfg.HW.IdleStates == nil }

// initIdle resolves the machine's states. POLL always polls. MWAIT states
// poll too: call_cpuidle() clears TIF_POLLING_NRFLAG
// (current_clr_polling_and_test()), but intel_idle's __intel_idle() (and
// acpi_idle's FFH entry) goes through mwait_idle_with_hints(), which sets
// it again (current_set_polling_and_test()) before MONITOR on the thread
// flags and clears it after MWAIT (arch/x86/include/asm/mwait.h at
// torvalds/linux 0337966d; drivers/idle/intel_idle.c at 00433eae). That
// came with f8e617f45829 "sched/idle/x86: Optimize unnecessary
// mwait_idle() resched IPIs" (2014, v3.15/v3.16, the release not
// resolved); 3.11's idle loop cleared the bit before arch_cpu_idle() and
// intel_idle() did MONITOR/MWAIT itself, so there a wakeup needs an IPI.
// The 2025 series "cpuidle: Handle TIF_NR_POLLING on behalf of
// CPUIDLE_FLAG_MWAIT states" only moves that bit handling into the
// cpuidle core.
func (s *Sim) initIdle() error {
	s.hw = s.cfg.HW
	for _, v := range []int64{s.hw.IPILatencyNs, s.hw.IPISendNs, s.hw.CSDFuncNs, s.hw.CtxSwitchNs, s.hw.PickNs, s.hw.IdleEnterNs, s.hw.IdleExitNs,
		s.hw.SchedIdleNs, s.hw.TickStopNs, s.hw.TickRestart, s.hw.ClockEventNs, s.hw.TimerIRQNs, s.hw.TimerIRQLat,
		s.hw.LBCPUNs, s.hw.LBGroupNs, s.hw.LBTaskNs, s.hw.LBBlockedNs} {
		if v < 0 || v > int64(Second) {
			return fmt.Errorf("hw cost %d ns out of range 0..1s", v)
		}
	}
	if s.ideal() {
		s.idleStates = []idleStateInfo{{IdleState: topology.IdleState{Name: "IDLE", Desc: "default_idle_call (no cpuidle driver)"}}}
		return nil
	}
	if len(s.hw.IdleStates) == 0 {
		return fmt.Errorf("hw: machine has no usable idle state")
	}
	for _, st := range s.hw.IdleStates {
		s.idleStates = append(s.idleStates, idleStateInfo{IdleState: st, polls: st.Polling || (st.MWAIT && s.rules.mwaitPolls)})
	}
	return nil
}

// IdleStateNames lists the idle states of the run by index (the N of
// cpu_idle state=N).
func (s *Sim) IdleStateNames() []string {
	out := make([]string, len(s.idleStates))
	for i, st := range s.idleStates {
		out[i] = st.Name
	}
	return out
}

// startIdle puts every CPU without a task into idle at the start of the
// run; one whose governor keeps the tick gets its tick armed (ticks are
// otherwise armed by a switch to a task).
func (s *Sim) startIdle() {
	for i := range s.rqs {
		rq := &s.rqs[i]
		if rq.curr != nil || rq.idle.phase != idleRun {
			continue
		}
		if s.ideal() {
			s.nohzBalanceEnterIdle(rq) // the tick stops on every idle entry (nohz_mask.go)
			continue
		}
		rq.idle.state, rq.idle.stopTick = s.menuSelect(rq)
		if !rq.idle.stopTick {
			s.armTick(rq)
		}
		s.idleEnterState(rq)
	}
}

func (s *Sim) idleAt(rq *rq, d int64) {
	rq.idle.gen++
	s.q.push(qevent{at: s.now + Time(d), kind: qIdle, cpu: rq.cpu, gen: rq.idle.gen, prio: prioTimer})
}

// chargeKernel adds d ns of kernel time for t (nil: the idle path) on rq.
func (s *Sim) chargeKernel(rq *rq, t *Task, d int64) {
	if d <= 0 {
		return
	}
	if t != nil {
		rq.kernUntil = max(rq.kernUntil, s.now) + Time(d)
	}
	if s.observed() {
		s.emit(Event{Kind: EvKernel, CPU: rq.cpu, Prev: taskID(t), Next: NoTask, Arg: d})
	}
}

// idleStart mirrors the way into do_idle(): pre is the kernel time already
// spent (the pick and switch of the task that blocked).
func (s *Sim) idleStart(rq *rq, pre int64) {
	if s.ideal() {
		rq.idle.phase = idleIn
		s.nohzBalanceEnterIdle(rq) // no cpuidle driver: the tick stops (nohz_mask.go)
		s.emit(Event{Kind: EvIdleEnter, CPU: rq.cpu, Arg: 0})
		return
	}
	rq.idle.phase = idlePre
	rq.idle.state, rq.idle.stopTick = s.menuSelect(rq) // cpuidle_select()
	cost := pre + s.hw.IdleEnterNs
	if rq.idle.stopTick && !rq.idle.tickStopped {
		cost += s.tickStopCost()
	}
	s.chargeKernel(rq, nil, cost)
	if cost == 0 {
		s.idleEnterState(rq)
		return
	}
	s.idleAt(rq, cost)
}

// idleEnterState mirrors the end of cpuidle_idle_call(): stop or retain the
// tick, then cpuidle_enter() unless need_resched() is already set.
func (s *Sim) idleEnterState(rq *rq) {
	if rq.idle.stopTick {
		// tick_nohz_idle_stop_tick() runs before call_cpuidle() checks
		// need_resched: its cost was paid in idlePre, so is the restart.
		s.tickNohzStop(rq)
	}
	s.ttwuPending(rq) // a wake list whose handler was held off (wakelist.go)
	if rq.needResched {
		s.idlePostStart(rq, false)
		return
	}
	if irq := s.csdDeferredIRQ(rq); irq > 0 {
		// An interrupt held off by do_idle(): the state returns at
		// once, the handler runs, the loop re-runs the governor.
		s.menuReflect(rq, 0)
		s.idleStart(rq, irq)
		return
	}
	st := &s.idleStates[rq.idle.state]
	rq.idle.phase = idleIn
	rq.idle.enteredAt = s.now
	rq.idle.polling = st.polls
	s.emit(Event{Kind: EvIdleEnter, CPU: rq.cpu, Arg: int64(rq.idle.state)})
}

// idleWake handles need_resched on an idle CPU. It returns true when the
// caller should schedule at once (the ideal machine).
func (s *Sim) idleWake(rq *rq) bool {
	if s.ideal() {
		rq.idle.phase = idleRun
		return true
	}
	if rq.idle.phase != idleIn {
		return false // idlePre/idleExit/idlePost/idlePick: the pending step sees it
	}
	rq.idle.phase = idleExit
	lat := s.idleStates[rq.idle.state].ExitLatencyNs
	if lat == 0 {
		s.idleExitDone(rq)
		return false
	}
	s.idleAt(rq, lat)
	return false
}

// idleExitDone: the CPU runs again (cpuidle_enter_state() returns).
func (s *Sim) idleExitDone(rq *rq) {
	rq.idle.polling = false
	s.emit(Event{Kind: EvIdleExit, CPU: rq.cpu, Arg: -1})
	s.ttwuPending(rq) // the IPI handler, or do_idle()'s flush when polled (wakelist.go)
	s.menuReflect(rq, int64(s.now-rq.idle.enteredAt))
	s.idlePostStart(rq, true)
}

// idlePostStart: tick_nohz_idle_exit(), the do_idle() exit and
// schedule_idle() up to the pick.
func (s *Sim) idlePostStart(rq *rq, exited bool) {
	rq.idle.phase = idlePost
	var cost int64
	if exited {
		cost += s.hw.IdleExitNs
	}
	if rq.idle.tickStopped {
		cost += s.tickNohzRestart(rq)
	}
	if len(rq.csd) > 0 {
		// flush_smp_call_function_queue() after tick_nohz_idle_exit(),
		// before schedule_idle() (csd.go).
		cost += s.hw.CSDFuncNs
		s.csdFlush(rq, cost)
	}
	s.ttwuPending(rq) // the same flush runs the wake list (wakelist.go)
	cost += s.hw.SchedIdleNs
	s.chargeKernel(rq, nil, cost)
	if cost == 0 {
		s.idlePostDone(rq)
		return
	}
	s.idleAt(rq, cost)
}

// nothingQueued is !rq->nr_running: no task of any class is queued (a
// deadline task woken onto the idle CPU counts, rqNrRunning).
func (s *Sim) nothingQueued(rq *rq) bool { return s.rqNrRunning(rq) == 0 }

// idlePostDone mirrors __schedule(SM_IDLE): with SM_IDLE and nothing
// queued, keep the idle task and skip pick_next_task().
func (s *Sim) idlePostDone(rq *rq) {
	if s.feat.Has(SMIdle) && s.nothingQueued(rq) {
		rq.needResched, rq.needReschedLazy = false, false
		rq.reschedReason, rq.reschedBy = ReasonNone, NoTask
		s.idleStart(rq, s.csdDeferredIRQ(rq))
		return
	}
	rq.idle.phase = idlePick
	s.chargeKernel(rq, nil, s.hw.PickNs)
	if s.hw.PickNs == 0 {
		s.idlePickDone(rq)
		return
	}
	s.idleAt(rq, s.hw.PickNs)
}

// idlePickDone: the pick of schedule_idle(); a task is switched in
// (switchTo charges the context switch) or the CPU idles again.
func (s *Sim) idlePickDone(rq *rq) {
	rq.idle.phase = idleRun
	rq.needResched = true
	s.kick(rq)
	irq := s.csdDeferredIRQ(rq) // an interrupt held off by __schedule()
	if rq.curr == nil && rq.idle.phase == idleRun {
		s.idleStart(rq, irq)
	}
}

// idleStep runs the phase whose time is up.
func (s *Sim) idleStep(rq *rq) {
	switch rq.idle.phase {
	case idlePre:
		s.idleEnterState(rq)
	case idleExit:
		if rq.idle.irq {
			s.idleIRQDone(rq) // csd.go
			return
		}
		s.idleExitDone(rq)
	case idlePost:
		s.idlePostDone(rq)
	case idlePick:
		s.idlePickDone(rq)
	}
}
