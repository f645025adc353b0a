package main

// Exports of trace files (ftrace text, Perfetto JSON) go through the
// engine: it re-runs the scenario with the writer attached, in chunks, and
// posts progress and then the file (wasm/runner/export.go says why a
// re-run and not the events kept). The page shows the progress in the
// notice line and downloads the file when it arrives. With a worker the
// main thread never runs the simulation again; without one the page's
// runner does, in chunks of its own.

import (
	"fmt"

	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
)

// exportFile is the download name and type of a trace export.
func exportFile(kind string) (string, string) {
	if kind == "perfetto" {
		return "trace.json", "application/json"
	}
	return "trace.txt", "text/plain"
}

// startExport asks the engine for a trace export of the current run's
// scenario (called with the lock held).
func (a *App) startExport(kind string) {
	if a.Run == nil || a.Run.Scenario == nil {
		return
	}
	a.exportID++
	if a.exportKind != "" {
		a.postExport(protocol.CancelExport{ID: a.exportID - 1})
	}
	a.exportKind = kind
	a.exportSlot = a.spareSlot() // a pool worker with no job, if any (poolrun.go)
	if err := a.postExport(protocol.Export{ID: a.exportID, Kind: kind, Scenario: string(a.Run.Scenario.Encode()), Provenance: a.runRecordJSON()}); err != nil {
		a.exportKind = ""
		a.Notice = "Export failed: " + err.Error()
		return
	}
	where := "in the worker"
	if a.exportSlot > 0 {
		where = fmt.Sprintf("in worker %d", a.exportSlot+1)
	}
	if a.Ctl.link.w == nil {
		where = "on the page"
	}
	a.Notice = fmt.Sprintf("Exporting %s: re-running the scenario %s…", kind, where)
	bridge.Publish("exporting", kind)
}

// handleExport applies an export message from the engine and reports
// whether the page needs a render.
func (a *App) handleExport(m protocol.Message) bool {
	var id int
	switch m := m.(type) {
	case protocol.ExportProgress:
		id = m.ID
	case protocol.ExportError:
		id = m.ID
	case protocol.ExportFile:
		id = m.ID
	}
	if id != a.exportID || a.exportKind == "" {
		return false // superseded
	}
	switch m := m.(type) {
	case protocol.ExportProgress:
		a.Notice = fmt.Sprintf("Exporting %s: %.0f%%…", a.exportKind, 100*m.Fraction)
		bridge.SetText("notice", a.Notice) // no re-render for progress
		return false
	case protocol.ExportError:
		a.Notice = "Export failed: " + m.Error
	case protocol.ExportFile:
		name, mime := exportFile(a.exportKind)
		a.Notice = fmt.Sprintf("Exported %s (%.1f MB).", name, float64(len(m.Buf))/1e6)
		a.download(name, mime, m.Buf)
	}
	a.exportKind = ""
	bridge.Publish("exporting", "")
	return true
}
