package scenario

import (
	"testing"

	"schedplay/core/sched"
)

// TestRTGroupScenario: a scenario's "cpu.rt_runtime_us"/"cpu.rt_period_us"
// reach the engine, which holds the group's SCHED_FIFO hog to the group's
// 30 ms per 100 ms on its CPU (the group's cpu.stat usage).
func TestRTGroupScenario(t *testing.T) {
	js := doc(`"topology":"smp-2","duration":"2s","kernel":{"rt_group_sched":"on"},"cgroups":{"/R":{"cpu.rt_runtime_us":30000,"cpu.rt_period_us":100000}},`,
		task("fifo", `"policy":"SCHED_FIFO","priority":50,"cpus":[0],"taskgroup":"/R",`, `{"run":-1}`),
		task("fair", `"cpus":[0],`, `{"run":-1}`))
	sim := buildRun(t, js, sched.DefaultLimits())
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	got := float64(sim.CgroupStat(1).UsageNs) / float64(2*sched.Second)
	if got < 0.295 || got > 0.31 {
		t.Errorf("/R used %.4f of CPU 0, want 0.30 (30 ms per 100 ms)", got)
	}
}
