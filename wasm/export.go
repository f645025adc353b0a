package main

// Exports of trace files (ftrace text, Perfetto JSON) go through the
// simulation worker: it re-runs the scenario with the writer attached, in
// chunks, and posts progress and then the file (wasm/worker/export.go says
// why a re-run and not the events kept). The page shows the progress in
// the notice line and downloads the file when it arrives; the main thread
// never runs the simulation again. Without a worker (the main-thread
// fallback) the export runs here, as before.

import (
	"fmt"

	"schedplay/wasm/bridge"
)

// exportFile is the download name and type of a trace export.
func exportFile(kind string) (string, string) {
	if kind == "perfetto" {
		return "trace.json", "application/json"
	}
	return "trace.txt", "text/plain"
}

// startExport asks the worker for a trace export of the current run's
// scenario (called with the lock held). It reports false if there is no
// worker.
func (a *App) startExport(kind string) bool {
	if a.link == nil || a.Run == nil || a.Run.Scenario == nil {
		return false
	}
	a.exportID++
	if a.exportKind != "" {
		a.link.w.Post(map[string]any{"type": "cancel-export", "id": a.exportID - 1})
	}
	a.exportKind = kind
	err := a.link.w.Post(map[string]any{"type": "export", "id": a.exportID, "kind": kind,
		"scenario": string(a.Run.Scenario.Encode())})
	if err != nil {
		a.exportKind = ""
		return false
	}
	a.Notice = fmt.Sprintf("Exporting %s: re-running the scenario in the worker…", kind)
	bridge.Publish("exporting", kind)
	return true
}

// handleExport applies an export message from the worker and reports
// whether the page needs a render.
func (a *App) handleExport(m bridge.WorkerMsg) bool {
	if m.ID != a.exportID || a.exportKind == "" {
		return false // superseded
	}
	switch m.Type {
	case "exportprogress":
		a.Notice = fmt.Sprintf("Exporting %s: %.0f%%…", a.exportKind, 100*m.Now)
		bridge.SetText("notice", a.Notice) // no re-render for progress
		return false
	case "exporterror":
		a.Notice = "Export failed: " + m.Error
	case "export":
		name, mime := exportFile(a.exportKind)
		a.Notice = fmt.Sprintf("Exported %s (%.1f MB).", name, float64(len(m.Buf))/1e6)
		a.download(name, mime, m.Buf)
	}
	a.exportKind = ""
	bridge.Publish("exporting", "")
	return true
}
