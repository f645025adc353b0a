package sched_test

import (
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// rtConfig mixes FIFO, RR and fair tasks on 4 CPUs so that RT throttling
// (or the fair server), RR rotation, push and pull all happen.
func rtConfig(t *testing.T, kernel string) sched.Config {
	t.Helper()
	m, err := topology.Preset("smp-4")
	if err != nil {
		t.Fatal(err)
	}
	prof, err := sched.ProfileByName(kernel)
	if err != nil {
		t.Fatal(err)
	}
	run := func(d sched.Time) sched.Op { return sched.Op{Kind: sched.OpRun, Dur: d} }
	sleep := func(d sched.Time) sched.Op { return sched.Op{Kind: sched.OpSleep, Dur: d} }
	return sched.Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(4), Duration: 1500 * sched.Millisecond, Seed: 3,
		Tasks: []sched.TaskSpec{
			{Name: "rr", Instances: 5, Parent: -1, Loop: -1, Policy: sched.SchedRR, RTPriority: 10, Program: []sched.Op{run(sched.Forever)}},
			{Name: "fifo", Instances: 3, Parent: -1, Loop: -1, Policy: sched.SchedFIFO, RTPriority: 50,
				Program: []sched.Op{run(3 * sched.Millisecond), sleep(7 * sched.Millisecond)}},
			{Name: "fair", Instances: 4, Parent: -1, Loop: -1, Slack: 50 * sched.Microsecond,
				Program: []sched.Op{run(2 * sched.Millisecond), sleep(sched.Millisecond)}},
		}}
}

func TestRTDeterminism(t *testing.T) {
	for _, k := range []string{"v5.8", "v6.6", "v6.12", "v6.18"} {
		t.Run(k, func(t *testing.T) {
			cfg := rtConfig(t, k)
			want := runPreset(t, cfg, oneCall, false, true)
			if want.err != nil {
				t.Fatal(want.err)
			}
			for _, d := range []driver{stepLoop, chunked(sched.Millisecond), chunked(333 * sched.Millisecond)} {
				if got := runPreset(t, cfg, d, true, true); got != want {
					t.Errorf("%s: %s (%d events) vs %s (%d)", d.name, got.hash, got.sunk, want.hash, want.sunk)
				}
			}
		})
	}
}
