package perfetto

import (
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// newRun builds a run of tasks on the named machine.
func newRun(t testing.TB, machine string, dur sched.Time, tasks []sched.TaskSpec) *sched.Sim {
	t.Helper()
	m, err := topology.Preset(machine)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := sched.ProfileByName("v6.18")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sched.Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()),
		Duration: dur, Tasks: tasks}
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mixedTasks is two CPU hogs pinned to CPU 0 and a periodic task.
func mixedTasks() []sched.TaskSpec {
	return []sched.TaskSpec{
		{Name: "hog", Instances: 2, Parent: -1, Loop: -1, CPUs: []int{0},
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
		{Name: "periodic", Instances: 1, Parent: -1, Loop: -1, Timers: 1, Slack: 50 * sched.Microsecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Millisecond},
				{Kind: sched.OpTimer, Dur: 10 * sched.Millisecond, Timer: 0}}},
	}
}

// forkTasks adds a parent that forks a short-lived child and exits.
func forkTasks() []sched.TaskSpec {
	return append(mixedTasks(),
		sched.TaskSpec{Name: "parent", Instances: 1, Parent: -1, Loop: 1, Start: 2 * sched.Millisecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 200 * sched.Microsecond},
				{Kind: sched.OpFork, Target: 3}, {Kind: sched.OpSleep, Dur: sched.Millisecond},
				{Kind: sched.OpExit}}},
		sched.TaskSpec{Name: "child", Instances: 1, Parent: 2, Loop: 1,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 300 * sched.Microsecond}, {Kind: sched.OpExit}}},
	)
}

// busyMeter is the reference: per-CPU busy time straight from sched_switch.
type busyMeter struct {
	since []sched.Time
	curr  []sched.TaskID
	busy  []sched.Time
}

func newBusyMeter(ncpu int) *busyMeter {
	m := &busyMeter{since: make([]sched.Time, ncpu), curr: make([]sched.TaskID, ncpu), busy: make([]sched.Time, ncpu)}
	for i := range m.curr {
		m.curr[i] = sched.NoTask
	}
	return m
}

func (m *busyMeter) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvSwitch:
		if m.curr[e.CPU] != sched.NoTask {
			m.busy[e.CPU] += e.Time - m.since[e.CPU]
		}
		m.curr[e.CPU], m.since[e.CPU] = e.Next, e.Time
	case sched.EvEnd:
		for c := range m.curr {
			if m.curr[c] != sched.NoTask {
				m.busy[c] += e.Time - m.since[c]
				m.curr[c] = sched.NoTask
			}
		}
	}
}
