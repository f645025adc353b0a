package replay

// The machine's costs, as far as the trace shows them. The replay runs on
// a preset machine (smp-N) whose hw.* costs are estimates for a bare-metal
// server (docs/costs.md); the traced machine may be a virtual one whose
// wakeup path costs several times more. Two rules, applied to every
// trace alike:
//
//   - The trace's CPU time of a task is its sum_exec_runtime: it runs
//     from the switch-in (set_next_entity() at the pick), so it already
//     holds the kernel's context_switch() and finish_task_switch() that
//     the task paid. The replay charges no modelled switch or pick cost
//     on top (hw.ctx_switch_ns and hw.pick_ns are 0): otherwise every
//     switch costs twice and a ping-pong of a few microseconds per round
//     loses a third of its rounds.
//   - The wakeup of a task onto an idle CPU by a task running on another
//     CPU goes through the reschedule IPI (or the polling bit) and the
//     target's idle exit (try_to_wake_up() -> ttwu_queue_wakelist() or
//     resched_curr(); do_idle() exit; schedule_idle()). Its
//     waking-to-switch-in time in the trace is that path's cost on the
//     traced machine: the median M over the trace's wakeups of that kind
//     (at least MinCostSamples of them). The simulated path costs F +
//     hw.idle_exit_ns on the replay's machine and profile, F measured
//     once by a probe (a two-CPU ping-pong with idle_exit_ns 0, costProbe);
//     the replay's hw.idle_exit_ns is M - F (at least 0), so its remote
//     wakeups of idle CPUs cost what the trace's did.
//
//   - Where the wakeup went through the target's wake list (v5.8+:
//     ttwu_queue_wakelist() -> __smp_call_single_queue() and the
//     call-function IPI; v6.0+ also for an idle CPU of the same LLC), the
//     trace splits that path at sched_wakeup, which sched_ttwu_pending()
//     -> ttwu_do_activate() prints from the target's IPI handler
//     (x86 sysvec_call_function_single(): call_function_single_entry,
//     then generic_smp_call_function_single_interrupt(); read in a
//     v6.16+ arch/x86/kernel/smp.c, one with
//     arch_cpu_rescan_dead_smt_siblings()). A halted CPU runs the handler
//     only once it has left the state, so sched_waking to sched_wakeup is
//     the IPI's delivery and the state's exit latency, and sched_wakeup to
//     switch-in is the rest of the handler, the idle exit (cpuidle_reflect(),
//     tick_nohz_idle_exit(): a restarted tick's clock-event write,
//     do_idle() in a v5.10-era kernel/sched/idle.c) and schedule_idle().
//     With at least MinCostSamples such wakeups each part is fitted to its
//     own median (splitIdleCosts): hw.ipi_latency_ns over the idle
//     state's exit latency (the machine's own, from its topology), and
//     hw.idle_exit_ns over the rest of the simulated path, so the
//     replay's wakeup latency from sched_wakeup is the trace's, not the
//     whole path's. On a machine whose idle state polls, the model's path
//     takes no IPI (set_nr_if_polling()): the idle exit then takes what
//     the IPI would have, and the whole path still costs the trace's.
//
//   - A switch-in the importer added (ftraceimport Trace.Added: the CPU's
//     switch from idle is not in the trace, the switch is put at the woken
//     task's first line) ends no sample: its time is not the switch's.
//
//   - The remote wakeup of a busy CPU whose task the wakee preempts goes
//     through the reschedule IPI and the interrupt's return to
//     __schedule(); in the simulator it is the IPI's delivery
//     (hw.ipi_latency_ns) and the resched. The median of the trace's
//     waking-to-switch-in times of such wakeups (the wakee the next task
//     switched in on the target, its task switched out runnable; at least
//     MinCostSamples) becomes the replay's hw.ipi_latency_ns, before the
//     idle probe runs (the idle path may use the IPI too).
//
//   - The wakeup by an interrupt on the wakee's own CPU while that CPU
//     runs a task (a sleeper's hrtimer: hrtimer_interrupt() ->
//     hrtimer_wakeup() -> try_to_wake_up(), the clock event's reprogram,
//     the interrupt's return to __schedule()) is stolen from the running
//     task; in the simulator it is hw.timer_irq_ns (core/sched/
//     timer_irq.go), from the wakeup to the interrupt's end, where the
//     preemption happens. The median of the trace's sched_waking-to-
//     switch-in times of such wakeups that preempted the CPU's task at
//     once (in hardirq or softirq context, the interrupted task the
//     one running there; at least MinCostSamples) becomes the replay's
//     hw.timer_irq_ns. A trace with interrupt entries does not need them:
//     the context flags say interrupt, and every outside wakeup of the
//     replay is a timer.
//
// The estimates are properties of the machine, not of a task: the same
// for every wakeup of the replay. What they cannot see: the idle states'
// depth on the traced machine, and the interrupt time of the ticks (no
// wakeup marks them; the simulator does not charge it).

import (
	"maps"
	"slices"
	"strconv"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// MinCostSamples is the number of remote wakeups of idle CPUs a trace
// needs for its wakeup cost to replace the preset's.
const MinCostSamples = 20

// costSampler collects the waking-to-switch-in times of remote wakeups
// (by a task running on another CPU) that the target CPU served next:
// onto an idle CPU, or onto a busy one whose task the wakee preempted.
type costSampler struct {
	at          []sched.Time // per trace task: its pending sample's start, -1 = none
	woken       []sched.Time // its sched_wakeup line's time
	queued      []bool       // a wake-list wakeup: sched_wakeup printed on the target after sched_waking
	cpu         []int        // the CPU it was woken onto
	busy        []bool       // that CPU was running a task
	sw          []int        // the CPU's switch count at the wakeup
	local       []bool       // by an interrupt on the wakee's own, busy CPU
	own         []bool       // by an interrupt on the wakee's own, idle CPU (costs_timer.go)
	cpuSw       []int        // per CPU: switches so far
	idleAt      []sched.Time // per CPU: its last switch to idle, -1 = not idle
	gap         []sched.Time // per trace task: its own-idle sample's time idle before the wakeup
	idle, busyS []sched.Time
	irq         []sched.Time // the local interrupt wakeups'
	// the own idle CPU's interrupt wakeups: sched_wakeup to switch-in, and
	// how long the CPU had been idle
	ownIdle, ownGap []sched.Time
	// the queued wakeups of idle CPUs split at the sched_wakeup line
	// (wakelist.go): sched_waking to sched_wakeup, sched_wakeup to switch-in
	qWake, qSwitch []sched.Time
	// added counts the samples whose switch-in the importer added
	// (ftraceimport Trace.Added): its time is not the switch's
	added int
}

func newCostSampler(tasks, cpus int) *costSampler {
	c := &costSampler{at: make([]sched.Time, tasks), woken: make([]sched.Time, tasks), queued: make([]bool, tasks),
		cpu: make([]int, tasks), busy: make([]bool, tasks),
		sw: make([]int, tasks), local: make([]bool, tasks), own: make([]bool, tasks), gap: make([]sched.Time, tasks),
		cpuSw: make([]int, cpus), idleAt: make([]sched.Time, cpus)}
	for i := range c.at {
		c.at[i] = -1
	}
	for i := range c.idleAt {
		c.idleAt[i] = -1
	}
	return c
}

// sampleWake notes the wakeup at event i of task n, if it is a remote
// wakeup by a running traced task.
func (in *inferrer) sampleWake(i int, n sched.TaskID) {
	e := &in.tr.Events[i]
	c := in.costs
	c.at[n] = -1
	ws := in.tr.Wakes[i]
	target := int(e.CPU)
	w := ws.Waker
	// A queued wakeup (queued.go) starts at its sched_waking, where the
	// waker ran; its waker may have blocked since.
	start, queued := e.Time, in.st[n].queued.event == i
	if queued {
		start = ws.Time
	}
	if target < 0 || target >= len(in.on) || target >= len(c.cpuSw) || in.on[target] == n {
		return
	}
	if in.sampleOwnIdle(i, n, target, queued) {
		return
	}
	if w == sched.NoTask || int(w) >= len(in.st) || in.st[w].idx < 0 || !(queued || in.st[w].running) {
		return
	}
	if ws.IRQ == 1 {
		// an interrupt on the wakee's own CPU, which runs the interrupted task
		if in.st[w].cpu == target && in.on[target] == w {
			c.at[n], c.cpu[n], c.busy[n], c.sw[n], c.local[n], c.own[n] = ws.Time, target, true, c.cpuSw[target], true, false
		}
		return
	}
	if in.st[w].cpu == target {
		return
	}
	c.at[n], c.cpu[n], c.busy[n], c.sw[n], c.local[n], c.own[n] = start, target, in.on[target] != sched.NoTask, c.cpuSw[target], false, false
	c.woken[n], c.queued[n] = e.Time, queued
}

// sampleSwitch closes the pending sample of next when the sched_switch
// on cpu (prev's state) is the first there since its wakeup, and (onto a
// busy CPU) preempted the task running there; it counts the switch. A
// switch the importer added (added) closes no sample: its time is the
// woken task's first line, not the switch.
func (in *inferrer) sampleSwitch(cpu int, state byte, next sched.TaskID, now sched.Time, added bool) {
	c := in.costs
	if cpu < 0 || cpu >= len(c.cpuSw) {
		return
	}
	if next != sched.NoTask {
		if c.at[next] >= 0 && c.cpu[next] == cpu && c.sw[next] == c.cpuSw[cpu] && now >= c.at[next] {
			switch {
			case added:
				c.added++
			case c.own[next]:
				c.ownIdle = append(c.ownIdle, now-c.at[next])
				if c.gap[next] >= 0 {
					c.ownGap = append(c.ownGap, c.gap[next])
				}
			case c.local[next]:
				if state == 'R' {
					c.irq = append(c.irq, now-c.at[next])
				}
			case !c.busy[next]:
				c.idle = append(c.idle, now-c.at[next])
				if c.queued[next] && now >= c.woken[next] {
					c.qWake = append(c.qWake, c.woken[next]-c.at[next])
					c.qSwitch = append(c.qSwitch, now-c.woken[next])
				}
			case state == 'R':
				c.busyS = append(c.busyS, now-c.at[next])
			}
		}
		c.at[next] = -1
		c.idleAt[cpu] = -1
	} else {
		c.idleAt[cpu] = now
	}
	c.cpuSw[cpu]++
}

// finishCosts sets the workload's estimates.
func (in *inferrer) finishCosts() {
	in.w.RemoteIdleWakes, in.w.RemoteIdleWakeP50 = median(in.costs.idle)
	in.w.RemoteBusyWakes, in.w.RemoteBusyWakeP50 = median(in.costs.busyS)
	in.w.LocalIRQWakes, in.w.LocalIRQWakeP50 = median(in.costs.irq)
	in.w.QueuedIdleWakes, in.w.QueuedIdleWakingP50 = median(in.costs.qWake)
	_, in.w.QueuedIdleSwitchP50 = median(in.costs.qSwitch)
	_, in.w.OwnIdleGapP50 = median(in.costs.ownGap)
	in.w.OwnIdleWakes, in.w.OwnIdleWakeP50 = median(in.costs.ownIdle)
	in.w.CostSamplesAdded = in.costs.added
}

func median(s []sched.Time) (int, sched.Time) {
	if len(s) == 0 {
		return 0, 0
	}
	slices.Sort(s)
	return len(s), s[len(s)/2]
}

// machineCosts is the hw.* overrides of the replay's scenario sc (its
// topology and kernel set).
func (w *Workload) machineCosts(sc *scenario.Scenario) map[string]string {
	hw := map[string]string{"ctx_switch_ns": "0", "pick_ns": "0"}
	if w.RemoteBusyWakes >= MinCostSamples {
		hw["ipi_latency_ns"] = strconv.FormatInt(int64(max(w.RemoteBusyWakeP50, 0)), 10)
	}
	if w.LocalIRQWakes >= MinCostSamples {
		hw["timer_irq_ns"] = strconv.FormatInt(int64(max(w.LocalIRQWakeP50, 0)), 10)
	}
	if w.RemoteIdleWakes < MinCostSamples {
		if w.OwnIdleWakes >= MinCostSamples {
			w.ownIdleCost(sc, hw)
		}
		return hw
	}
	if w.QueuedIdleWakes >= MinCostSamples {
		return w.splitIdleCosts(sc, hw)
	}
	p, ok := costProbe(sc, hw)
	if !ok {
		return hw
	}
	hw["idle_exit_ns"] = strconv.FormatInt(int64(max(w.RemoteIdleWakeP50-p.total, 0)), 10)
	return hw
}

// splitIdleCosts fits the wake-list path of an idle CPU in its two parts
// (core/sched wakelist.go, ipi.go): sched_waking to sched_wakeup is the
// IPI's delivery and the idle state's exit latency (the machine's, from
// the topology's idle states), so hw.ipi_latency_ns is the trace's median
// A less the probe's time with no IPI latency, unless the busy wakeups
// already gave it; sched_wakeup to switch-in is the rest of the handler,
// the idle exit and schedule_idle(), so hw.idle_exit_ns is the trace's
// median B less the probe's time with idle_exit_ns 0 and the fitted IPI
// latency. Where the model's path to sched_wakeup takes no IPI (a polling
// idle state: set_nr_if_polling()) the fitted latency changes nothing
// there and is dropped, and where it is shorter than A the idle exit
// takes the rest, so the whole path still costs A + B; a part the model
// already spends more on than the trace is fitted to 0.
func (w *Workload) splitIdleCosts(sc *scenario.Scenario, hw map[string]string) map[string]string {
	a, b := w.QueuedIdleWakingP50, w.QueuedIdleSwitchP50
	if _, fixed := hw["ipi_latency_ns"]; !fixed {
		hw["ipi_latency_ns"] = "0"
		p0, ok := costProbe(sc, hw)
		if !ok {
			delete(hw, "ipi_latency_ns")
			return hw
		}
		ipi := max(a-p0.waking, 0)
		hw["ipi_latency_ns"] = strconv.FormatInt(int64(ipi), 10)
		if p1, ok := costProbe(sc, hw); !ok || 2*(p1.waking-p0.waking) < ipi {
			delete(hw, "ipi_latency_ns") // no IPI on the model's path: the preset's
		}
	}
	p, ok := costProbe(sc, hw)
	if !ok {
		return hw
	}
	hw["idle_exit_ns"] = strconv.FormatInt(int64(max(b-p.switchIn, a+b-p.total, 0)), 10)
	return hw
}

// probeTimes are the medians a cost probe measures: sched_waking to
// sched_wakeup, sched_wakeup to switch-in, and sched_waking to switch-in.
type probeTimes struct{ waking, switchIn, total sched.Time }

// costProbe measures the simulated remote wakeup of an idle CPU without
// the idle exit's cost, on sc's machine and kernel with the hw
// overrides: the median times of b's wakeups in a ping-pong between CPUs
// 0 and 1 (50 us of work a side, 200 round trips), measured as the
// trace's are (the wake list prints sched_wakeup on the target after the
// IPI and the state's exit, core/sched/wakelist.go). ok is false on a
// machine of one CPU or when the probe does not run.
func costProbe(sc *scenario.Scenario, hw map[string]string) (probeTimes, bool) {
	p := scenario.New()
	p.Name, p.Topology, p.Kernel = "replay cost probe", sc.Topology, sc.Kernel
	p.Duration = 25 * sched.Millisecond
	p.HW = maps.Clone(hw)
	p.HW["idle_exit_ns"] = "0"
	side := func(name string, cpu int, in, out string, first bool) scenario.Task {
		prog := []scenario.Step{{Kind: "run", Run: 50 * sched.Microsecond}, {Kind: "signal", Res: out}, {Kind: "wait", Res: in}}
		if !first {
			prog = []scenario.Step{{Kind: "wait", Res: in}, {Kind: "run", Run: 50 * sched.Microsecond}, {Kind: "signal", Res: out}}
		}
		return scenario.Task{Name: name, Instances: 1, Policy: "SCHED_OTHER", CPUs: []int{cpu}, Loop: -1, Program: prog}
	}
	p.Tasks = []scenario.Task{side("a", 0, "ba", "ab", true), side("b", 1, "ab", "ba", false)}
	p.Semaphores = map[string]int{"ab": 0, "ba": 0}
	cfg, err := p.Build(sched.DefaultLimits())
	if err != nil || cfg.Machine.NumCPUs() < 2 {
		return probeTimes{}, false
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return probeTimes{}, false
	}
	w := &wakingToSwitch{task: 1, waking: -1, woken: -1}
	sim.Attach(w)
	if sim.Run() != nil || len(w.total) < 100 {
		return probeTimes{}, false
	}
	mid := func(s []sched.Time) sched.Time {
		slices.Sort(s)
		return s[(len(s)-1)/2]
	}
	return probeTimes{waking: mid(w.waking2wakeup), switchIn: mid(w.wakeup2switch), total: mid(w.total)}, true
}

// wakingToSwitch collects the times of task's wakeups: sched_waking to
// sched_wakeup, sched_wakeup to switch-in, and the sum.
type wakingToSwitch struct {
	task          sched.TaskID
	waking, woken sched.Time // -1: none pending
	waking2wakeup []sched.Time
	wakeup2switch []sched.Time
	total         []sched.Time
}

func (w *wakingToSwitch) Event(e *sched.Event) {
	switch {
	case e.Kind == sched.EvWaking && e.Next == w.task:
		w.waking, w.woken = e.Time, -1
	case e.Kind == sched.EvWakeup && e.Next == w.task && w.waking >= 0:
		w.woken = e.Time
	case e.Kind == sched.EvSwitch && e.Next == w.task && w.waking >= 0 && w.woken >= 0:
		w.waking2wakeup = append(w.waking2wakeup, w.woken-w.waking)
		w.wakeup2switch = append(w.wakeup2switch, e.Time-w.woken)
		w.total = append(w.total, e.Time-w.waking)
		w.waking, w.woken = -1, -1
	}
}
