//go:build linux

package main

// Memory that does not grow with simulated time (docs/engine.md,
// "Memory"): the peak RSS of `schedplay run` on the 256-CPU, 1024-task
// workload of core/sched's BenchmarkSimEpyc256CPU1024Tasks
// (testdata/epyc-1024.json), metrics only, for 1 and 30 simulated seconds,
// must stay within 1.5x; so must the live heap, sampled after a forced
// collection every simulated second and once the report is built
// (deterministic, where the RSS varies by a few MB with where the
// collector's cycles fall). About 10 s of CPU per 30 s run, so these run
// in `make bench-memory` (SCHEDPLAY_MEMORY_TEST=1), not `make test`.

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// memoryTestVar enables TestPeakRSSFlat.
const memoryTestVar = "SCHEDPLAY_MEMORY_TEST"

// peakRSSKB runs this test binary as `schedplay run -duration d` on the
// workload and returns the child's peak RSS in KiB (getrusage ru_maxrss).
func peakRSSKB(t *testing.T, d string) int64 {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-duration", d, "-o", "json", "testdata/epyc-1024.json")
	cmd.Env = append(os.Environ(), cliHelperVar+"=1")
	cmd.Stdout = io.Discard
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("schedplay run -duration %s: %v", d, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child")
	}
	return ru.Maxrss
}

// needMemoryTest skips unless make bench-memory runs the test.
func needMemoryTest(t *testing.T) {
	if os.Getenv(memoryTestVar) != "1" {
		t.Skipf("the memory tests run a 256-CPU machine for 30 simulated seconds: make bench-memory (%s=1)", memoryTestVar)
	}
}

// TestPeakRSSFlat: the peak RSS of the 30 s run is within 1.5x of the
// 1 s run's. Each is the least of three runs: the peak varies by a few MB
// with where the garbage collector's cycles fall.
func TestPeakRSSFlat(t *testing.T) {
	needMemoryTest(t)
	least := func(d string) int64 {
		a, b, c := peakRSSKB(t, d), peakRSSKB(t, d), peakRSSKB(t, d)
		t.Logf("%s simulated: peak RSS %d, %d and %d KiB", d, a, b, c)
		return min(a, b, c)
	}
	one, thirty := least("1s"), least("30s")
	ratio := float64(thirty) / float64(one)
	t.Logf("peak RSS: 1 s %.1f MiB, 30 s %.1f MiB, ratio %.2f (budget 1.5)", float64(one)/1024, float64(thirty)/1024, ratio)
	if ratio > 1.5 {
		t.Errorf("peak RSS grows with simulated time: 1 s %d KiB, 30 s %d KiB (%.2fx, budget 1.5x)", one, thirty, ratio)
	}
}

// liveHeapPeak runs the workload for d as `schedplay run` does (collector,
// report, JSON) and returns the largest live heap seen: after a forced
// collection every simulated second, and with the report and its JSON
// held.
func liveHeapPeak(t *testing.T, d sched.Time) uint64 {
	t.Helper()
	b, err := os.ReadFile("testdata/epyc-1024.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = d
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	col := metrics.New(sim.NumCPUs())
	sim.Attach(col)
	var peak uint64
	live := func() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	for at := sched.Second; at <= d; at += sched.Second {
		sim.RunUntil(at)
		live()
	}
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	rep := col.Build(sim, sc.Name)
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	live()
	runtime.KeepAlive(js)
	runtime.KeepAlive(sim)
	return peak
}

// TestLiveHeapFlat: the live heap of the 30 s run peaks within 1.5x of
// the 1 s run's.
func TestLiveHeapFlat(t *testing.T) {
	needMemoryTest(t)
	one, thirty := liveHeapPeak(t, sched.Second), liveHeapPeak(t, 30*sched.Second)
	ratio := float64(thirty) / float64(one)
	t.Logf("peak live heap: 1 s %.2f MiB, 30 s %.2f MiB, ratio %.2f (budget 1.5)", float64(one)/(1<<20), float64(thirty)/(1<<20), ratio)
	if ratio > 1.5 {
		t.Errorf("live heap grows with simulated time: 1 s %d B, 30 s %d B (%.2fx, budget 1.5x)", one, thirty, ratio)
	}
}
