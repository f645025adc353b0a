package sched

import (
	"testing"

	"schedplay/core/topology"
)

// ipcSim builds a machine busy with inter-task wakeups: pipe ping-pong
// pairs (sync signals, unpinned so wake_affine and select_idle_sibling
// run), a broadcaster with waiters, and a barrier group, on smp-8.
func ipcSim(tb testing.TB) *Sim {
	m, err := topology.Preset("smp-8")
	if err != nil {
		tb.Fatal(err)
	}
	prof, err := ProfileByName("v6.18")
	if err != nil {
		tb.Fatal(err)
	}
	var res []Resource
	var specs []TaskSpec
	for p := 0; p < 4; p++ {
		a, b := len(res), len(res)+1
		res = append(res, Resource{Name: "ab"}, Resource{Name: "ba"})
		specs = append(specs,
			TaskSpec{Name: "ping", Instances: 1, Parent: -1, Loop: -1, Program: []Op{
				{Kind: OpRun, Dur: Microsecond}, {Kind: OpSignal, Res: a, Sync: true}, {Kind: OpWait, Res: b}, {Kind: OpRun, Dur: Microsecond}}},
			TaskSpec{Name: "pong", Instances: 1, Parent: -1, Loop: -1, Program: []Op{
				{Kind: OpWait, Res: a}, {Kind: OpRun, Dur: 2 * Microsecond}, {Kind: OpSignal, Res: b, Sync: true}}})
	}
	ev, bar := len(res), len(res)+1
	res = append(res, Resource{Name: "tick"}, Resource{Name: "bar", Barrier: 6})
	specs = append(specs,
		TaskSpec{Name: "bcast", Instances: 1, Parent: -1, Loop: -1, Slack: 50 * Microsecond, Program: []Op{
			{Kind: OpSleep, Dur: 500 * Microsecond}, {Kind: OpBroadcast, Res: ev}}},
		TaskSpec{Name: "waiter", Instances: 6, Parent: -1, Loop: -1, Program: []Op{
			{Kind: OpWait, Res: ev}, {Kind: OpRun, Dur: 30 * Microsecond}, {Kind: OpBarrier, Res: bar}}})
	s, err := New(Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()),
		Tasks: specs, Resources: res, Duration: 3600 * Second, Seed: 1, HW: DefaultHW(&m)})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestIPCNoAlloc: waits, signals, broadcasts and barriers allocate nothing
// once the run is warm (wait lists are preallocated).
func TestIPCNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector (checked by the non-race run and make bench)")
	}
	s := ipcSim(t)
	s.RunUntil(1500 * Millisecond) // see BenchmarkIPCPingPong
	if n := testing.AllocsPerRun(20000, func() { s.Step() }); n != 0 {
		t.Errorf("%v allocations per event", n)
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
}

// BenchmarkIPCPingPong: the engine under inter-task wakeups.
func BenchmarkIPCPingPong(b *testing.B) {
	s := ipcSim(b)
	// Warm up past the fair server's 1 s period: its deferred timers,
	// re-armed on every 0 -> 1 enqueue and cancelled by generation, fill
	// the event heap up to one period ahead before it stops growing.
	s.RunUntil(1500 * Millisecond)
	start := s.EventsPopped()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !s.Step() {
			b.Fatal("simulation ended during the benchmark")
		}
	}
	b.StopTimer()
	ev := s.EventsPopped() - start
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ev), "ns/event")
}
