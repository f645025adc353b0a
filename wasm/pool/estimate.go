package pool

// Time left and the estimate before a batch starts. Speed is in ms of
// one worker's wall time per unit of job weight (simulated CPU time: the
// outline's weights). Before a batch, it comes from the single timeline
// run already made (pessimistic: that run also streamed its timeline) or,
// better, from the last batch's measured speed; once the pool's workers
// have worked measureMs between them, their own speed replaces it, so the
// estimate converges from the first runs' real speed. Dividing by the
// workers that still have work accounts for the pool's size.

import "schedplay/wasm/outline"

// measureMs is the worker time after which the measured speed is used.
const measureMs = 1000

// Estimate is the wall time (ms) of a batch outlined by o on size
// workers at msPerW (0 when no speed is known: no estimate).
func Estimate(o outline.Outline, size int, msPerW float64) float64 {
	if msPerW <= 0 || len(o.Weights) == 0 {
		return 0
	}
	return o.Total() * msPerW / float64(max(1, min(size, len(o.Weights))))
}

// work is the weight done and the worker time spent on it so far.
func (p *Pool) work() (w, ms float64) {
	r := p.run
	now := p.cfg.Now()
	w, ms = r.doneW, r.workMs
	for _, s := range p.slots {
		if s.job >= 0 {
			w += r.Outline.Weights[s.job] * s.frac
			ms += now - s.began
		}
	}
	return w, ms
}

// Speed is the measured speed of the batch in progress (ms per weight on
// one worker), 0 before measureMs of work.
func (p *Pool) Speed() float64 {
	if p.run == nil {
		return 0
	}
	w, ms := p.work()
	if ms < measureMs || w <= 0 {
		return 0
	}
	return ms / w
}

// LastSpeed is the measured speed of the last batch that finished (ms
// per weight on one worker; 0 before one did).
func (p *Pool) LastSpeed() float64 { return p.last }

// Left is the estimated wall time (ms) left of the batch in progress at
// the measured speed, or at prior (ms per weight) before it is measured;
// ok is false when neither is known.
func (p *Pool) Left(prior float64) (ms float64, ok bool) {
	r := p.run
	if r == nil {
		return 0, false
	}
	speed := p.Speed()
	if speed == 0 {
		speed = prior
	}
	if speed <= 0 {
		return 0, false
	}
	w, _ := p.work()
	left := r.queue.n
	for _, s := range p.slots {
		if s.job >= 0 {
			left++
		}
		if s.next >= 0 {
			left++
		}
	}
	return max(0, r.total-w) * speed / float64(max(1, min(p.size, left))), true
}
