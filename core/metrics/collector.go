package metrics

// The collector: a sched.Sink that keeps per-task and per-CPU state
// machines driven by switch, wakeup, fork and exit events.

import (
	"math"

	"schedplay/core/sched"
)

type taskState uint8

const (
	tsUnborn taskState = iota
	tsWaiting
	tsRunning
	tsSleeping
	tsDead
)

type taskAcc struct {
	state      taskState
	since      sched.Time
	cpu        sched.CPUID
	runtime    int64
	wait       int64
	sleep      int64
	voluntary  int64
	involuntar int64
	migrations int64
	wakeups    int64
	wokenAt    sched.Time // pending wakeup latency start, -1 = none
	sys        int64
	latencies  Hist // wakeup latency samples (hist.go)
	// timerDue is the hard expiry of the hrtimer that is waking the task
	// (hrtimer_expire_entry), -1 = none; timerLat the samples of expiry to
	// switch-in (cyclictest's latency).
	timerDue sched.Time
	timerLat Hist
}

type cpuAcc struct {
	curr     sched.TaskID
	since    sched.Time
	busy     int64
	idle     int64
	switches int64
	ipis     int64
	// Idle states and kernel time: state is the cpu_idle state the CPU is
	// in (-1: none) since stateAt; kernFrom..kernUntil is the running
	// task's pending sys window; taskSys the task sys time accounted.
	state              int64
	stateAt            sched.Time
	stateNs            []int64
	kernFrom, kernUntl sched.Time
	taskSys            int64
}

// Collector accumulates metrics from events. Create it with New and attach
// it to a sched.Sim before running.
type Collector struct {
	tasks []taskAcc
	cpus  []cpuAcc
	end   sched.Time
	ended bool
	// exact is the run's budget of exact latency entries (hist.go).
	exact Budget
}

// New returns a collector for a machine of ncpu CPUs.
func New(ncpu int) *Collector {
	c := &Collector{cpus: make([]cpuAcc, ncpu), exact: Budget{left: DefaultExactEntries}}
	for i := range c.cpus {
		c.cpus[i].curr = sched.NoTask
		c.cpus[i].state = -1
	}
	return c
}

func (c *Collector) task(id sched.TaskID) *taskAcc {
	for int(id) >= len(c.tasks) {
		c.tasks = append(c.tasks, taskAcc{wokenAt: -1, cpu: -1, timerDue: -1})
	}
	return &c.tasks[id]
}

// Event implements sched.Sink.
func (c *Collector) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvSwitch:
		c.onSwitch(e)
	case sched.EvWakeup, sched.EvWakeupNew:
		t := c.task(e.Next)
		switch t.state {
		case tsSleeping:
			t.sleep += int64(e.Time - t.since)
		}
		if e.Kind == sched.EvWakeup {
			t.wakeups++
			t.wokenAt = e.Time
		}
		if t.cpu >= 0 && t.cpu != e.CPU {
			t.migrations++
		}
		t.cpu = e.CPU
		t.state, t.since = tsWaiting, e.Time
	case sched.EvMigrate:
		t := c.task(e.Next)
		if t.cpu != e.CPU {
			t.migrations++
			t.cpu = e.CPU
		}
	case sched.EvIdleEnter:
		cpu := &c.cpus[e.CPU]
		c.closeState(cpu, e.Time)
		cpu.state, cpu.stateAt = e.Arg, e.Time
	case sched.EvIdleExit:
		c.closeState(&c.cpus[e.CPU], e.Time)
	case sched.EvIPIRaise:
		c.cpus[e.CPU].ipis++
	case sched.EvKernel:
		if e.Prev != sched.NoTask {
			cpu := &c.cpus[e.CPU]
			c.closeKernel(cpu, e.Time)
			if cpu.kernUntl < e.Time || cpu.kernUntl == kernOpen {
				cpu.kernFrom, cpu.kernUntl = e.Time, e.Time
			}
			if e.Arg < 0 {
				cpu.kernUntl = kernOpen // a spin (csd_lock_wait) until the next event
			} else {
				cpu.kernUntl += sched.Time(e.Arg)
			}
		}
	case sched.EvTimerExpire:
		c.task(e.Next).timerDue = sched.Time(e.Arg)
	case sched.EvEnd:
		c.finish(e.Time)
	}
}

// closeState ends the CPU's idle-state interval at t.
func (c *Collector) closeState(cpu *cpuAcc, t sched.Time) {
	if cpu.state < 0 {
		return
	}
	for int(cpu.state) >= len(cpu.stateNs) {
		cpu.stateNs = append(cpu.stateNs, 0)
	}
	cpu.stateNs[cpu.state] += int64(t - cpu.stateAt)
	cpu.state = -1
}

// kernOpen marks an open-ended sys window (EvKernel with Arg -1).
const kernOpen = sched.Time(math.MaxInt64)

// closeKernel accounts the running task's sys window up to t.
func (c *Collector) closeKernel(cpu *cpuAcc, t sched.Time) {
	end := min(t, cpu.kernUntl)
	if end > cpu.kernFrom {
		d := int64(end - cpu.kernFrom)
		cpu.taskSys += d
		if cpu.curr != sched.NoTask {
			c.task(cpu.curr).sys += d
		}
		cpu.kernFrom = end
	}
}

func (c *Collector) onSwitch(e *sched.Event) {
	cpu := &c.cpus[e.CPU]
	c.closeKernel(cpu, e.Time)
	cpu.kernFrom, cpu.kernUntl = e.Time, e.Time
	d := int64(e.Time - cpu.since)
	if cpu.curr == sched.NoTask {
		cpu.idle += d
	} else {
		cpu.busy += d
	}
	cpu.switches++
	if e.Prev != sched.NoTask {
		t := c.task(e.Prev)
		t.runtime += int64(e.Time - t.since)
		t.since = e.Time
		switch e.PrevState {
		case 'R':
			t.involuntar++
			t.state = tsWaiting
		case 'X':
			t.voluntary++
			t.state = tsDead
		default:
			t.voluntary++
			t.state = tsSleeping
		}
	}
	if e.Next != sched.NoTask {
		t := c.task(e.Next)
		if t.state == tsWaiting {
			t.wait += int64(e.Time - t.since)
		}
		if t.wokenAt >= 0 {
			t.latencies.Add(int64(e.Time-t.wokenAt), &c.exact)
			t.wokenAt = -1
		}
		if t.timerDue >= 0 {
			t.timerLat.Add(int64(e.Time-t.timerDue), &c.exact)
			t.timerDue = -1
		}
		t.state, t.since, t.cpu = tsRunning, e.Time, e.CPU
	}
	cpu.curr, cpu.since = e.Next, e.Time
}

// finish closes every open interval at the end of the run.
func (c *Collector) finish(end sched.Time) {
	if c.ended {
		return
	}
	c.ended, c.end = true, end
	for i := range c.cpus {
		cpu := &c.cpus[i]
		c.closeKernel(cpu, end)
		c.closeState(cpu, end)
		d := int64(end - cpu.since)
		if cpu.curr == sched.NoTask {
			cpu.idle += d
		} else {
			cpu.busy += d
		}
		cpu.since = end
	}
	for i := range c.tasks {
		t := &c.tasks[i]
		d := int64(end - t.since)
		switch t.state {
		case tsRunning:
			t.runtime += d
		case tsWaiting:
			t.wait += d
		case tsSleeping:
			t.sleep += d
		}
		t.since = end
	}
}
