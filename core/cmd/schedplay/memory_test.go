//go:build linux

package main

// Memory that does not grow with simulated time (docs/engine.md,
// "Memory"): the peak RSS of `schedplay run` on the 256-CPU, 1024-task
// workload of core/sched's BenchmarkSimEpyc256CPU1024Tasks
// (testdata/epyc-1024.json), metrics only, for 1 and 30 simulated seconds,
// must stay within 1.5x. It takes about 10 s of CPU per 30 s run, so it
// runs in `make bench-memory` (SCHEDPLAY_MEMORY_TEST=1), not `make test`.

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
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

// TestPeakRSSFlat: the peak RSS of the 30 s run is within 1.5x of the
// 1 s run's. Each is the least of two runs: the peak varies by a few MB
// with where the garbage collector's cycles fall.
func TestPeakRSSFlat(t *testing.T) {
	if os.Getenv(memoryTestVar) != "1" {
		t.Skipf("the peak-RSS test runs 60 simulated seconds of a 256-CPU machine: make bench-memory (%s=1)", memoryTestVar)
	}
	least := func(d string) int64 {
		a, b := peakRSSKB(t, d), peakRSSKB(t, d)
		t.Logf("%s simulated: peak RSS %d and %d KiB", d, a, b)
		return min(a, b)
	}
	one, thirty := least("1s"), least("30s")
	ratio := float64(thirty) / float64(one)
	t.Logf("peak RSS: 1 s %.1f MiB, 30 s %.1f MiB, ratio %.2f (budget 1.5)", float64(one)/1024, float64(thirty)/1024, ratio)
	if ratio > 1.5 {
		t.Errorf("peak RSS grows with simulated time: 1 s %d KiB, 30 s %d KiB (%.2fx, budget 1.5x)", one, thirty, ratio)
	}
}
