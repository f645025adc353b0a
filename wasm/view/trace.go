package view

// Imported traces: a real kernel's ftrace text (core/ftraceimport) shown
// with the same timeline and metrics views as a simulated run. A trace run
// is a Run that is never simulated: the importer's event stream comes as
// the same compact records as a simulation's (wasm/runner's ImportTrace),
// with the trace's metrics report.

import (
	"fmt"

	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

// NewTraceRun prepares the page side of an imported trace of ncpu CPUs
// lasting dur; its records, tasks and report arrive as for a simulation
// (Ingest, Finish).
func NewTraceRun(name string, ncpu int, dur sched.Time) (*Run, error) {
	if ncpu <= 0 || ncpu > protocol.MaxTraceCPUs {
		return nil, fmt.Errorf("trace with %d CPUs", ncpu)
	}
	r := &Run{TraceName: name, Timeline: NewTimeline(ncpu), ncpu: ncpu, dur: dur}
	r.Timeline.SetUtilGrid(dur, UtilBuckets)
	return r, nil
}

// IsTrace reports whether r is an imported trace rather than a simulation.
func (r *Run) IsTrace() bool { return r.TraceName != "" }
