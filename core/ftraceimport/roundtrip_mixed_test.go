package ftraceimport

import (
	"bytes"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/tracetest"
)

// mixedSpecs is an unpinned workload on several CPUs: hogs of different
// nice, periodic tasks that wake and migrate, an RT task, and a parent that
// forks a short-lived child.
func mixedSpecs() []sched.TaskSpec {
	return []sched.TaskSpec{
		{Name: "hog", Instances: 3, Parent: -1, Loop: -1,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
		{Name: "nice5", Instances: 1, Parent: -1, Loop: -1, Nice: 5,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 3 * sched.Millisecond},
				{Kind: sched.OpSleep, Dur: 500 * sched.Microsecond}}},
		{Name: "periodic", Instances: 4, Parent: -1, Loop: -1, Timers: 1, Slack: 50 * sched.Microsecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 700 * sched.Microsecond},
				{Kind: sched.OpTimer, Dur: 4 * sched.Millisecond, Timer: 0}}},
		{Name: "rt", Instances: 1, Parent: -1, Loop: -1, Policy: sched.SchedFIFO, RTPriority: 10,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 100 * sched.Microsecond},
				{Kind: sched.OpSleep, Dur: 3 * sched.Millisecond}}},
		{Name: "parent", Instances: 1, Parent: -1, Loop: 1, Start: 2*sched.Millisecond + 333,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 200 * sched.Microsecond},
				{Kind: sched.OpFork, Target: 5}, {Kind: sched.OpSleep, Dur: sched.Millisecond},
				{Kind: sched.OpExit}}},
		{Name: "child", Instances: 1, Parent: 4, Loop: 1,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 300 * sched.Microsecond}, {Kind: sched.OpExit}}},
	}
}

func TestRoundTripMixed(t *testing.T) {
	for _, machine := range []string{"smp-2", "smp-4", "alderlake-6p8e", "late-start"} {
		t.Run(machine, func(t *testing.T) {
			specs := mixedSpecs()
			if machine == "late-start" { // the trace starts at 5 ms: a non-zero offset
				machine = "smp-4"
				for i := range specs {
					specs[i].Start += 5*sched.Millisecond + 777
				}
			}
			sim := tracetest.NewRun(t, machine, 200*sched.Millisecond+1234, specs)
			col := metrics.New(sim.NumCPUs())
			var buf bytes.Buffer
			w := ftrace.NewWriter(&buf, sim.TaskInfo, sim.NumCPUs())
			sim.Attach(col)
			sim.Attach(w)
			if err := sim.Run(); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			want := col.Build(sim, "mixed")
			tr, err := Import(&buf, Options{End: want.DurationNs})
			if err != nil {
				t.Fatal(err)
			}
			compareReports(t, want, tr.Metrics("mixed"), tr.Offset)
			var migr int64
			for _, tk := range want.Tasks {
				migr += tk.Migrations
			}
			if migr == 0 {
				t.Errorf("workload has no migrations: the test does not cover them")
			}
		})
	}
}
