package perfetto

import (
	"io"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// recorder keeps a copy of every event.
type recorder struct{ evs []sched.Event }

func (r *recorder) Event(e *sched.Event) { r.evs = append(r.evs, *e) }

// recordRun returns the events and task info of a run.
func recordRun(t testing.TB, dur sched.Time) ([]sched.Event, *sched.Sim) {
	s := tracetest.NewRun(t, "smp-2", dur, tracetest.MixedTasks())
	var r recorder
	s.Attach(&r)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	return r.evs, s
}

// writeAll writes a whole trace of evs to io.Discard.
func writeAll(evs []sched.Event, s *sched.Sim) error {
	w := NewWriter(io.Discard, s.TaskInfo, s.NumCPUs())
	for i := range evs {
		w.Event(&evs[i])
	}
	return w.Close()
}

// TestAllocsIndependentOfLength: the writer allocates when it is made, not
// per event.
func TestAllocsIndependentOfLength(t *testing.T) {
	short, s1 := recordRun(t, 50*sched.Millisecond)
	long, s2 := recordRun(t, sched.Second)
	a := testing.AllocsPerRun(5, func() { writeAll(short, s1) })
	b := testing.AllocsPerRun(5, func() { writeAll(long, s2) })
	if a != b {
		t.Errorf("%.0f allocations for %d events, %.0f for %d", a, len(short), b, len(long))
	}
}

// BenchmarkPerfettoWriter writes a recorded run; it reports ns/event.
func BenchmarkPerfettoWriter(b *testing.B) {
	evs, s := recordRun(b, sched.Second)
	b.ReportAllocs()
	for b.Loop() {
		if err := writeAll(evs, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
