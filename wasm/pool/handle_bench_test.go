package pool

// The page's per-result work (Handle of a JobDone, then the progress line's
// Progress and Left), per job, over a whole batch of n synthetic jobs in
// 30 configurations: it should not grow with n.

import (
	"fmt"
	"slices"
	"testing"

	"schedplay/wasm/outline"
	"schedplay/wasm/protocol"
)

// runBatch starts a batch of n jobs on 2 fake workers and answers every job
// as the page would see it; it returns the pool.
func runBatch(tb testing.TB, n int) *Pool { return runBatchCheck(tb, n, nil) }

// runBatchCheck is runBatch calling check after every result.
func runBatchCheck(tb testing.TB, n int, check func(*Pool)) *Pool {
	clock := 0.0
	p := New(Config{Now: func() float64 { return clock }, Spawn: func(i int) (Worker, error) {
		return &fakeWorker{slot: i}, nil
	}}, 2)
	var o outline.Outline
	for i := range n {
		o.Weights = append(o.Weights, float64(1+i%7))
		o.Labels = append(o.Labels, fmt.Sprintf("cfg %d, seed %d", i%30, i/30))
		o.Configs = append(o.Configs, i%30)
	}
	if err := p.Start(7, protocol.BatchSpec{Kind: protocol.KindThread, Scenario: "{}"}, o); err != nil {
		tb.Fatal(err)
	}
	p.run.ord.compares = 0 // the per-result work only (Start sorts each configuration's jobs once)
	for p.Active() != nil && p.run.ndone < n {
		for i := range 2 {
			s := p.slots[i]
			if s.job < 0 {
				continue
			}
			clock += 10
			job := s.job
			p.Handle(i, s.gen, protocol.JobDone{ID: 7, Index: job, Result: "r", WorkMs: float64(1 + job%5)})
			p.Progress()
			p.Left(1)
			if check != nil && p.Active() != nil {
				check(p)
			}
		}
	}
	return p
}

func BenchmarkJobDone(b *testing.B) {
	for _, n := range []int{90, 900, 9000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				runBatch(b, n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/job")
		})
	}
}

// TestQueueWorkPerJobIsFlat: the queue's comparisons per result (its job
// handed out, the next prefetched) do not grow with the batch (a full re-sort after every result made
// them grow as n log n).
func TestQueueWorkPerJobIsFlat(t *testing.T) {
	per := map[int]float64{}
	for _, n := range []int{300, 3000} {
		p := runBatch(t, n)
		if p.run.ndone != n {
			t.Fatalf("%d jobs: %d done", n, p.run.ndone)
		}
		per[n] = float64(p.run.ord.compares) / float64(n)
	}
	t.Logf("comparisons per result: %.1f at 300 jobs, %.1f at 3000", per[300], per[3000])
	// 30 configurations: each job taken compares the heads of the 31 lists.
	if per[3000] > 1.1*per[300] || per[3000] > 2*31 {
		t.Fatalf("comparisons per job: %.1f at 300 jobs, %.1f at 3000; want them flat and at most 62 (two per configuration)", per[300], per[3000])
	}
}

// TestQueueIsTheFullSort: after every result the queue hands its jobs out
// in the order a full sort of them by order.go's rule gives.
func TestQueueIsTheFullSort(t *testing.T) {
	runBatchCheck(t, 600, func(p *Pool) {
		got := p.run.pendingOrder()
		want := slices.Clone(got)
		slices.SortStableFunc(want, p.run.before)
		if !slices.Equal(got, want) {
			t.Fatalf("after %d results the queue is %v, a full sort %v", p.run.ndone, got, want)
		}
	})
}
