package pool

// The queue's order: the longest expected job first (the LPT rule of
// scheduling independent jobs on identical machines), so that a batch
// ends on short jobs and its workers finish close together. A job's
// expected time is its weight (simulated CPU time, the outline's) times
// the speed of its configuration: the worker time per unit of weight that
// the configuration's finished jobs took (their planning apart), the
// batch's mean speed before one of them finished, and 1 before any job
// finished (the order by weight alone). Jobs of one weight differ in
// length when their configurations do (a C-state or a patch changes how
// much a simulated second costs), which only a measurement shows.
//
// Among equal expectations a configuration's earlier runs go first (every
// configuration's first run, then every second run, ...), so that each
// configuration's speed is measured while most of its runs still wait;
// then plan order. Retried jobs go before everything. The next job is
// chosen by that rule among each configuration's next and the retried
// ones (queue.go), so the speeds a job's time teaches apply at once.
// Results are kept by job index, so the order never changes a byte of
// the report.

import "cmp"

// runOrder is what the queue's order needs of a batch: each job's
// configuration and run within it, and the speeds measured so far.
type runOrder struct {
	cfg, run []int     // per job: its configuration (-1: its own) and its run within it
	ms, w    []float64 // per configuration: worker ms and weight of its finished jobs
	allMs    float64   // over every finished job
	allW     float64
	compares int // comparisons made (a test bounds them per job)
}

// newRunOrder indexes the jobs of an outline by configuration (configs,
// one per job; nil: every job its own).
func newRunOrder(configs []int, n int) runOrder {
	o := runOrder{cfg: make([]int, n), run: make([]int, n)}
	seen := map[int]int{}
	ncfg := 0
	for i := range n {
		c := -1
		if i < len(configs) && configs[i] >= 0 {
			c = configs[i]
			ncfg = max(ncfg, c+1)
		}
		o.cfg[i], o.run[i] = c, seen[c]
		if c >= 0 {
			seen[c]++
		}
	}
	o.ms, o.w = make([]float64, ncfg), make([]float64, ncfg)
	return o
}

// measured accounts job i (of weight w) as having taken ms of worker time.
func (o *runOrder) measured(i int, w, ms float64) {
	if ms <= 0 || w <= 0 {
		return // nothing learnt (a worker that does not time its jobs)
	}
	if c := o.cfg[i]; c >= 0 {
		o.ms[c] += ms
		o.w[c] += w
	}
	o.allMs += ms
	o.allW += w
}

// expected is job i's expected worker time (of weight w), in the units
// of the speed known so far.
func (o *runOrder) expected(i int, w float64) float64 {
	if c := o.cfg[i]; c >= 0 && o.w[c] > 0 {
		return w * o.ms[c] / o.w[c]
	}
	if o.allW > 0 {
		return w * o.allMs / o.allW
	}
	return w
}

// order re-sorts r's jobs put back at the front; the rest need no sort
// (queue.go).
func (r *Run) order() { r.sortFront() }

// before is the queue's order: retries first, then the longest expected,
// then the earlier runs of their configurations, then plan order.
func (r *Run) before(a, b int) int {
	ord, wt := &r.ord, r.Outline.Weights
	ord.compares++
	if c := cmp.Compare(r.tries[b], r.tries[a]); c != 0 {
		return c
	}
	if c := cmp.Compare(ord.expected(b, wt[b]), ord.expected(a, wt[a])); c != 0 {
		return c
	}
	if c := cmp.Compare(ord.run[a], ord.run[b]); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}
