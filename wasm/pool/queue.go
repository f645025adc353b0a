package pool

// The pending jobs, in the order of order.go, at a cost per job handed
// out that does not grow with the batch (a 900-job table re-sorted its
// whole queue after every result). Within one configuration every job's
// expected time is its weight times the same speed, so the configuration's
// jobs keep one order all along (the heaviest, then its earlier runs, then
// plan order): each is a list made once and consumed from its head, and
// the next job is the first by order.go's rule among the heads and the
// few jobs put back (retries and returned prefetches). The put-back jobs
// go first until the next sort, as they went at the queue's front.
//
// The order differs from a full sort only where rounding makes two
// different weights of one configuration expect the same time (the full
// sort then took the earlier run first); results are kept by index, so no
// order changes a byte of the report.

import "slices"

// queue is a batch's pending jobs.
type queue struct {
	put   []int   // put back since the last sort, first first
	front []int   // put back before, in order.go's order
	lists [][]int // per configuration (the last: jobs of their own), each consumed from heads[c]
	heads []int
	n     int
}

// newQueue queues every job of r (its ord indexed) in the order before
// any speed is measured.
func newQueue(r *Run) queue {
	n := len(r.Outline.Weights)
	ncfg := len(r.ord.ms)
	q := queue{lists: make([][]int, ncfg+1), heads: make([]int, ncfg+1), n: n}
	for i := range n {
		c := r.ord.cfg[i]
		if c < 0 {
			c = ncfg
		}
		q.lists[c] = append(q.lists[c], i)
	}
	for _, l := range q.lists {
		slices.SortStableFunc(l, r.before)
	}
	return q
}

// putFront puts job back at the head of the queue.
func (q *queue) putFront(job int) {
	q.put = slices.Insert(q.put, 0, job)
	q.n++
}

// take removes and returns the first job by order.go's rule that ok
// allows (-1: none).
func (r *Run) take(ok func(job int) bool) int {
	q := &r.queue
	for k, j := range q.put {
		if ok(j) {
			q.put = slices.Delete(q.put, k, k+1)
			q.n--
			return j
		}
	}
	best, from := -1, -1 // from: the list it heads, or -1 - its position in front
	for k, j := range q.front {
		if ok(j) {
			best, from = j, -1-k
			break
		}
	}
	for c, l := range q.lists {
		if h := q.heads[c]; h < len(l) && ok(l[h]) && (best < 0 || r.before(l[h], best) < 0) {
			best, from = l[h], c
		}
	}
	switch {
	case best < 0:
		return -1
	case from >= 0:
		q.heads[from]++
	default:
		q.front = slices.Delete(q.front, -1-from, -from)
	}
	q.n--
	return best
}

// sortFront merges the put-back jobs into the sorted front (order()).
func (r *Run) sortFront() {
	q := &r.queue
	q.front = append(q.put, q.front...)
	q.put = nil
	slices.SortStableFunc(q.front, r.before)
}

// pendingOrder is every pending job in the order they would be taken
// now (for tests; allocates).
func (r *Run) pendingOrder() []int {
	saved := r.queue
	saved.put = slices.Clone(saved.put)
	saved.front = slices.Clone(saved.front)
	saved.heads = slices.Clone(saved.heads)
	var out []int
	for r.queue.n > 0 {
		out = append(out, r.take(func(int) bool { return true }))
	}
	r.queue = saved
	return out
}
