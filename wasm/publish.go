package main

// The page state the browser tests and budgets read back (window.schedplay).

import (
	"runtime"
	"strconv"

	"schedplay/core/metrics"
	"schedplay/wasm/bridge"
)

// publish exposes the page state to the browser tests (window.schedplay).
func (a *App) publish() {
	bridge.Publish("ready", true)
	bridge.Publish("engine", a.Ctl.engine) // "worker" or "main" (the fallback)
	bridge.Publish("maxIngestMs", a.Probe.maxIngestMs)
	bridge.Publish("running", a.Ctl.Running)
	bridge.Publish("progress", a.Ctl.Progress)
	bridge.Publish("preset", a.PresetName)
	a.publishMem()
	a.publishABSeeds()
	a.publishAB()
	bridge.Publish("runMs", a.Ctl.RunMs)
	if a.Ctl.link != nil {
		a.Probe.maxChunkMs = max(a.Probe.maxChunkMs, a.Ctl.link.takeChunkMs())
	}
	bridge.Publish("maxChunkMs", a.Probe.maxChunkMs)
	bridge.Publish("maxRenderMs", a.Probe.maxRenderMs)
	a.Probe.spans.publish()
	bridge.Publish("machineBuilds", a.Probe.machBuilds) // the machine drawing's rebuilds and heat-map updates
	bridge.Publish("machineSends", a.Probe.machSends)
	if a.Run != nil && a.Run.Done() && a.Probe.memFor != a.Run {
		// Once per finished run: ReadMemStats stops the world and walks
		// the heap's statistics (docs/playground-perf.md measured it).
		a.Probe.memFor = a.Run
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		var worst uint64
		for _, p := range ms.PauseNs {
			worst = max(worst, p)
		}
		bridge.Publish("gcMaxPauseMs", float64(worst)/1e6)
		bridge.Publish("heapMB", float64(ms.HeapAlloc)/1e6)
	}
	done := a.finished()
	if done {
		// A finished run is published with its timeline drawn: a publish
		// that comes before the drawing after the last ingest (another
		// task's, between the run's end and its after-render frame) draws
		// first (nothing if the drawing is current).
		a.TL.DrawChanged()
		// A drawing in steps (timeline_paint.go) publishes again when
		// its last step is done.
		done = !a.TL.Painting()
		// A new run's tables and histogram are filled in the frames
		// after its final render (results.go): done waits for them too.
		done = done && a.resultsDue == 0
	}
	bridge.Publish("done", done)
	bridge.Publish("runError", a.Ctl.Err)
	if a.Trace != nil {
		bridge.Publish("mode", "trace")
		bridge.Publish("trace", map[string]any{"name": a.Trace.Name, "loading": a.Trace.Loading, "summary": a.Trace.Summary})
	} else {
		bridge.Publish("mode", "sim")
		bridge.Publish("trace", nil)
	}
	bridge.Publish("traceError", a.TraceErr)
	a.publishWarnings()
	if a.JSONText != a.Probe.publishedJSON {
		// The scenario as the editor holds it, for tests that change a
		// knob in another tab (sent only when it changed).
		a.Probe.publishedJSON = a.JSONText
		bridge.Publish("scenarioJSON", a.JSONText)
	}
	if a.JSONErr != nil {
		bridge.Publish("jsonError", map[string]any{"path": a.JSONErr.Path, "msg": a.JSONErr.Msg})
	} else {
		bridge.Publish("jsonError", nil)
	}
	if a.Run != nil {
		bridge.Publish("slices", a.Run.Timeline.NumSlices())
		bridge.Publish("events", float64(a.Run.Events()))
		if done && a.Probe.tasksFor != a.Run {
			a.Probe.tasksFor = a.Run
			// One string and one JSON.parse, not a js.ValueOf per object
			// and field (docs/playground-perf.md, "The 256-CPU run by phase").
			bridge.PublishJSON("tasks", tasksJSON(a.Run.Report()))
		}
	}
	a.TL.publish()
	a.publishThread()
	a.publishSweep()
}

// tasksJSON is window.schedplay.tasks as JSON: per task name its runtime,
// switches and p99 wakeup latency. Written by hand in the report's order:
// encoding/json's reflection and map sorting cost more under js/wasm
// (docs/playground-perf.md).
func tasksJSON(rep *metrics.Report) string {
	b := make([]byte, 0, 80*len(rep.Tasks)+2)
	b = append(b, '{')
	for i, t := range rep.Tasks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, t.Name)
		b = append(b, `:{"runtime_ns":`...)
		b = strconv.AppendInt(b, t.RuntimeNs, 10)
		b = append(b, `,"switches":`...)
		b = strconv.AppendInt(b, t.Switches, 10)
		b = append(b, `,"lat_p99_ns":`...)
		b = strconv.AppendInt(b, t.WakeupLatencyNs.P99, 10)
		b = append(b, '}')
	}
	return string(append(b, '}'))
}

// appendJSONString appends s as a JSON string (task names are user input:
// quotes, backslashes and control characters escaped).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// publishWarnings publishes the warning list (import or export notes).
func (a *App) publishWarnings() {
	if a.Warnings == nil {
		bridge.Publish("warnings", []any{})
		return
	}
	ws := make([]any, len(a.Warnings.Lines))
	for i, w := range a.Warnings.Lines {
		ws[i] = w
	}
	bridge.Publish("warnings", ws)
}

// finished reports whether the page shows a finished run (or imported
// trace).
func (a *App) finished() bool {
	return a.Run != nil && a.Run.Done() && !a.Ctl.Running && (a.Trace == nil || !a.Trace.Loading)
}

// publishUnfinished is published with each render: a render that starts a
// run or an import says so at once (done is false), while done=true waits
// for publish, after the drawing, so that a reader of window.schedplay
// never sees the previous run's done with the new run's settings, nor a
// finished run whose timeline is not drawn yet.
func (a *App) publishUnfinished() {
	if !a.finished() {
		bridge.Publish("done", false)
		bridge.Publish("running", a.Ctl.Running)
	}
}

// noteRender records the longest DOM render of the current run.
func (a *App) noteRender(ms float64) { a.Probe.maxRenderMs = max(a.Probe.maxRenderMs, ms) }
