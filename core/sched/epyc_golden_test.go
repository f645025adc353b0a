package sched

// A golden hash of the 256-CPU benchmark run (benchmark_epyc_test.go):
// every event line, every runqueue's rendering and every CPU's PELT sums
// each 100 ms, so a change to the engine's fast paths on the large machine
// (the balancer's cpumask scans, nohz idle balancing, idle states, the
// event heap) that alters any schedule or state shows here.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

func TestEpycBenchGolden(t *testing.T) {
	const want = "4e3527ceea81c02a"
	s := benchEpyc(t, "v6.18")
	eh := &eventHash{h: sha256.New()}
	s.Attach(eh)
	for at := 100 * Millisecond; at <= 400*Millisecond; at += 100 * Millisecond {
		s.RunUntil(at)
		for c := range s.NumCPUs() {
			eh.h.Write([]byte(s.DescribeRunqueue(CPUID(c))))
			q := &s.rqs[c].cfs
			fmt.Fprintf(eh.h, "cpu %d %+v %+v\n", c, q.avg, q.removed)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	for i := range s.tasks {
		fmt.Fprintf(eh.h, "task %d %+v\n", i, s.tasks[i].se.avg)
	}
	got := hex.EncodeToString(eh.h.Sum(nil))[:16]
	if eh.n < 100000 {
		t.Fatalf("only %d events: the hash would prove little", eh.n)
	}
	if got != want {
		t.Errorf("256-CPU benchmark run: hash %s over %d events, want %s", got, eh.n, want)
	}
}
