package sched

import (
	"math"
	"testing"
)

// TestMigrateSEPeltLag: a task that ran 100 ms on CPU 0 and slept 64 ms
// there (CPU 0 idle all along) is woken onto CPU 1. migrate_se_pelt_lag()
// (v6.0+) decays it over the sleep, to about a quarter (two half-lives) of
// its util and load, exactly the blocked decay to the estimated present;
// v5.8 has no estimate and the task keeps its pre-sleep averages.
func TestMigrateSEPeltLag(t *testing.T) {
	for _, tc := range []struct {
		kernel string
		decays bool
	}{{"v5.8", false}, {"v6.6", true}, {"v6.12", true}, {"v6.18", true}} {
		t.Run(tc.kernel, func(t *testing.T) {
			prog := []Op{{Kind: OpRun, Dur: 100 * Millisecond}, {Kind: OpSleep, Dur: Second}}
			s := peltSim(t, "smp-2", tc.kernel, 2*Second,
				TaskSpec{Name: "p", Loop: 1, Program: prog, CPUs: []int{0}})
			s.RunUntil(100*Millisecond + 10)
			p := s.task(0)
			if p.state != stateBlocked || p.cpu != 0 {
				t.Fatalf("p: state %v on cpu %d, want blocked on 0", p.state, p.cpu)
			}
			before := p.se.avg
			if before.utilAvg < 500 {
				t.Fatalf("p's util_avg after 100 ms of running: %d, want > 500", before.utilAvg)
			}
			s.RunUntil(164 * Millisecond)
			src := &s.rqs[0]
			if src.curr != nil {
				t.Fatalf("cpu 0 should be idle")
			}
			// The kernel's result: the sync to the cfs_rq, then the blocked
			// decay to clock_pelt_idle + (now - clock_idle).
			want := p.se.avg
			if updateLoadSum(s.cfsOf(p).avg.lastUpdateTime, &want, 0, 0, false) {
				updateLoadAvgSums(&want, s.seWeight(p))
			}
			if tc.decays {
				est := src.clockPeltIdle + uint64(s.now) - src.clockIdle
				if est != uint64(s.now)-src.lostIdleTime {
					t.Errorf("estimated present %d, want now - lost_idle_time = %d", est, uint64(s.now)-src.lostIdleTime)
				}
				if updateLoadSum(est, &want, 0, 0, false) {
					updateLoadAvgSums(&want, s.seWeight(p))
				}
			}
			s.migrateWaking(p, 1, ReasonSISIdleCPU)
			got := p.se.avg
			if got.utilAvg != want.utilAvg || got.loadAvg != want.loadAvg || got.runnableAvg != want.runnableAvg {
				t.Errorf("after migration util %d load %d runnable %d, want %d %d %d",
					got.utilAvg, got.loadAvg, got.runnableAvg, want.utilAvg, want.loadAvg, want.runnableAvg)
			}
			quarter := float64(before.utilAvg) / 4
			decayed := math.Abs(float64(got.utilAvg)-quarter) < 0.05*quarter+8
			if decayed != tc.decays {
				t.Errorf("util %d -> %d over 64 ms idle: decayed to ~%.0f is %v, want %v",
					before.utilAvg, got.utilAvg, quarter, decayed, tc.decays)
			}
			// The destination attaches what arrived.
			dst := &s.rqs[1]
			s.enqueueTask(dst, p, enqWakeup|enqMigrated)
			if dst.cfs.avg.utilAvg != got.utilAvg {
				t.Errorf("cpu 1 util %d after the attach, want the task's %d", dst.cfs.avg.utilAvg, got.utilAvg)
			}
		})
	}
}

// TestMigrateSEPeltLagGrouped: the same in a task group, where the task's
// cfs_rq is the group's on CPU 0: decayed over the sleep on v6.18, not on
// v5.8.
func TestMigrateSEPeltLagGrouped(t *testing.T) {
	for _, tc := range []struct {
		kernel string
		decays bool
	}{{"v5.8", false}, {"v6.18", true}} {
		t.Run(tc.kernel, func(t *testing.T) {
			r := newRun(t).topology("smp-2").kernel(tc.kernel).duration(2*Second).
				cgroup("/G", "", 1024).
				task("p").in("/G").cpus(0).loop(1).run(100 * Millisecond).sleep(Second).
				build()
			r.runFor(100*Millisecond + 10)
			p := r.task(r.id("p"))
			if p.state != stateBlocked || r.cfsOf(p).tg == nil {
				t.Fatalf("p should be blocked in its group")
			}
			before := p.se.avg.utilAvg
			r.runFor(164 * Millisecond) // an instant, not a duration
			r.migrateWaking(p, 1, ReasonSISIdleCPU)
			got := p.se.avg.utilAvg
			quarter := float64(before) / 4
			decayed := math.Abs(float64(got)-quarter) < 0.05*quarter+8
			if decayed != tc.decays {
				t.Errorf("util %d -> %d over 64 ms idle: decayed to ~%.0f is %v, want %v",
					before, got, quarter, decayed, tc.decays)
			}
		})
	}
}
