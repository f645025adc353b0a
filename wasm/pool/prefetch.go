package pool

// Prefetch: a worker holds its next job before it finishes the current
// one, so that it starts it at once instead of waiting for its result to
// reach the page and the next request to come back (a round trip through
// both event loops, tens of ms on a loaded machine, paid per job: a
// noticeable share of a batch of short jobs). The worker runs the jobs it
// is posted one after the other (wasm/runner/pool.go), so at most one
// simulation per worker is in memory.
//
// Never to a worker whose heap grew over the limit (it is replaced when
// it goes idle). Only while more jobs are pending than there are workers: the last ones
// are handed to whichever worker is free, so that a job never waits
// behind another on one worker while a second worker idles at the end of
// the batch.

import "schedplay/wasm/protocol"

// prefetch posts a next job to each busy slot that has none, while the
// queue holds more jobs than the pool has workers; false if a post
// failed (the slot was taken for failed, which re-dispatched).
func (p *Pool) prefetch(r *Run) bool {
	for i := 0; i < p.size && r.queue.n > p.size; i++ {
		s := p.slots[i]
		if s.job < 0 || s.next >= 0 || s.eval || s.w == nil || s.recyle {
			continue // a worker whose heap grew goes idle after its job, to be replaced
		}
		job := p.pick(r, i)
		if job < 0 {
			continue
		}
		s.next = job
		if err := s.w.Post(protocol.Job{ID: r.ID, BatchSpec: r.Spec, Index: job}); err != nil {
			p.Failed(i, s.gen, err.Error())
			return false
		}
	}
	return true
}

// promote makes slot s's prefetched job its current one at now (its
// worker starts it as it posts the previous one's result). The worker
// has just answered and has the batch planned, so the watchdog's short
// limit applies to it at once.
func (s *slot) promote(now float64) {
	s.job, s.next = s.next, -1
	if s.job >= 0 {
		s.frac, s.began, s.heard, s.spoke = 0, now, now, true
	}
}
