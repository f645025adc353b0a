package runner

// Imported traces: a real kernel's ftrace text (core/ftraceimport) shown
// with the same timeline and metrics views as a simulated run. The page
// hands the worker the trace file (read there with FileReaderSync), so
// that parsing a few megabytes of text, hundreds of milliseconds in WASM,
// never blocks the page. The result crosses to the page as a simulated run
// does: a header (CPUs, span, summary), one batch of compact records with
// the task table, and the metrics report (Service.OpenTrace).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"schedplay/core/ftraceimport"
	"schedplay/core/quote"
	"schedplay/core/replay"
	"schedplay/core/sched"
	"schedplay/core/topology"
	"schedplay/wasm/codec"
	"schedplay/wasm/protocol"
	"schedplay/wasm/report"
)

// MaxTraceBytes bounds the trace files the playground opens (protocol's
// limit: the importer keeps every event in memory, and the page's
// timeline does too).
const MaxTraceBytes = protocol.MaxTraceBytes

// TraceResult is an imported trace in the form posted to the page.
type TraceResult struct {
	NumCPUs  int
	Duration int64 // ns
	Events   int64
	Summary  string
	Tasks    string // JSON []sched.TaskInfo
	Records  []byte // compact records (wasm/codec)
	Report   string // JSON schedplay.metrics/v1
	// Replay is the scenario JSON of the trace's inferred workload
	// (core/replay), on the smp-N preset of its CPU count or the smallest
	// preset with enough CPUs; "" when there is nothing to replay (the
	// summary says why).
	Replay string
	// ReplayTasks pairs the traced tasks with the replay's (JSON
	// []replay.TaskKey), for the fidelity table the page builds once the
	// replay has run.
	ReplayTasks string
}

// ImportTrace imports ftrace text named name.
func ImportTrace(name string, data []byte) (*TraceResult, error) {
	tr, err := parseTrace(data)
	if err != nil {
		return nil, err
	}
	replaySc, replayKeys, replayErr := replayScenario(tr, name) // names the traced tasks' groups as the replay's
	tasks, err := json.Marshal(tr.Tasks)
	if err != nil {
		return nil, err
	}
	rep, err := json.Marshal(tr.Metrics(name))
	if err != nil {
		return nil, err
	}
	res := &TraceResult{NumCPUs: tr.NumCPUs, Duration: int64(tr.Duration), Events: int64(tr.Stats.Events),
		Summary: TraceSummary(tr), Tasks: string(tasks), Records: TraceRecords(tr), Report: string(rep)}
	if replayErr != nil {
		res.Summary += "; no replay: " + replayErr.Error()
	} else {
		res.Replay, res.ReplayTasks = replaySc, replayKeys
	}
	return res, nil
}

// replayScenario infers the trace's workload as a scenario (the CLI's
// `schedplay replay` on its default machine) and gives each traced task
// the group its replay has, so that the A/B view of a large trace (per
// task group) pairs them. It also returns the pairing of the traced tasks
// with the replay's (JSON []replay.TaskKey).
func replayScenario(tr *ftraceimport.Trace, name string) (string, string, error) {
	topo := fmt.Sprintf("smp-%d", tr.NumCPUs)
	if _, err := topology.Preset(topo); err != nil {
		topo = replay.StandIn(tr.NumCPUs)
	}
	w, err := replay.Infer(tr, replay.Options{})
	if err != nil {
		return "", "", err
	}
	for _, t := range w.Tasks {
		tr.Tasks[t.ID].Group = t.Group
	}
	sc, err := w.Scenario(replay.ScenarioOptions{Name: "replay of " + name, Topology: topo})
	if err != nil {
		return "", "", err
	}
	if err := sc.Validate(); err != nil {
		return "", "", err
	}
	keys, err := json.Marshal(w.Keys())
	if err != nil {
		return "", "", err
	}
	return string(sc.Encode()), string(keys), nil
}

// parseTrace reads ftrace text (at most MaxTraceBytes) with the core's
// importer. Its errors name the line ("line 12: sched_switch: ...").
func parseTrace(data []byte) (*ftraceimport.Trace, error) {
	if len(data) > MaxTraceBytes {
		return nil, fmt.Errorf("the file is %d bytes; the playground opens traces up to %d MB", len(data), MaxTraceBytes>>20)
	}
	return ftraceimport.Import(bytes.NewReader(data), ftraceimport.Options{MaxBytes: MaxTraceBytes})
}

// TraceRecords encodes the part of tr's event stream the timeline draws,
// in the compact record format. A task found running when the trace starts
// (tr.Running) gets a switch-in at time 0, so its first stretch is drawn.
func TraceRecords(tr *ftraceimport.Trace) []byte {
	b := make([]byte, 0, codec.RecordSize*(len(tr.Events)+len(tr.Running)))
	for cpu, id := range tr.Running {
		if id != sched.NoTask {
			b = codec.AppendRecord(b, &sched.Event{Kind: sched.EvSwitch, CPU: sched.CPUID(cpu), Prev: sched.NoTask, Next: id})
		}
	}
	for i := range tr.Events {
		if codec.Streamed(tr.Events[i].Kind) {
			b = codec.AppendRecord(b, &tr.Events[i])
		}
	}
	return b
}

// TraceSummary describes an imported trace in one line: CPUs, span,
// events, tasks and what was skipped.
func TraceSummary(tr *ftraceimport.Trace) string {
	st := tr.Stats
	s := fmt.Sprintf("%d CPUs, %s, %d sched events, %d tasks from %d lines", tr.NumCPUs,
		report.FormatDur(int64(tr.Duration)), st.Events, len(tr.Tasks), st.Lines)
	var skipped []string
	names := make([]string, 0, len(st.Other))
	for k := range st.Other {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		skipped = append(skipped, fmt.Sprintf("%s %d", quote.Clip(k), st.Other[k]))
	}
	if st.OtherMore > 0 { // names past ftraceimport.MaxOtherNames
		skipped = append(skipped, fmt.Sprintf("and %d more lines of other events", st.OtherMore))
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
