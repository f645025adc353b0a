package pool

import (
	"testing"

	"schedplay/wasm/protocol"
)

func warms(w *fakeWorker) int {
	n := 0
	for _, m := range w.got {
		if _, ok := m.(protocol.Warm); ok {
			n++
		}
	}
	return n
}

// TestWarmFor: the idle workers are warmed once per batch spec, again for
// another spec or a replacement worker, never while a batch runs.
func TestWarmFor(t *testing.T) {
	h := newHarness(3, 3)
	a := protocol.BatchSpec{Kind: protocol.KindThread, Scenario: `{"a":1}`}
	h.p.WarmFor(a)
	for i := range 3 {
		if n := warms(h.live(i)); n != 0 {
			t.Fatalf("slot %d warmed %d times while a batch runs", i, n)
		}
	}
	for i := range 3 {
		h.finish(i, lastJob(h.live(i)))
	}
	h.p.Cancel() // the evaluation is not the point here
	h.p.WarmFor(a)
	h.p.WarmFor(a)
	for i := range 3 {
		if n := warms(h.live(i)); n != 1 {
			t.Errorf("slot %d warmed %d times for one spec, want 1", i, n)
		}
	}
	b := a
	b.Runs = 2
	h.p.WarmFor(b)
	if n := warms(h.live(1)); n != 2 {
		t.Errorf("slot 1 warmed %d times for two specs, want 2", n)
	}
	old := h.live(2)
	h.p.Failed(2, h.p.Gen(2), "crashed")
	h.p.WarmFor(b)
	if h.live(2) == old || warms(h.live(2)) != 1 {
		t.Errorf("slot 2's replacement was not warmed (%d warm-ups)", warms(h.live(2)))
	}
	if got := h.live(1).got[len(h.live(1).got)-1].(protocol.Warm); got.BatchSpec != b {
		t.Errorf("slot 1 warmed on %+v, want %+v", got.BatchSpec, b)
	}
}
