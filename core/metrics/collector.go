package metrics

// The collector: a sched.Sink that keeps per-task and per-CPU state
// machines driven by switch, wakeup, fork and exit events.

import (
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
	latencies  []int64
}

type cpuAcc struct {
	curr     sched.TaskID
	since    sched.Time
	busy     int64
	idle     int64
	switches int64
}

// Collector accumulates metrics from events. Create it with New and attach
// it to a sched.Sim before running.
type Collector struct {
	tasks []taskAcc
	cpus  []cpuAcc
	end   sched.Time
	ended bool
}

// New returns a collector for a machine of ncpu CPUs.
func New(ncpu int) *Collector {
	c := &Collector{cpus: make([]cpuAcc, ncpu)}
	for i := range c.cpus {
		c.cpus[i].curr = sched.NoTask
	}
	return c
}

func (c *Collector) task(id sched.TaskID) *taskAcc {
	for int(id) >= len(c.tasks) {
		c.tasks = append(c.tasks, taskAcc{wokenAt: -1, cpu: -1})
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
	case sched.EvEnd:
		c.finish(e.Time)
	}
}

func (c *Collector) onSwitch(e *sched.Event) {
	cpu := &c.cpus[e.CPU]
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
			t.latencies = append(t.latencies, int64(e.Time-t.wokenAt))
			t.wokenAt = -1
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
