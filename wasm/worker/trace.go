package main

// Imported traces: the page hands the worker a trace file (a File, read
// here with FileReaderSync) so that parsing a few megabytes of ftrace text
// never blocks the page: core/ftraceimport takes 250-750 ms for a 3 MB
// trace in WASM (under Node; 50-85 ms native), a long task. The result crosses to the
// page as for a simulated run: a "trace" header (CPUs, span, summary), one
// "batch" of compact records with the task table, and "done" with the
// metrics report.

import (
	"encoding/json"

	"schedplay/wasm/view"
)

// TraceResult is an imported trace in the form posted to the page.
type TraceResult struct {
	NumCPUs  int
	Duration int64 // ns
	Events   int64
	Summary  string
	Tasks    string // JSON []sched.TaskInfo
	Records  []byte // view's compact records
	Report   string // JSON schedplay.metrics/v1
}

// ImportTrace imports ftrace text named name.
func ImportTrace(name string, data []byte) (*TraceResult, error) {
	tr, err := view.ImportTrace(data)
	if err != nil {
		return nil, err
	}
	tasks, err := json.Marshal(tr.Tasks)
	if err != nil {
		return nil, err
	}
	rep, err := json.Marshal(tr.Metrics(name))
	if err != nil {
		return nil, err
	}
	return &TraceResult{NumCPUs: tr.NumCPUs, Duration: int64(tr.Duration), Events: int64(tr.Stats.Events),
		Summary: view.TraceSummary(tr), Tasks: string(tasks), Records: view.TraceRecords(tr), Report: string(rep)}, nil
}
