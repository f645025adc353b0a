package codec

// The compact event stream between the simulation worker and the page.
//
// The worker runs the engine; the page only draws. What crosses the thread
// boundary is the part of the event stream the timeline model consumes
// (switches, wakeups, migrations, cgroup throttling, the end), packed into fixed 24-byte
// little-endian records in one byte slice per batch, so a batch is a single
// transferable ArrayBuffer rather than one JS object (or JSON line) per
// event. Ticks, reschedule requests, idle and fork/exit events stay in the
// worker: the metrics collector there consumes them, and its report is sent
// once, at the end.
//
// Record layout (offsets in bytes):
//
//	0  Time      int64
//	8  Prev      int32 (TaskID, -1 idle)
//	12 Next      int32 (TaskID, -1 idle)
//	16 CPU       int32
//	20 Kind      uint8
//	21 Reason    uint8
//	22 Pick      uint8
//	23 PrevState uint8
//
// Event.Arg is not carried, but for the cgroup events (EvCgroupThrottle,
// EvCgroupUnthrottle), whose Next is always NoTask: their Next field holds
// Arg, the cgroup number (from 1), which the timeline shades by.
//
// [Version] numbers the format: a page and a worker of different versions
// (a stale cache) fail the batch's check instead of misreading it.

import (
	"encoding/binary"
	"fmt"

	"schedplay/core/sched"
)

// RecordSize is the size of one encoded event.
const RecordSize = 24

// Version is the record format's version: 1 had no cgroup events; 2 adds
// EvCgroupThrottle and EvCgroupUnthrottle with the cgroup in Next.
const Version = 2

// Recorder is a sched.Sink that appends the timeline's events to a byte
// buffer in the compact format.
type Recorder struct {
	Buf   []byte
	spare []byte // a taken buffer handed back (Recycle)
}

// Streamed reports whether events of kind k cross to the page.
func Streamed(k sched.EventKind) bool {
	switch k {
	case sched.EvSwitch, sched.EvWakeup, sched.EvWakeupNew, sched.EvMigrate, sched.EvEnd,
		sched.EvCgroupThrottle, sched.EvCgroupUnthrottle:
		return true
	}
	return false
}

// Event implements sched.Sink.
func (r *Recorder) Event(e *sched.Event) {
	if !Streamed(e.Kind) {
		return
	}
	r.Buf = AppendRecord(r.Buf, e)
}

// Take returns the buffered records and starts a new buffer.
func (r *Recorder) Take() []byte {
	b := r.Buf
	if r.spare != nil {
		r.Buf, r.spare = r.spare[:0], nil
	} else {
		r.Buf = make([]byte, 0, max(4096, cap(b)))
	}
	return b
}

// Recycle hands back a buffer Take returned, once its records are copied
// out (the worker copies each batch into a transferred ArrayBuffer): the
// next Take reuses it instead of allocating a batch-sized buffer per chunk.
func (r *Recorder) Recycle(b []byte) { r.spare = b }

// AppendRecord appends e in the compact format. It writes in place (no
// record-sized temporary copied in by append: a runtime memmove per event
// under WASM).
func AppendRecord(b []byte, e *sched.Event) []byte {
	n := len(b)
	if cap(b)-n < RecordSize {
		b = append(b, make([]byte, RecordSize)...)[:n]
	}
	b = b[:n+RecordSize]
	rec := b[n : n+RecordSize : n+RecordSize]
	le := binary.LittleEndian
	le.PutUint64(rec[0:], uint64(e.Time))
	le.PutUint32(rec[8:], uint32(e.Prev))
	next := e.Next
	if cgroupKind(e.Kind) {
		next = sched.TaskID(e.Arg)
	}
	le.PutUint32(rec[12:], uint32(next))
	le.PutUint32(rec[16:], uint32(e.CPU))
	rec[20], rec[21], rec[22], rec[23] = byte(e.Kind), byte(e.Reason), byte(e.Pick), e.PrevState
	return b
}

// DecodeRecords feeds the records of b to sink in order. A batch that is
// not a whole number of records, or names a CPU outside [0, ncpu) (EvEnd has CPU -1), is an
// error (a worker/page version mismatch), not a panic.
func DecodeRecords(b []byte, ncpu int, sink sched.Sink) error {
	if len(b)%RecordSize != 0 {
		return fmt.Errorf("event batch of %d bytes: not a multiple of %d", len(b), RecordSize)
	}
	le := binary.LittleEndian
	var e sched.Event
	for ; len(b) >= RecordSize; b = b[RecordSize:] {
		e = sched.Event{
			Time: sched.Time(le.Uint64(b[0:])),
			Prev: sched.TaskID(int32(le.Uint32(b[8:]))), Next: sched.TaskID(int32(le.Uint32(b[12:]))),
			CPU:  sched.CPUID(int32(le.Uint32(b[16:]))),
			Kind: sched.EventKind(b[20]), Reason: sched.Reason(b[21]), Pick: sched.PickRule(b[22]), PrevState: b[23],
		}
		if (e.Kind != sched.EvEnd && (e.CPU < 0 || int(e.CPU) >= ncpu)) || !Streamed(e.Kind) {
			return fmt.Errorf("event batch: bad record (kind %d, cpu %d)", e.Kind, e.CPU)
		}
		if cgroupKind(e.Kind) {
			if e.Next < 1 {
				return fmt.Errorf("event batch: cgroup record with cgroup %d, want 1 or more", e.Next)
			}
			e.Arg, e.Next = int64(e.Next), sched.NoTask
		}
		sink.Event(&e)
	}
	return nil
}

// cgroupKind reports whether k is a cgroup event (Arg carried in Next).
func cgroupKind(k sched.EventKind) bool {
	return k == sched.EvCgroupThrottle || k == sched.EvCgroupUnthrottle
}
