package view

// Imported traces: a real kernel's ftrace text (core/ftraceimport) shown
// with the same timeline and metrics views as a simulated run. A trace run
// is a remote Run (no engine here) that is never simulated: the importer's
// event stream goes through the same compact records as a worker run
// (TraceRecords), and its metrics report comes from Trace.Metrics.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// MaxTraceBytes bounds the trace files the playground opens (the importer
// keeps every event in memory, and the page's timeline does too).
const MaxTraceBytes = 32 << 20

// NewTraceRun prepares the page side of an imported trace of ncpu CPUs
// lasting dur; its records, tasks and report arrive as for a worker run
// (Ingest, Finish).
func NewTraceRun(name string, ncpu int, dur sched.Time) (*Run, error) {
	if ncpu <= 0 || ncpu > ftraceimport.MaxCPUs {
		return nil, fmt.Errorf("trace with %d CPUs", ncpu)
	}
	r := &Run{TraceName: name, Timeline: NewTimeline(ncpu), ncpu: ncpu, dur: dur}
	r.Timeline.SetUtilGrid(dur, UtilBuckets)
	return r, nil
}

// IsTrace reports whether r is an imported trace rather than a simulation.
func (r *Run) IsTrace() bool { return r.TraceName != "" }

// TraceRecords encodes the part of tr's event stream the timeline draws,
// in the compact record format. A task found running when the trace starts
// (tr.Running) gets a switch-in at time 0, so its first stretch is drawn.
func TraceRecords(tr *ftraceimport.Trace) []byte {
	b := make([]byte, 0, RecordSize*(len(tr.Events)+len(tr.Running)))
	for cpu, id := range tr.Running {
		if id != sched.NoTask {
			b = AppendRecord(b, &sched.Event{Kind: sched.EvSwitch, CPU: sched.CPUID(cpu), Prev: sched.NoTask, Next: id})
		}
	}
	for i := range tr.Events {
		if Streamed(tr.Events[i].Kind) {
			b = AppendRecord(b, &tr.Events[i])
		}
	}
	return b
}

// TraceSummary describes an imported trace in one line: CPUs, span,
// events, tasks and what was skipped.
func TraceSummary(tr *ftraceimport.Trace) string {
	st := tr.Stats
	s := fmt.Sprintf("%d CPUs, %s, %d sched events, %d tasks from %d lines", tr.NumCPUs,
		FormatDur(int64(tr.Duration)), st.Events, len(tr.Tasks), st.Lines)
	var skipped []string
	names := make([]string, 0, len(st.Other))
	for k := range st.Other {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		skipped = append(skipped, fmt.Sprintf("%s %d", k, st.Other[k]))
	}
	if st.Unrecognized > 0 {
		skipped = append(skipped, fmt.Sprintf("unrecognized lines %d", st.Unrecognized))
	}
	if st.RedundantWakeups > 0 {
		skipped = append(skipped, fmt.Sprintf("redundant wakeups %d", st.RedundantWakeups))
	}
	if len(skipped) > 0 {
		s += "; skipped: " + strings.Join(skipped, ", ")
	}
	return s
}

// ImportTrace reads ftrace text (at most MaxTraceBytes) with the core's
// importer. Its errors name the line ("line 12: sched_switch: ...").
func ImportTrace(data []byte) (*ftraceimport.Trace, error) {
	if len(data) > MaxTraceBytes {
		return nil, fmt.Errorf("the file is %d bytes; the playground opens traces up to %d MB", len(data), MaxTraceBytes>>20)
	}
	return ftraceimport.Import(bytes.NewReader(data), ftraceimport.Options{MaxBytes: MaxTraceBytes})
}

// LoadTrace imports data into a finished trace run on the calling
// goroutine (the page's fallback when there is no worker; the worker posts
// the same pieces instead).
func LoadTrace(name string, data []byte) (*Run, string, error) {
	tr, err := ImportTrace(data)
	if err != nil {
		return nil, "", err
	}
	r, err := NewTraceRun(name, tr.NumCPUs, tr.Duration)
	if err != nil {
		return nil, "", err
	}
	if err := r.Ingest(TraceRecords(tr), tr.Duration, int64(tr.Stats.Events), tr.Tasks); err != nil {
		return nil, "", err
	}
	rep := tr.Metrics(name)
	r.Finish(&rep, nil)
	return r, TraceSummary(tr), nil
}
