package view

// Incremental folds: the figures the results panel shows (the wakeup
// latency histogram and the per-CPU utilisation over time) are accumulated
// while the event stream is folded into the timeline, one O(1) update per
// closed slice or latency, instead of a pass over a million slices when the
// run ends: that pass, in the final page render on the main thread, is a
// long task (docs/playground-perf.md), so the end of a run only reads
// these small arrays.
//
// The batch functions of stats.go (LatencyHistogram, Utilisation) remain,
// and the tests check that both paths agree.

import (
	"math"
	"sort"

	"schedplay/core/sched"
)

const latPerDecade = 4 // histogram buckets per decade of latency

// latEdges[k-1] is the lower edge of bucket k >= 1 (bucket 0 holds
// everything below 1 us); 1 us .. ~1000 s covers any simulated latency and
// larger ones go in the last bucket.
var latEdges = func() []int64 {
	e := make([]int64, 0, 12*latPerDecade+1)
	for k := 1; k <= 12*latPerDecade+1; k++ {
		e = append(e, latEdge(k))
	}
	return e
}()

func latEdge(k int) int64 {
	return int64(math.Round(1000 * math.Pow(10, float64(k-1)/latPerDecade)))
}

// LatHist counts latencies per log bucket as they arrive.
type LatHist struct {
	counts [12*latPerDecade + 2]int
	n      int
}

// Add counts one latency (ns).
func (h *LatHist) Add(v int64) {
	k := sort.Search(len(latEdges), func(i int) bool { return latEdges[i] > v }) // latEdges[k-1] <= v < latEdges[k]
	h.counts[k]++
	h.n++
}

// Len is the number of latencies counted.
func (h *LatHist) Len() int { return h.n }

// Buckets returns the non-empty range of buckets with their CDF.
func (h *LatHist) Buckets() []Bucket {
	if h.n == 0 {
		return nil
	}
	lo, hi := -1, 0
	for k, c := range h.counts {
		if c > 0 {
			if lo < 0 {
				lo = k
			}
			hi = k
		}
	}
	var out []Bucket
	cum := 0
	for k := lo; k <= hi; k++ {
		b := Bucket{Lo: 0, Hi: latEdge(k + 1), Count: h.counts[k]}
		if k > 0 {
			b.Lo = latEdge(k)
		}
		cum += b.Count
		b.CDF = float64(cum) / float64(h.n)
		out = append(out, b)
	}
	return out
}

// utilGrid is the busy time of each CPU per time bucket of [0, end),
// accumulated as slices close.
type utilGrid struct {
	end  sched.Time
	n    int
	busy [][]sched.Time // [cpu][bucket]
}

// SetUtilGrid makes the timeline accumulate per-CPU busy time in n equal
// buckets of [0, end) as slices close (call it before the first event).
// It also sizes the raster's level-of-detail index (lod.go) for [0, end).
func (tl *Timeline) SetUtilGrid(end sched.Time, n int) {
	if end <= 0 || n <= 0 {
		tl.grid = nil
		return
	}
	tl.lod = newLOD(end, len(tl.Lanes))
	g := &utilGrid{end: end, n: n, busy: make([][]sched.Time, len(tl.Lanes))}
	for c := range g.busy {
		g.busy[c] = make([]sched.Time, n)
	}
	tl.grid = g
}

func (g *utilGrid) edge(k int) sched.Time { return sched.Time(int64(g.end) * int64(k) / int64(g.n)) }

// add spreads the busy stretch [a, b) of cpu over its buckets.
func (g *utilGrid) add(cpu int, a, b sched.Time) {
	b = min(b, g.end)
	if a >= b || a < 0 {
		return
	}
	k := int(int64(a) * int64(g.n) / int64(g.end))
	for a < b && k < g.n {
		hi := min(b, g.edge(k+1))
		g.busy[cpu][k] += hi - a
		a = hi
		k++
	}
}

// UtilFolded reports whether Utilisation(tl, end, n) reads the grid
// folded during the run (no walk over the slices).
func (tl *Timeline) UtilFolded(end sched.Time, n int) bool {
	g := tl.grid
	return g != nil && tl.Ended && g.end == end && g.n == n
}

// utilisation returns the busy share per bucket if the grid covers
// [0, end) in n buckets and every slice has closed (the run ended).
func (tl *Timeline) gridUtilisation(end sched.Time, n int) ([][]float64, bool) {
	g := tl.grid
	if g == nil || !tl.Ended || g.end != end || g.n != n {
		return nil, false
	}
	out := make([][]float64, len(g.busy))
	for c, row := range g.busy {
		u := make([]float64, n)
		for k, v := range row {
			u[k] = float64(v) / float64(g.edge(k+1)-g.edge(k))
		}
		out[c] = u
	}
	return out, true
}
