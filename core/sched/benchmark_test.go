package sched

// Benchmarks (make bench): the whole simulation per engine event beside a
// bare event-heap loop measured in the same run, so the ratio says what the
// scheduler logic costs on top of the event queue itself.

import (
	"testing"

	"schedplay/core/topology"
)

// benchSim builds the benchmark machine: smp-64 with 256 mixed tasks
// (CPU hogs at several nice levels, periodic tasks with rt-app timers,
// sleepers with bursts, a SCHED_IDLE and a SCHED_BATCH group), EEVDF v6.18.
func benchSim(tb testing.TB, kernel string) *Sim { return benchSimPinned(tb, kernel, true) }

// benchSimPinned builds the benchmark machine; unpinned tasks exercise
// wakeup placement and load balancing too.
func benchSimPinned(tb testing.TB, kernel string, pinned bool) *Sim {
	return benchSimGroups(tb, kernel, pinned, false)
}

// benchCgroups is a three-level cgroup tree (system services, user
// sessions with a low-weight batch group); the tasks are dealt to
// its four leaves, depth 3.
var benchCgroups = []CgroupSpec{
	{Path: "/system", Shares: 1024},                  // 1
	{Path: "/system/svc", Parent: 1, Shares: 512},    // 2
	{Path: "/system/svc/a", Parent: 2, Shares: 1024}, // 3
	{Path: "/system/svc/b", Parent: 2, Shares: 2048}, // 4
	{Path: "/user", Shares: 2048},                    // 5
	{Path: "/user/s1", Parent: 5, Shares: 1024},      // 6
	{Path: "/user/s1/app", Parent: 6, Shares: 1024},  // 7
	{Path: "/user/s1/batch", Parent: 6, Shares: 100}, // 8
}

var benchLeaves = []int{3, 4, 7, 8}

// benchSimGroups builds the benchmark machine, with every task in a leaf of
// benchCgroups when groups is set.
func benchSimGroups(tb testing.TB, kernel string, pinned, groups bool) *Sim {
	m, prof, tasks := benchMix(tb, "smp-64", kernel, benchCounts{hog: 48, hogNice5: 16, periodic: 64, bursty: 64, short: 32, batch: 16, idle: 16})
	// Spread the tasks over the CPUs, pinned (load balancing then finds every
	// task pinned, as the kernel would): task group i,
	// instance j is pinned to one CPU chosen round robin.
	var specs []TaskSpec
	cpu := 0
	for _, g := range tasks {
		n := g.Instances
		for j := 0; j < n; j++ {
			one := g
			one.Instances = 1
			if pinned {
				one.CPUs = []int{cpu % m.NumCPUs()}
			}
			if groups {
				one.Cgroup = benchLeaves[cpu%len(benchLeaves)]
			}
			cpu++
			specs = append(specs, one)
		}
	}
	cfg := Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()),
		Tasks: specs, Duration: 3600 * Second, Seed: 1}
	if groups {
		cfg.Cgroups = benchCgroups
	}
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// benchCounts are the instances of each kind of benchMix's tasks.
type benchCounts struct{ hog, hogNice5, periodic, bursty, short, batch, idle int }

// benchMix is the benchmarks' machine (a topology preset), kernel profile
// and task mix: CPU hogs at nice 0 and 5, periodic tasks with rt-app
// timers, bursty and short sleepers, a SCHED_BATCH and a SCHED_IDLE
// group, n of each (a kind with none is left out).
func benchMix(tb testing.TB, machine, kernel string, n benchCounts) (topology.Machine, Profile, []TaskSpec) {
	tb.Helper()
	m, err := topology.Preset(machine)
	if err != nil {
		tb.Fatal(err)
	}
	prof, err := ProfileByName(kernel)
	if err != nil {
		tb.Fatal(err)
	}
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	periodic := []Op{{Kind: OpRun, Dur: 700 * Microsecond}, {Kind: OpTimer, Dur: 4 * Millisecond}}
	bursty := []Op{{Kind: OpRun, Dur: 3 * Millisecond}, {Kind: OpSleep, Dur: 5 * Millisecond}}
	short := []Op{{Kind: OpRun, Dur: 50 * Microsecond}, {Kind: OpSleep, Dur: 300 * Microsecond}}
	all := []TaskSpec{
		{Name: "hog", Instances: n.hog, Parent: -1, Loop: -1, Program: hog},
		{Name: "hog_nice5", Instances: n.hogNice5, Nice: 5, Parent: -1, Loop: -1, Program: hog},
		{Name: "periodic", Instances: n.periodic, Parent: -1, Loop: -1, Program: periodic, Timers: 1, Slack: 50 * Microsecond},
		{Name: "bursty", Instances: n.bursty, Nice: -2, Parent: -1, Loop: -1, Program: bursty, Slack: 50 * Microsecond},
		{Name: "short", Instances: n.short, Parent: -1, Loop: -1, Program: short, Slack: 50 * Microsecond},
		{Name: "batch", Instances: n.batch, Policy: SchedBatch, Parent: -1, Loop: -1, Program: bursty, Slack: 50 * Microsecond},
		{Name: "idle", Instances: n.idle, Policy: SchedIdle, Parent: -1, Loop: -1, Program: hog},
	}
	var tasks []TaskSpec
	for _, t := range all {
		if t.Instances > 0 {
			tasks = append(tasks, t)
		}
	}
	return m, prof, tasks
}

func benchmarkSim(b *testing.B, kernel string) { benchmarkSimPinned(b, kernel, true) }

func benchmarkSimPinned(b *testing.B, kernel string, pinned bool) {
	benchmarkSimGroups(b, kernel, pinned, false)
}

func benchmarkSimGroups(b *testing.B, kernel string, pinned, groups bool) {
	s := benchSimGroups(b, kernel, pinned, groups)
	s.RunUntil(1 * Second) // warm up: every queue and slice has its size
	start := s.EventsPopped()
	simStart := s.Now()
	cpu0 := processCPUNs()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !s.Step() {
			b.Fatal("simulation ended during the benchmark")
		}
	}
	b.StopTimer()
	ev := s.EventsPopped() - start
	ns := float64(b.Elapsed().Nanoseconds())
	b.ReportMetric(ns/float64(ev), "ns/event")
	if cpuNs := processCPUNs() - cpu0; cpuNs > 0 {
		// The process's CPU time per event: what ns/event would be on an
		// otherwise idle machine (a shared one inflates the wall time).
		b.ReportMetric(float64(cpuNs)/float64(ev), "cpu-ns/event")
	}
	b.ReportMetric(float64(ev)/(ns/1e9), "events/s")
	if simd := s.Now() - simStart; simd > 0 {
		b.ReportMetric(ns/float64(simd), "wall-ns/sim-ns")
	}
}

// BenchmarkSim64CPU256TasksEEVDF: the whole engine, v6.18 EEVDF.
func BenchmarkSim64CPU256TasksEEVDF(b *testing.B) { benchmarkSim(b, "v6.18") }

// BenchmarkSim64CPU256TasksEEVDFUnpinned: v6.18 with every task free to
// move: wakeup placement and load balancing at work.
func BenchmarkSim64CPU256TasksEEVDFUnpinned(b *testing.B) { benchmarkSimPinned(b, "v6.18", false) }

// BenchmarkSim64CPU256TasksEEVDFCgroups: v6.18, unpinned, every task in a
// leaf of a three-level cgroup tree (the walks of cgroup_fair.go, group
// weights and hierarchical PELT); compare with ...EEVDFUnpinned.
func BenchmarkSim64CPU256TasksEEVDFCgroups(b *testing.B) { benchmarkSimGroups(b, "v6.18", false, true) }

// BenchmarkSim64CPU256TasksCFSUnpinned: v5.8, unpinned (the flat
// reference of ...CFSCgroups).
func BenchmarkSim64CPU256TasksCFSUnpinned(b *testing.B) { benchmarkSimPinned(b, "v5.8", false) }

// BenchmarkSim64CPU256TasksCFSCgroups: the same tree under v5.8 legacy CFS.
func BenchmarkSim64CPU256TasksCFSCgroups(b *testing.B) { benchmarkSimGroups(b, "v5.8", false, true) }

// BenchmarkSim64CPU256TasksCFS: the whole engine, v5.8 legacy CFS.
func BenchmarkSim64CPU256TasksCFS(b *testing.B) { benchmarkSim(b, "v5.8") }

// BenchmarkBareEventHeap is the baseline: pop the earliest event and push
// one new one, on a heap as large as the simulation's in steady state.
func BenchmarkBareEventHeap(b *testing.B) {
	q := bareHeap(b)
	b.ReportAllocs()
	b.ResetTimer()
	bareHeapLoop(q, b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// bareHeap is the baseline's queue: a copy of the 64-CPU benchmark
// machine's event heap after one simulated second.
func bareHeap(tb testing.TB) *eventQueue {
	s := benchSim(tb, "v6.18")
	s.RunUntil(1 * Second)
	q := &eventQueue{h: make([]qevent, 0, len(s.q.h))}
	for _, e := range s.q.h {
		q.push(e)
	}
	return q
}

// bareHeapLoop pops the earliest event and pushes it back up to ~1 ms
// later, n times.
func bareHeapLoop(q *eventQueue, n int) {
	var x uint64 = 88172645463325252
	for i := 0; i < n; i++ {
		e := q.pop()
		x ^= x << 13 // xorshift: the next event lands up to ~1 ms later
		x ^= x >> 7
		x ^= x << 17
		e.at += Time(x % uint64(Millisecond))
		q.push(e)
	}
}
