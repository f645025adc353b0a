package view

// Busy time of a CPU over a window, read from the utilisation grid folded
// while the run streamed in (fold.go) instead of walking every slice of the
// window. The machine drawing's heat map asks for every CPU's busy share
// over the visible window after each render; on a 256-CPU run of a million
// slices the walk (Busy) was a pass over all of them on the main thread.
//
// Exact, not an estimate: the grid holds each closed slice's busy time
// split at the bucket edges, so the buckets wholly inside [t0, t1) add up
// to what the walk would find there, and only the two partial buckets at
// the window's edges are walked (binary search to the first slice, then the
// slices of one bucket). Before the run has ended (open slices are not in
// the grid yet) or without a grid, it is the walk.

import "schedplay/core/sched"

// BusyFolded is Busy(c, t0, t1), read from the folded grid where it can.
func (tl *Timeline) BusyFolded(c int, t0, t1 sched.Time) sched.Time {
	g := tl.grid
	if g == nil || !tl.Ended || t1 <= t0 || c < 0 || c >= len(g.busy) {
		return tl.Busy(c, t0, t1)
	}
	// ka: the first bucket edge at or after t0; kb: the last edge at or
	// before t1 (both within [0, n]).
	ka := g.ceilEdge(max(t0, 0))
	kb := g.floorEdge(min(t1, g.end))
	if ka >= kb {
		return tl.Busy(c, t0, t1)
	}
	busy := tl.Busy(c, t0, g.edge(ka)) + tl.Busy(c, g.edge(kb), t1)
	for _, v := range g.busy[c][ka:kb] {
		busy += v
	}
	return busy
}

// ceilEdge is the smallest k in [0, n] with edge(k) >= t (n if none).
func (g *utilGrid) ceilEdge(t sched.Time) int {
	k := int(int64(t) * int64(g.n) / int64(g.end))
	for k > 0 && g.edge(k-1) >= t {
		k--
	}
	for k < g.n && g.edge(k) < t {
		k++
	}
	return k
}

// floorEdge is the largest k in [0, n] with edge(k) <= t (0 if none).
func (g *utilGrid) floorEdge(t sched.Time) int {
	k := min(int(int64(t)*int64(g.n)/int64(g.end))+1, g.n)
	for k > 0 && g.edge(k) > t {
		k--
	}
	return k
}
