package ftrace

import (
	"bytes"
	"testing"

	"schedplay/core/sched"
)

// written runs s to its end with a Writer (and the extra sinks) attached
// and returns what the writer wrote.
func written(t *testing.T, s *sched.Sim, extra ...sched.Sink) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, s.TaskInfo, s.NumCPUs())
	s.Attach(w)
	for _, k := range extra {
		s.Attach(k)
	}
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}
