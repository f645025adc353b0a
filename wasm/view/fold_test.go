package view

import (
	"math"
	"testing"

	"schedplay/core/sched"
)

// The utilisation folded while the run streams in equals the walk over
// every slice once the run has ended, bucket by bucket.
func TestUtilGridMatchesWalk(t *testing.T) {
	for _, preset := range []string{"demo/periodic-vs-hog", "demo/yield-pingpong"} {
		r := presetRun(t, preset, "duration=150ms")
		for !r.Advance(1 << 20) {
		}
		end := r.Duration()
		got, ok := r.Timeline.gridUtilisation(end, UtilBuckets)
		if !ok {
			t.Fatalf("%s: no folded grid after the end", preset)
		}
		want := utilisationWalk(r.Timeline, end, UtilBuckets)
		busy := 0.0
		for c := range want {
			for k := range want[c] {
				busy += want[c][k]
				if math.Abs(got[c][k]-want[c][k]) > 1e-9 {
					t.Fatalf("%s cpu %d bucket %d: folded %v, walk %v", preset, c, k, got[c][k], want[c][k])
				}
			}
		}
		if busy == 0 {
			t.Fatalf("%s: nothing ran", preset)
		}
		// A grid of another shape falls back to the walk.
		if _, ok := r.Timeline.gridUtilisation(end, 10); ok {
			t.Fatal("grid used for another bucket count")
		}
	}
}

// The histogram folded per latency equals the batch one.
func TestLatHistMatchesBatch(t *testing.T) {
	lat := []int64{0, 10, 999, 1000, 1777, 1778, 10_000, 10_001, 5_000_000, 3e12}
	var h LatHist
	for _, v := range lat {
		h.Add(v)
	}
	a, b := h.Buckets(), LatencyHistogram(lat)
	if len(a) != len(b) || h.Len() != len(lat) {
		t.Fatalf("%d vs %d buckets", len(a), len(b))
	}
	total := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("bucket %d: %+v vs %+v", i, a[i], b[i])
		}
		total += a[i].Count
	}
	if total != len(lat) {
		t.Fatalf("counted %d of %d", total, len(lat))
	}
	r := presetRun(t, "demo/periodic-vs-hog", "duration=100ms")
	for !r.Advance(1 << 20) {
	}
	if r.Timeline.Latency.Len() == 0 {
		t.Fatal("no wakeup latencies folded")
	}
	_ = sched.Second
}
