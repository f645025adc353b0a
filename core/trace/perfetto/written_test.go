package perfetto

import (
	"bytes"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// written runs s to its end with a Writer (and the extra sinks) attached
// and returns what the writer wrote.
func written(t *testing.T, s *sched.Sim, extra ...sched.Sink) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tracetest.Write(t, s, NewWriter(&buf, s.TaskInfo, s.NumCPUs()), extra...)
	return &buf
}
