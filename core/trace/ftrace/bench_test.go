package ftrace

import (
	"io"
	"testing"

	"schedplay/core/sched"
)

// BenchmarkFtraceWriter formats a recorded run; it reports ns/event and
// must show 0 allocs/op.
func BenchmarkFtraceWriter(b *testing.B) {
	evs, s := recordRun(b, sched.Second)
	w := NewWriter(io.Discard, s.TaskInfo, s.NumCPUs())
	b.ReportAllocs()
	for b.Loop() {
		for i := range evs {
			w.Event(&evs[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
