package sched

// A golden hash of grouped runs: the benchmark's three-level tree on the
// 64-CPU machine (benchmark_test.go), unpinned, under EEVDF and legacy
// CFS. Every event line, every runqueue's rendering each 100 ms (weights,
// lags, vruntimes), every cfs_rq's and group entity's PELT sums and weight, the per-group cpu.stat and each
// task's h_load are hashed, so a change to the grouped fast paths that
// alters any schedule or state shows here.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"testing"
)

type eventHash struct {
	h hash.Hash
	n int
}

func (k *eventHash) Event(e *Event) {
	if e.Kind == EvSoftirq {
		return // an observation of the balance passes the other events pin
	}
	k.h.Write([]byte(e.Describe()))
	k.h.Write([]byte{'\n'})
	k.n++
}

func TestCgroupBenchTreeGolden(t *testing.T) {
	want := map[string]string{
		"v6.18": "191c191fb3a1d80b",
		"v5.8":  "f775d7de0c1d750d",
	}
	for _, k := range []string{"v6.18", "v5.8"} {
		t.Run(k, func(t *testing.T) {
			s := benchSimGroups(t, k, false, true)
			eh := &eventHash{h: sha256.New()}
			s.Attach(eh)
			for at := 100 * Millisecond; at <= Second; at += 100 * Millisecond {
				s.RunUntil(at)
				for c := range s.NumCPUs() {
					eh.h.Write([]byte(s.DescribeRunqueue(CPUID(c))))
					q := &s.rqs[c].cfs
					fmt.Fprintf(eh.h, "root %+v %+v\n", q.avg, q.removed)
				}
				for _, tg := range s.tgs[1:] {
					fmt.Fprintf(eh.h, "tg %d load_avg %d\n", tg.id, tg.loadAvg)
					for c, q := range tg.cfs {
						se := tg.se[c]
						fmt.Fprintf(eh.h, "%d %+v %+v %d %d %v %d | %+v %+v\n", c, q.avg, q.removed,
							q.tgContrib, q.tgStamp, q.propagate, q.propSum, se.se.load.weight, se.se.avg)
					}
				}
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			for g := 1; g <= s.NumCgroups(); g++ {
				fmt.Fprintf(eh.h, "cgroup %d %+v\n", g, s.CgroupStat(g))
			}
			for i := range s.tasks {
				p := s.tasks[i]
				fmt.Fprintf(eh.h, "task %d h_load %d\n", i, s.taskHLoad(p))
			}
			got := hex.EncodeToString(eh.h.Sum(nil))[:16]
			if eh.n < 10000 {
				t.Fatalf("only %d events: the hash would prove little", eh.n)
			}
			if got != want[k] {
				t.Errorf("grouped run under %s: hash %s over %d events, want %s", k, got, eh.n, want[k])
			}
		})
	}
}
