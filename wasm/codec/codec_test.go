package codec

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
		var got []sched.Time
		if err := DecodeRecords(b, 1, sinkFunc(func(e *sched.Event) { got = append(got, e.Time) })); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		if len(got) != i%3+1 || got[0] != sched.Time(100*i) {
			t.Fatalf("batch %d decoded %v", i, got)
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

func TestBadBatchIsAnError(t *testing.T) {
	sink := sinkFunc(func(*sched.Event) {})
	if err := DecodeRecords(make([]byte, 10), 2, sink); err == nil {
		t.Fatal("a short batch decoded")
	}
	e := sched.Event{Kind: sched.EvSwitch, CPU: 5}
	if err := DecodeRecords(AppendRecord(nil, &e), 2, sink); err == nil {
		t.Fatal("a record for CPU 5 of 2 decoded")
	}
	e = sched.Event{Kind: sched.EvTick, CPU: 0}
	if err := DecodeRecords(AppendRecord(nil, &e), 2, sink); err == nil {
		t.Fatal("a record of a kind that is not streamed decoded")
	}
}

// A record decodes to the event it encodes, but for Arg (not carried).
func TestRecordRoundTrip(t *testing.T) {
	in := sched.Event{Time: 123456789, Kind: sched.EvSwitch, CPU: 3, Prev: 7, Next: sched.NoTask,
		Reason: 2, Pick: 1, PrevState: 4, Arg: 99}
	var out sched.Event
	if err := DecodeRecords(AppendRecord(nil, &in), 4, sinkFunc(func(e *sched.Event) { out = *e })); err != nil {
		t.Fatal(err)
	}
	in.Arg = 0
	if out != in {
		t.Fatalf("decoded %+v, want %+v", out, in)
	}
}

type sinkFunc func(*sched.Event)

func (f sinkFunc) Event(e *sched.Event) { f(e) }

// A cgroup record carries its cgroup number (Arg) in place of Next, which
// such events never use; a record naming no cgroup is an error.
func TestCgroupRecordRoundTrip(t *testing.T) {
	for _, k := range []sched.EventKind{sched.EvCgroupThrottle, sched.EvCgroupUnthrottle} {
		in := sched.Event{Time: 42, Kind: k, CPU: 1, Prev: 3, Next: sched.NoTask, Reason: sched.ReasonCgroupThrottled, Arg: 7}
		var out sched.Event
		if err := DecodeRecords(AppendRecord(nil, &in), 2, sinkFunc(func(e *sched.Event) { out = *e })); err != nil {
			t.Fatal(err)
		}
		if out != in {
			t.Fatalf("decoded %+v, want %+v", out, in)
		}
		in.Arg = 0
		if err := DecodeRecords(AppendRecord(nil, &in), 2, sinkFunc(func(*sched.Event) {})); err == nil {
			t.Fatalf("%s record with cgroup 0 decoded", k)
		}
	}
}
