package replay

// The idle exit after a timer wakeup on the wakee's own idle CPU. A task
// sleeping on an hrtimer whose CPU has nothing else to run is woken by
// that CPU's own interrupt: hrtimer_interrupt() -> hrtimer_wakeup() ->
// try_to_wake_up() (kernel/time/hrtimer.c, read at torvalds/linux
// 009eb5da as core/sched/timer_irq.go did), which prints sched_waking and
// sched_wakeup there, in hardirq context, with the idle task in the task
// column; then the interrupt's return, do_idle()'s exit from
// cpuidle_idle_call() (cpuidle_reflect(), tick_nohz_idle_exit(), a
// v5.10-era kernel/sched/idle.c, docs/kernel-rules.md section 24.1) and
// schedule_idle(). No remote wakeup and no IPI is involved, so a workload
// of periodic tasks, each woken by its own timer on its own CPU, has no
// sample of costs.go's remote path, while every one of its wakeups pays
// this one.
//
// Its sched_wakeup-to-switch-in time in the trace is that path's cost on
// the traced machine: the median M over the trace's wakeups of that kind
// (the wakeup's context line printed on the wakee's CPU in interrupt
// context by the idle task, the CPU idle, the next switch there switching
// the wakee in; at least MinCostSamples; a switch-in the importer added
// ends no sample). The simulated path costs F + hw.idle_exit_ns on the
// replay's machine and profile, F measured once by a probe
// (timerIdleProbe: a task woken by its absolute timer on an otherwise
// idle machine, idle as long as the trace's CPUs were before such a
// wakeup, with idle_exit_ns 0); the replay's hw.idle_exit_ns is M - F (at
// least 0). The remote path's fit, where the trace has one, sets the same
// key and is kept: it is the cost the trace shows between CPUs, and its
// second part (sched_wakeup to switch-in) is the same idle exit.

import (
	"maps"
	"slices"
	"strconv"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// sampleOwnIdle notes the wakeup at event i of task n onto target when it
// was made by an interrupt on target, idle at the time, and reports
// whether it did.
func (in *inferrer) sampleOwnIdle(i int, n sched.TaskID, target int, queued bool) bool {
	e, ws, c := &in.tr.Events[i], in.tr.Wakes[i], in.costs
	if queued || ws.IRQ != 1 || ws.Waker != sched.NoTask || ws.CPU != target || in.on[target] != sched.NoTask {
		return false
	}
	c.at[n], c.cpu[n], c.busy[n], c.sw[n], c.local[n], c.own[n] = e.Time, target, false, c.cpuSw[target], false, true
	c.gap[n] = -1
	if t := c.idleAt[target]; t >= 0 {
		c.gap[n] = e.Time - t
	}
	return true
}

// Bounds of the probe's idle time: the trace's median gap, kept to what
// the probe can run in a bounded simulation.
const (
	minProbeGap = 50 * sched.Microsecond
	maxProbeGap = 20 * sched.Millisecond
)

// ownIdleCost sets hw.idle_exit_ns to the trace's median less the probe's
// simulated path without it; without a probe (one CPU's topology that does
// not build, too few wakeups) the preset's stays.
func (w *Workload) ownIdleCost(sc *scenario.Scenario, hw map[string]string) {
	gap := min(max(w.OwnIdleGapP50, minProbeGap), maxProbeGap)
	f, ok := timerIdleProbe(sc, hw, gap)
	if !ok {
		return
	}
	hw["idle_exit_ns"] = strconv.FormatInt(int64(max(w.OwnIdleWakeP50-f, 0)), 10)
}

// timerIdleProbe measures the simulated timer wakeup of a task on its own
// idle CPU without the idle exit's cost, on sc's machine and kernel with
// the hw overrides: the median sched_wakeup-to-switch-in time of a task on
// CPU 0 that runs 100 us and sleeps until its absolute timer, gap later,
// 60 times, every other CPU idle. ok is false when the probe does not run
// or shows fewer than MinCostSamples wakeups.
func timerIdleProbe(sc *scenario.Scenario, hw map[string]string, gap sched.Time) (sched.Time, bool) {
	const runs = 60
	work := 100 * sched.Microsecond
	p := scenario.New()
	p.Name, p.Topology, p.Kernel = "replay timer idle probe", sc.Topology, sc.Kernel
	p.Duration = runs * (work + gap)
	p.HW = maps.Clone(hw)
	p.HW["idle_exit_ns"] = "0"
	p.Tasks = []scenario.Task{{Name: "t", Instances: 1, Policy: "SCHED_OTHER", CPUs: []int{0}, Loop: -1,
		Program: []scenario.Step{{Kind: "run", Run: work},
			{Kind: "timer", Timer: &scenario.Timer{Ref: "probe", Period: work + gap, Mode: "absolute"}}}}}
	cfg, err := p.Build(sched.DefaultLimits())
	if err != nil {
		return 0, false
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return 0, false
	}
	l := &wakeupToSwitch{task: 0, woken: -1}
	sim.Attach(l)
	if sim.Run() != nil || len(l.lat) < MinCostSamples {
		return 0, false
	}
	slices.Sort(l.lat)
	return l.lat[(len(l.lat)-1)/2], true
}

// wakeupToSwitch collects task's sched_wakeup-to-switch-in times.
type wakeupToSwitch struct {
	task  sched.TaskID
	woken sched.Time // -1: none pending
	lat   []sched.Time
}

func (l *wakeupToSwitch) Event(e *sched.Event) {
	switch {
	case e.Kind == sched.EvWakeup && e.Next == l.task:
		l.woken = e.Time
	case e.Kind == sched.EvSwitch && e.Next == l.task && l.woken >= 0:
		l.lat = append(l.lat, e.Time-l.woken)
		l.woken = -1
	}
}
