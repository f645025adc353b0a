package pool

// Warm-up of idle workers on the batch the user is likely to run next (the
// current scenario's thread experiment): each started, idle worker runs
// the batch's code once, cut short and unanswered (wasm/runner/warm.go),
// while the user reads and edits, so that its first job of the real batch
// (and the evaluation, which goes to the first idle slot) does not pay the
// first compilation of the WASM code it runs. Slot 0, the timeline's
// worker, is warmed too: a warm-up stops at the next request it sees (a
// timeline run waits for at most a slice of it). A worker is warmed once
// per spec; a replacement is a new worker, warmed again.

import "schedplay/wasm/protocol"

// WarmFor starts the pool's workers (Warm) and asks the idle ones to warm
// up on batch b; nothing while a batch runs.
func (p *Pool) WarmFor(b protocol.BatchSpec) {
	if p.Active() != nil {
		return
	}
	p.Warm()
	for i := 0; i < p.size; i++ {
		s := p.slots[i]
		if s.w == nil || s.busy() || (s.warmedGen == s.gen && s.warmed == b) {
			continue
		}
		if s.w.Post(protocol.Warm{BatchSpec: b}) == nil {
			s.warmed, s.warmedGen = b, s.gen
		}
	}
}
