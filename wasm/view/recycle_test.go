package view

// The worker hands each batch buffer back after copying it out
// (Recorder.Recycle): batches then alternate between two buffers, and each
// holds only its own records.

import (
	"testing"

	"schedplay/core/sched"
)

func TestRecorderRecycle(t *testing.T) {
	r := &Recorder{}
	seen := map[*byte]bool{}
	for i := range 6 {
		for k := 0; k <= i%3; k++ {
			e := sched.Event{Kind: sched.EvSwitch, CPU: 0, Time: sched.Time(100*i + k)}
			r.Event(&e)
		}
		b := r.Take()
		if len(b) != (i%3+1)*RecordSize {
			t.Fatalf("batch %d: %d bytes, want %d", i, len(b), (i%3+1)*RecordSize)
		}
		tl := NewTimeline(1)
		if err := DecodeRecords(b, 1, tl); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		if i > 0 { // the first grew from nil by appending
			seen[&b[:1][0]] = true
		}
		r.Recycle(b)
	}
	if len(seen) > 2 {
		t.Fatalf("%d buffers for 5 recycled batches, want 2", len(seen))
	}
}
