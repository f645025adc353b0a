// Package tracetest holds the runs the trace writers' tests share (ftrace
// and perfetto write the same runs, so their tests build them alike).
// Imported by tests only.
package tracetest

import (
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// NewRun builds a run of tasks on the named machine.
func NewRun(t testing.TB, machine string, dur sched.Time, tasks []sched.TaskSpec) *sched.Sim {
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

// MixedTasks is two CPU hogs pinned to CPU 0 and a periodic task.
func MixedTasks() []sched.TaskSpec {
	return []sched.TaskSpec{
		{Name: "hog", Instances: 2, Parent: -1, Loop: -1, CPUs: []int{0},
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
		{Name: "periodic", Instances: 1, Parent: -1, Loop: -1, Timers: 1, Slack: 50 * sched.Microsecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Millisecond},
				{Kind: sched.OpTimer, Dur: 10 * sched.Millisecond, Timer: 0}}},
	}
}

// ForkTasks adds a parent that forks a short-lived child and exits.
func ForkTasks() []sched.TaskSpec {
	return append(MixedTasks(),
		sched.TaskSpec{Name: "parent", Instances: 1, Parent: -1, Loop: 1, Start: 2 * sched.Millisecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 200 * sched.Microsecond},
				{Kind: sched.OpFork, Target: 3}, {Kind: sched.OpSleep, Dur: sched.Millisecond},
				{Kind: sched.OpExit}}},
		sched.TaskSpec{Name: "child", Instances: 1, Parent: 2, Loop: 1,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 300 * sched.Microsecond}, {Kind: sched.OpExit}}},
	)
}

// PresetRun builds the named built-in scenario for at most 200 ms (20 ms
// for the 144-CPU seed/newidle-rt-latency), for the writers' whole-preset
// tests.
func PresetRun(t testing.TB, name string) *sched.Sim {
	t.Helper()
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = min(sc.Duration, 200*sched.Millisecond)
	if name == "seed/newidle-rt-latency" {
		sc.Duration = 20 * sched.Millisecond // 144 CPUs under a dense load
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Writer is a trace writer: a sink that Close flushes.
type Writer interface {
	sched.Sink
	Close() error
}

// Write runs s to its end with w (and the extra sinks, after it) attached
// and closes w.
func Write(t testing.TB, s *sched.Sim, w Writer, extra ...sched.Sink) {
	t.Helper()
	s.Attach(w)
	for _, k := range extra {
		s.Attach(k)
	}
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
