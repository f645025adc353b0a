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

// foldBenchTimeline is a run's worth of slices and latencies streamed
// into a timeline: 8 CPUs, about a million slices.
func foldBenchTimeline(b *testing.B) (*Timeline, []int64) {
	b.Helper()
	const ncpu, per = 8, 140_000
	tl := NewTimeline(ncpu)
	end := sched.Time(per * 8000)
	tl.SetUtilGrid(end, UtilBuckets)
	var lat []int64
	for i := 0; i < per; i++ {
		for c := 0; c < ncpu; c++ {
			t := sched.Time(i) * 8000
			task := sched.TaskID(2*c + i%2)
			tl.Event(&sched.Event{Kind: sched.EvWakeup, Time: t, CPU: sched.CPUID(c), Next: task})
			tl.Event(&sched.Event{Kind: sched.EvSwitch, Time: t + 1500, CPU: sched.CPUID(c), Prev: sched.NoTask, Next: task, PrevState: 'S'})
			tl.Event(&sched.Event{Kind: sched.EvSwitch, Time: t + 7000, CPU: sched.CPUID(c), Prev: task, Next: sched.NoTask, PrevState: 'S'})
			lat = append(lat, 1500)
		}
	}
	tl.Event(&sched.Event{Kind: sched.EvEnd, Time: end, CPU: -1})
	return tl, lat
}

// BenchmarkEndOfRunFigures compares what the end of a million-slice run
// costs on the page: the batch path (a pass over every latency and slice,
// as the final render did) against reading the figures folded while
// streaming.
func BenchmarkEndOfRunFigures(b *testing.B) {
	tl, lat := foldBenchTimeline(b)
	b.Run("walk", func(b *testing.B) {
		for range b.N {
			LatencyHistogram(lat)
			utilisationWalk(tl, tl.grid.end, UtilBuckets)
		}
	})
	b.Run("folded", func(b *testing.B) {
		for range b.N {
			tl.Latency.Buckets()
			Utilisation(tl, tl.grid.end, UtilBuckets)
		}
	})
}

// BenchmarkFoldMillionSlices is the page's folding work for a
// million-slice run (3.4M streamed events: wakeups and switches).
func BenchmarkFoldMillionSlices(b *testing.B) {
	for range b.N {
		foldBenchTimeline(b)
	}
}
