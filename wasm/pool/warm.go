package pool

// Warm-up of idle workers on the batch the user is likely to run next (the
// current scenario's thread experiment): each started, idle worker but
// slot 0's runs the batch's code once, cut short and unanswered
// (wasm/runner/warm.go), while the user reads and edits, so that its first
// job of the real batch does not pay the first compilation of the WASM
// code it runs. Slot 0 is the timeline's worker: its engine code is warm
// from the timeline run, and a warm-up there would delay the next one. A
// worker is warmed once per spec (a replacement is a new worker, warmed
// again); a worker that is warming when a job comes runs the job as soon
// as the warm-up's current run ends.

import "schedplay/wasm/protocol"

// WarmFor starts the pool's workers (Warm) and asks the idle ones beyond
// slot 0 to warm up on batch b; nothing while a batch runs.
func (p *Pool) WarmFor(b protocol.BatchSpec) {
	if p.Active() != nil {
		return
	}
	p.Warm()
	for i := 1; i < p.size; i++ {
		s := p.slots[i]
		if s.w == nil || s.busy() || (s.warmedGen == s.gen && s.warmed == b) {
			continue
		}
		if s.w.Post(protocol.Warm{BatchSpec: b}) == nil {
			s.warmed, s.warmedGen = b, s.gen
		}
	}
}
