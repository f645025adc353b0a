//go:build linux

package main

// Deriving the wakeup path's costs from a tracefs capture (vmcosts.go).
// Every quantity is a difference of two events of one wakeup, so it can be
// read from the micro-workloads of -vmcosts and from any earlier capture
// with the same events (the mix traces of docs/real-kernel-notes.md). The
// kernel paths (v6.18 as run here):
//
//   - hrtimer_start of a sleeper (hrtimer_wakeup): softexpires is the asked
//     expiry, expires = softexpires + timer_slack_ns (hrtimer_set_expires_range_ns);
//     the clock event is programmed for expires.
//   - hrtimer_expire_entry's now= is the CLOCK_MONOTONIC read of
//     hrtimer_interrupt(): now - expires is the interrupt's lateness.
//   - local_timer_entry ... local_timer_exit is the whole interrupt: the
//     expiries, try_to_wake_up() (sched_waking/sched_wakeup) and, after the
//     last hrtimer_expire_exit, tick_program_event() of the next expiry,
//     whose TSC-deadline write is the write_msr 6e0 event (emitted after
//     the write returns).
//   - ipi_send_cpu, then the sender's x2APIC ICR write (write_msr 830),
//     then the target's call_function_single_entry (ttwu_queue_wakelist(),
//     an idle target) or reschedule_entry (resched_curr() on a busy one).
//   - on an idle CPU, after the handler: cpuidle_enter_state() returns
//     (cpu_idle state=4294967295), tick_nohz_idle_exit() restarts a stopped
//     tick (hrtimer_cancel + hrtimer_start of tick_nohz_handler, the clock
//     write), schedule_idle() picks and sched_switch is traced before
//     context_switch().

import (
	"strings"
)

// costSamples are the derived samples, ns, by quantity.
type costSamples struct {
	Slack           []int64 // expires - softexpires of a sleeper's timer
	LateIdle        []int64 // now - expires, the CPU idle when the interrupt came
	LateBusy        []int64 // now - expires, a task running
	IRQWakeIdle     []int64 // local_timer entry -> exit, one sleeper woken, no tick, idle CPU
	IRQWakeBusy     []int64 // the same on a busy CPU: the time taken from the running task
	IRQTickBusy     []int64 // local_timer entry -> exit of a tick alone on a busy CPU
	ExpireToWaking  []int64 // hrtimer_expire_entry -> sched_waking of the sleeper
	WakingToWakeup  []int64 // sched_waking -> sched_wakeup (try_to_wake_up on this CPU)
	ClockWrite      []int64 // hrtimer event -> write_msr 6e0 after it (the TSC-deadline write)
	ExitToSwitchIdl []int64 // handler exit -> sched_switch to the wakee, idle CPU, no tick restart
	ExitToSwitchRst []int64 // the same with a tick restart on the way
	IdleExitSwitch  []int64 // cpu_idle exit -> sched_switch, no tick restart
	TickRestart     []int64 // hrtimer_cancel of the tick -> the write_msr after its hrtimer_start
	TickRestartMSR  []int64 // TSC-deadline writes in one restart
	TickStop        []int64 // tick_stop -> cpu_idle entering the state
	TickStopMSR     []int64 // TSC-deadline writes in one stop
	ExitToSwitchBsy []int64 // handler exit -> sched_switch curr -> wakee (preempted at once)
	BusyNotAtOnce   int     // busy-CPU wakeups whose wakee did not run at the handler's exit
	SwitchToFirst   []int64 // sched_switch to a woken task -> its first event on that CPU
	ICRWrite        []int64 // ipi_send_cpu -> the sender's write_msr 830
	IPIIdle         []int64 // ICR write (or ipi_send_cpu without it) -> handler entry, target idle
	IPIBusy         []int64 // the same, a task running on the target
	SendToEntryIdle []int64 // ipi_send_cpu -> handler entry, target idle
	SendToEntryBusy []int64 // ipi_send_cpu -> handler entry, target busy
}

// irqCtx is the interrupt (timer or IPI) in progress on a CPU.
type irqCtx struct {
	at         int64
	idle       bool // the idle task was interrupted
	curPID     int
	tick       bool
	wakees     []int // watched tasks woken in it
	wakeAt     int64 // sched_waking of the first wakee
	expireAt   int64 // hrtimer_expire_entry of the first wakee's timer
	otherTimer bool  // an expiry other than the tick and one watched sleeper
}

// pendingWake is a wakee woken by an interrupt, waiting for its switch-in.
type pendingWake struct {
	pid        int
	exitAt     int64
	idle       bool
	curPID     int
	idleExitAt int64
	cancelAt   int64 // the tick's hrtimer_cancel on the way (restart)
	restartAt  int64 // the tick's hrtimer_start
	msrs       int   // TSC-deadline writes after restartAt
	lastMSR    int64
	broken     bool // another interrupt came first
}

type ipiPending struct {
	at, icrAt int64
	target    int
}

// deriveCosts walks recs (time order) and returns the samples; watched
// tells whether a task (by comm) belongs to the workload.
func deriveCosts(recs []traceRec, watched func(comm string) bool) costSamples {
	var cs costSamples
	type timer struct{ soft, hard int64 }
	timers := map[string]timer{} // hrtimer pointer -> the sleeper's expiry
	watchedPID := map[int]bool{}
	irq := map[int]*irqCtx{}
	wake := map[int]*pendingWake{}
	prev := map[int]traceRec{}
	stopAt := map[int]int64{}
	stopMSR := map[int]int64{}
	ipiFrom := map[int]*ipiPending{} // by sender CPU, until its ICR write
	ipiTo := map[int]*ipiPending{}   // by target CPU, until the handler
	firstAfter := map[int]int64{}    // CPU -> switch-in time of a woken watched task
	firstPID := map[int]int{}
	for _, r := range recs {
		cpu := r.CPU
		if watched(r.Comm) {
			watchedPID[r.PID] = true
		}
		if at, ok := firstAfter[cpu]; ok && r.PID == firstPID[cpu] && r.Event != "sched_switch" {
			// The micro-workloads' first act after a wakeup is a
			// system call (the next sleep, the pipe write); a task
			// that computes first (the mixes) gives no sample.
			if r.Event == "hrtimer_start" || r.Event == "sched_waking" {
				cs.SwitchToFirst = append(cs.SwitchToFirst, r.TS-at)
			}
			delete(firstAfter, cpu)
		}
		switch r.Event {
		case "hrtimer_start":
			if r.field("function") == "hrtimer_wakeup" && watched(r.Comm) {
				soft, ok1 := r.intField("softexpires")
				hard, ok2 := r.intField("expires")
				if ok1 && ok2 {
					timers[r.field("hrtimer")] = timer{soft, hard}
					cs.Slack = append(cs.Slack, hard-soft)
				}
			}
			if w := wake[cpu]; w != nil && r.PID == 0 && r.field("function") == "tick_nohz_handler" {
				w.restartAt = r.TS
			}
		case "hrtimer_cancel":
			if w := wake[cpu]; w != nil && r.PID == 0 && w.cancelAt == 0 {
				w.cancelAt = r.TS // tick_nohz_restart() cancels the stopped tick first
			}
		case "local_timer_entry", "call_function_single_entry", "reschedule_entry":
			if w := wake[cpu]; w != nil {
				w.broken = true
			}
			delete(stopAt, cpu)
			irq[cpu] = &irqCtx{at: r.TS, idle: r.PID == 0, curPID: r.PID}
			if p := ipiTo[cpu]; p != nil && r.Event != "local_timer_entry" {
				from := p.icrAt
				if from == 0 {
					from = p.at
				}
				if r.PID == 0 {
					cs.IPIIdle = append(cs.IPIIdle, r.TS-from)
					cs.SendToEntryIdle = append(cs.SendToEntryIdle, r.TS-p.at)
				} else {
					cs.IPIBusy = append(cs.IPIBusy, r.TS-from)
					cs.SendToEntryBusy = append(cs.SendToEntryBusy, r.TS-p.at)
				}
				delete(ipiTo, cpu)
			}
		case "hrtimer_expire_entry":
			c := irq[cpu]
			if c == nil {
				break
			}
			switch fn := r.field("function"); {
			case fn == "tick_nohz_handler" || fn == "tick_sched_timer":
				c.tick = true
			case fn == "hrtimer_wakeup":
				// Without hrtimer_start events (older captures) the
				// expiry is unknown; the interrupt still counts.
				if tm, ok := timers[r.field("hrtimer")]; ok {
					if now, ok := r.intField("now"); ok {
						if c.idle {
							cs.LateIdle = append(cs.LateIdle, now-tm.hard)
						} else {
							cs.LateBusy = append(cs.LateBusy, now-tm.hard)
						}
					}
					delete(timers, r.field("hrtimer"))
				}
				if c.expireAt != 0 {
					c.otherTimer = true // a second sleeper in one interrupt
				} else {
					c.expireAt = r.TS
				}
			default:
				c.otherTimer = true
			}
		case "sched_waking":
			if c := irq[cpu]; c != nil && c.wakeAt == 0 && watched(r.field("comm")) {
				c.wakeAt = r.TS
				if c.expireAt != 0 {
					cs.ExpireToWaking = append(cs.ExpireToWaking, r.TS-c.expireAt)
				}
			}
		case "sched_wakeup":
			if c := irq[cpu]; c != nil && watched(r.field("comm")) {
				pid, _ := r.intField("pid")
				if len(c.wakees) == 0 && c.wakeAt != 0 {
					cs.WakingToWakeup = append(cs.WakingToWakeup, r.TS-c.wakeAt)
				}
				c.wakees = append(c.wakees, int(pid))
			}
		case "local_timer_exit", "call_function_single_exit", "reschedule_exit":
			c := irq[cpu]
			delete(irq, cpu)
			if c == nil {
				break
			}
			d := r.TS - c.at
			timerIRQ := r.Event == "local_timer_exit"
			switch {
			case timerIRQ && len(c.wakees) == 1 && !c.tick && !c.otherTimer && c.expireAt != 0:
				if c.idle {
					cs.IRQWakeIdle = append(cs.IRQWakeIdle, d)
				} else {
					cs.IRQWakeBusy = append(cs.IRQWakeBusy, d)
				}
			case timerIRQ && len(c.wakees) == 0 && c.tick && !c.otherTimer && !c.idle:
				cs.IRQTickBusy = append(cs.IRQTickBusy, d)
			}
			if len(c.wakees) == 1 {
				wake[cpu] = &pendingWake{pid: c.wakees[0], exitAt: r.TS, idle: c.idle, curPID: c.curPID}
			}
		case "cpu_idle":
			if w := wake[cpu]; w != nil && r.field("state") == "4294967295" && w.idleExitAt == 0 {
				w.idleExitAt = r.TS
			}
			if at, ok := stopAt[cpu]; ok && r.field("state") != "4294967295" {
				cs.TickStop = append(cs.TickStop, r.TS-at)
				cs.TickStopMSR = append(cs.TickStopMSR, stopMSR[cpu])
				delete(stopAt, cpu)
			}
		case "tick_stop":
			if r.field("success") == "1" && r.PID == 0 {
				stopAt[cpu], stopMSR[cpu] = r.TS, 0
			}
		case "write_msr":
			reg, _, _ := strings.Cut(r.Args, ",")
			switch reg {
			case "6e0":
				if p, ok := prev[cpu]; ok && (p.Event == "hrtimer_expire_exit" || p.Event == "hrtimer_start" || p.Event == "hrtimer_cancel") {
					cs.ClockWrite = append(cs.ClockWrite, r.TS-p.TS)
				}
				if _, ok := stopAt[cpu]; ok {
					stopMSR[cpu]++
				}
				if w := wake[cpu]; w != nil && w.restartAt != 0 {
					w.msrs++
					w.lastMSR = r.TS
				}
			case "830":
				if p := ipiFrom[cpu]; p != nil {
					p.icrAt = r.TS
					cs.ICRWrite = append(cs.ICRWrite, r.TS-p.at)
					delete(ipiFrom, cpu)
				}
			}
		case "ipi_send_cpu":
			t, ok := r.intField("cpu")
			if !ok || int(t) == cpu {
				break
			}
			p := &ipiPending{at: r.TS, target: int(t)}
			ipiFrom[cpu], ipiTo[int(t)] = p, p
		case "sched_switch":
			nextPID, _ := r.intField("next_pid")
			prevPID, _ := r.intField("prev_pid")
			if w := wake[cpu]; w != nil {
				delete(wake, cpu)
				switch {
				case w.broken || int(nextPID) != w.pid:
					if !w.idle && int(prevPID) == w.curPID {
						cs.BusyNotAtOnce++
					}
				case w.idle && w.restartAt == 0 && w.cancelAt == 0:
					cs.ExitToSwitchIdl = append(cs.ExitToSwitchIdl, r.TS-w.exitAt)
					if w.idleExitAt != 0 {
						cs.IdleExitSwitch = append(cs.IdleExitSwitch, r.TS-w.idleExitAt)
					}
				case w.idle:
					cs.ExitToSwitchRst = append(cs.ExitToSwitchRst, r.TS-w.exitAt)
					if w.cancelAt != 0 && w.lastMSR != 0 {
						cs.TickRestart = append(cs.TickRestart, w.lastMSR-w.cancelAt)
						cs.TickRestartMSR = append(cs.TickRestartMSR, int64(w.msrs))
					}
				case int(prevPID) == w.curPID:
					cs.ExitToSwitchBsy = append(cs.ExitToSwitchBsy, r.TS-w.exitAt)
				}
			}
			if watchedPID[int(nextPID)] {
				firstAfter[cpu], firstPID[cpu] = r.TS, int(nextPID)
			} else {
				delete(firstAfter, cpu)
			}
		}
		prev[cpu] = r
	}
	return cs
}
