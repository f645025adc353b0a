package metrics

// Reports without a simulator: the same figures for an event stream that
// came from elsewhere (an imported kernel trace), described by a task table
// instead of a *sched.Sim.

import "schedplay/core/sched"

// Meta is the header of a report built with [Collector.BuildFrom]: what a
// *sched.Sim would otherwise supply.
type Meta struct {
	Scenario string
	Topology string
	Kernel   string
	Seed     uint64
	// Events is the number of events the report summarises.
	Events int64
}

// SetRunning records that task id was already running on cpu at time at,
// before the first event the collector sees: a trace that starts in the
// middle of a run. The task's runtime and the CPU's busy time count from
// at; no switch is counted. Call it before the first event.
func (c *Collector) SetRunning(cpu sched.CPUID, id sched.TaskID, at sched.Time) {
	if id == sched.NoTask {
		return
	}
	cp := &c.cpus[cpu]
	cp.curr, cp.since = id, at
	t := c.task(id)
	t.state, t.since, t.cpu = tsRunning, at, cpu
}

// BuildFrom assembles the report for a finished event stream whose tasks
// are described by tasks (indexed by TaskID). The CPUs are those given to
// [New].
func (c *Collector) BuildFrom(tasks []sched.TaskInfo, m Meta) Report {
	r := Report{Schema: Schema, Scenario: m.Scenario, Topology: m.Topology,
		Kernel: m.Kernel, Seed: m.Seed, DurationNs: int64(c.end),
		Events: m.Events, Tasks: []Task{}, CPUs: []CPU{}}
	for id, info := range tasks {
		var a taskAcc
		if id < len(c.tasks) {
			a = c.tasks[id]
		}
		r.Tasks = append(r.Tasks, Task{
			Name: info.Name, PID: info.PID, Policy: info.Policy.String(), Nice: info.Nice,
			RTPriority: info.RTPriority,
			RuntimeNs:  a.runtime, WaitNs: a.wait, SleepNs: a.sleep,
			Switches: a.voluntary + a.involuntar, InvoluntarySwitches: a.involuntar,
			Migrations: a.migrations, Wakeups: a.wakeups,
			WakeupLatencyNs: a.latencies.Summary(), TimerLatencyNs: a.timerLat.Summary(),
		})
	}
	for i, cp := range c.cpus {
		r.CPUs = append(r.CPUs, CPU{ID: i, BusyNs: cp.busy, IdleNs: cp.idle, Switches: cp.switches,
			IdleStateNs: map[string]int64{}})
	}
	return r
}
