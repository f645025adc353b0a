package pool

// The best wall time a batch can take on n workers given its jobs' own
// times (the floor argument of docs/budgets.md, issue 20): no pool beats
// the longest job nor the total over n (the lower bound); with jobs that
// cannot be split, the best assignment of them to workers (exact for a
// few jobs, the longest-first rule of order.go beyond) is what a pool
// with no overhead at all and perfect knowledge of the times would take.

import (
	"cmp"
	"slices"
)

// exactJobs is the most jobs whose best assignment is searched
// exhaustively (n^exactJobs assignments at most, pruned).
const exactJobs = 16

// LowerBound is max(longest job, total/n) of job times ms.
func LowerBound(ms []float64, n int) float64 {
	n = max(1, n)
	sum, longest := 0.0, 0.0
	for _, t := range ms {
		sum += t
		longest = max(longest, t)
	}
	return max(longest, sum/float64(n))
}

// BestMakespan is the shortest wall time of jobs ms on n workers, each
// job on one worker: exact for up to exactJobs jobs, else the longest
// processing time first assignment (within 4/3 of the best).
func BestMakespan(ms []float64, n int) float64 {
	n = max(1, n)
	t := slices.Clone(ms)
	slices.SortFunc(t, func(a, b float64) int { return cmp.Compare(b, a) })
	load := make([]float64, n)
	if len(t) > exactJobs {
		for _, x := range t {
			load[slices.Index(load, slices.Min(load))] += x
		}
		return slices.Max(load)
	}
	best := LowerBound(t, n)
	bestFound := 0.0
	for _, x := range t {
		bestFound += x // one worker takes all: an upper bound
	}
	var place func(k int, cur float64)
	place = func(k int, cur float64) {
		if cur >= bestFound {
			return
		}
		if k == len(t) {
			bestFound = cur
			return
		}
		for w := range load {
			if w > 0 && load[w] == load[w-1] {
				continue // the same as the worker before: symmetric
			}
			load[w] += t[k]
			place(k+1, max(cur, load[w]))
			load[w] -= t[k]
			if bestFound <= best {
				return // the lower bound is met: nothing is shorter
			}
		}
	}
	place(0, 0)
	return bestFound
}
