package main

// Trace mode: a real kernel's ftrace text (the kernel's trace file or
// trace-cmd report), opened from disk and shown read-only in the timeline
// and metrics views. The simulator does not run: the kernel panels are
// hidden, Run/Cancel are replaced by "Back to simulation", and the engine
// only imports (wasm/runner/trace.go: parsing a few MB of text takes
// hundreds of milliseconds in WASM, too long for the page's thread when
// there is a worker to do it). The result arrives as a run does (records,
// tasks, report) and is drawn by the same code; tasks are coloured by
// name.

import (
	"errors"
	"fmt"

	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
	"schedplay/wasm/view"
)

const traceInput = "trace-file"

// TraceState is the open trace (App.Trace; nil in simulation mode).
type TraceState struct {
	Name    string
	Size    float64 // bytes
	Summary string  // view.TraceSummary, once imported
	Loading bool
	// Replay is the scenario inferred from the trace (core/replay), ""
	// when there is none: ReplayTrace opens it.
	Replay string
	// ReplayTasks pairs the traced tasks with the replay's (JSON
	// []replay.TaskKey), for the fidelity table (fidelity.go).
	ReplayTasks string
}

// OpenTrace imports the file chosen in the "Open trace…" input (called
// with the lock held, from its change event).
func (a *App) OpenTrace() {
	defer a.publishUnfinished()
	if a.Ctl.Running {
		a.CancelRun()
	}
	a.cancelPool()
	a.Ctl.gen++
	a.TraceErr = ""
	l := a.Ctl.link
	l.start = bridge.Now()
	if l.w == nil {
		a.openTraceOnPage()
		return
	}
	name, size, err := l.w.PostFile(protocol.OpenTrace{ID: a.Ctl.gen}, traceInput)
	if err != nil {
		a.TraceErr = "Open trace: " + err.Error()
		return
	}
	a.loadingTrace(name, size)
}

// loadingTrace shows the trace being imported.
func (a *App) loadingTrace(name string, size float64) {
	a.prevTrace = a.Trace // shown again if this one fails
	a.Trace = &TraceState{Name: name, Size: size, Loading: true}
	a.Notice = ""
}

// openTraceOnPage sends the file to the engine on the page (no worker),
// which imports it as the worker would.
func (a *App) openTraceOnPage() {
	name, size, err := a.Ctl.link.svc.PostFile(protocol.OpenTrace{ID: a.Ctl.gen}, traceInput)
	if err != nil {
		a.TraceErr = traceError(name, err)
		return
	}
	a.loadingTrace(name, size)
}

func traceError(name string, err error) string {
	if name == "" {
		return "Open trace: " + err.Error()
	}
	return "Open trace: " + name + ": " + err.Error()
}

// showTrace puts a trace run on screen.
func (a *App) showTrace(r *view.Run) {
	a.Run, a.Ctl.Running, a.Ctl.Progress, a.Ctl.Err = r, false, 1, ""
	a.Probe.resetRun()
	a.resetRows()
	a.TL.Reset(r.Duration())
}

// LeaveTrace returns to the simulation and reruns the scenario.
func (a *App) LeaveTrace() {
	a.Trace, a.TraceErr = nil, ""
	a.StartRun()
}

// ReplayTrace leaves trace mode with the trace's inferred workload as the
// scenario and runs it, the trace pinned as A: the A/B view shows the
// trace's timeline and the replay's aligned, and compares them task by
// task (the replayed tasks keep the trace's comms). The knobs apply to
// the replay; pin it as A instead to compare a changed replay with it
// (docs/cli.md, "Trace replay").
func (a *App) ReplayTrace() {
	if a.Trace == nil || a.Trace.Replay == "" {
		return
	}
	text, keys := a.Trace.Replay, a.Trace.ReplayTasks
	a.PinA()
	a.originA = nil // A is the trace, no scenario (PinA took the last simulation's)
	a.setReplayRef(a.A, keys)
	a.Trace, a.TraceErr = nil, ""
	a.ApplyJSON(text)
}

// handleTrace applies the engine's trace header and import error.
func (a *App) handleTrace(m protocol.Message) bool {
	switch m := m.(type) {
	case protocol.TraceError:
		if a.traceLoading(m.ID) {
			a.Trace, a.TraceErr = a.prevTrace, "Open trace: "+m.Error
			return true
		}
	case protocol.TraceHeader:
		if !a.traceLoading(m.ID) {
			return false
		}
		r, err := view.NewTraceRun(a.Trace.Name, m.CPUs, sched.Time(m.Now))
		if err != nil {
			a.Trace, a.TraceErr = a.prevTrace, traceError(a.Trace.Name, err)
			return true
		}
		a.Trace.Summary, a.Trace.Loading, a.Trace.Replay, a.Trace.ReplayTasks = m.Summary, false, m.Replay, m.ReplayTasks
		a.showTrace(r)
		a.Ctl.Progress = 0
		return true
	}
	return false
}

// traceLoading reports whether the answers to request id are for the
// trace being imported.
func (a *App) traceLoading(id int) bool {
	return id == a.Ctl.gen && a.Trace != nil && a.Trace.Loading
}

// traceExportErr refuses the exports that replay a simulation.
var traceExportErr = errors.New("this is an imported trace: only metrics.json and CSV export it (ftrace and Perfetto replay a simulated run)")

func (t *TraceState) sizeText() string {
	return fmt.Sprintf("%.1f kB", t.Size/1e3)
}
