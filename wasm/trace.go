package main

// Trace mode: a real kernel's ftrace text (the kernel's trace file or
// trace-cmd report), opened from disk and shown read-only in the timeline
// and metrics views. The simulator does not run: the kernel panels are
// hidden, Run/Cancel are replaced by "Back to simulation", and the worker
// only imports (wasm/worker/trace.go: parsing a few MB of text takes
// hundreds of milliseconds in WASM, too long for the page's thread). The
// result arrives as a run does (records, tasks, report) and is drawn by the
// same code; tasks are coloured by name.

import (
	"errors"
	"fmt"

	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

const traceInput = "trace-file"

// TraceState is the open trace (App.Trace; nil in simulation mode).
type TraceState struct {
	Name    string
	Size    float64 // bytes
	Summary string  // view.TraceSummary, once imported
	Loading bool
}

// OpenTrace imports the file chosen in the "Open trace…" input (called
// with the lock held, from its change event).
func (a *App) OpenTrace() {
	defer a.publishUnfinished()
	if a.Running {
		a.CancelRun()
	}
	a.gen++
	a.TraceErr = ""
	if a.link == nil {
		a.openTraceLocal(a.gen)
		return
	}
	a.link.start = bridge.Now()
	name, size, err := a.link.w.PostFile(map[string]any{"type": "trace", "id": a.gen}, traceInput)
	if err != nil {
		a.TraceErr = "Open trace: " + err.Error()
		return
	}
	a.prevTrace = a.Trace // shown again if this one fails
	a.Trace = &TraceState{Name: name, Size: size, Loading: true}
	a.Notice = ""
}

// openTraceLocal is the fallback without a worker: read and import on the
// page (a long task for a large file).
func (a *App) openTraceLocal(gen int) {
	bridge.ReadFile(traceInput, view.MaxTraceBytes, func(name string, data []byte, err error) {
		a.env.Lock()
		defer a.env.UnlockRender()
		if gen != a.gen {
			return
		}
		t0 := bridge.Now()
		var r *view.Run
		var summary string
		if err == nil {
			r, summary, err = view.LoadTrace(name, data)
		}
		if err != nil {
			a.TraceErr = traceError(name, err)
			return
		}
		a.Trace = &TraceState{Name: name, Size: float64(len(data)), Summary: summary}
		a.showTrace(r)
		a.RunMs = bridge.Now() - t0
	})
}

func traceError(name string, err error) string {
	if name == "" {
		return "Open trace: " + err.Error()
	}
	return "Open trace: " + name + ": " + err.Error()
}

// showTrace puts a trace run on screen.
func (a *App) showTrace(r *view.Run) {
	a.Run, a.Running, a.Progress, a.RunErr = r, false, 1, ""
	a.maxChunkMs, a.maxRenderMs, a.maxIngestMs = 0, 0, 0
	a.resetRows()
	a.TL.Reset(r.Duration())
}

// LeaveTrace returns to the simulation and reruns the scenario.
func (a *App) LeaveTrace() {
	a.Trace, a.TraceErr = nil, ""
	a.StartRun()
}

// handleTrace applies the worker's "trace" and "traceerror" messages.
func (a *App) handleTrace(m bridge.WorkerMsg) bool {
	if m.ID != a.gen || a.Trace == nil || !a.Trace.Loading {
		return false
	}
	switch m.Type {
	case "traceerror":
		a.Trace, a.TraceErr = a.prevTrace, "Open trace: "+m.Error
		return true
	case "trace":
		r, err := view.NewTraceRun(a.Trace.Name, m.CPUs, sched.Time(m.Now))
		if err != nil {
			a.Trace, a.TraceErr = a.prevTrace, traceError(a.Trace.Name, err)
			return true
		}
		a.Trace.Summary, a.Trace.Loading = m.Info, false
		a.showTrace(r)
		a.Progress = 0
		return true
	}
	return false
}

// traceExportErr refuses the exports that replay a simulation.
var traceExportErr = errors.New("this is an imported trace: only metrics.json and CSV export it (ftrace and Perfetto replay a simulated run)")

func (t *TraceState) sizeText() string {
	return fmt.Sprintf("%.1f kB", t.Size/1e3)
}
