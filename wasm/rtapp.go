package main

// rt-app configurations in the playground: the JSON editor accepts a pasted
// rt-app file (detected by looksLikeRTApp, imported by core/rtapp, its
// warnings listed above the page and its errors shown at their rt-app JSON
// path like scenario errors), and "rt-app" exports the workload of the
// current scenario as an rt-app file (core/rtapp's Export, with its
// warnings).

import (
	"schedplay/core/rtapp"
	"schedplay/wasm/bridge"
)

// looksLikeRTApp is rtapp.LooksLikeRTApp (one rule for the CLI and the
// playground).
func looksLikeRTApp(data []byte) bool { return rtapp.LooksLikeRTApp(data) }

// Warnings is a titled list of warnings shown above the page (the rt-app
// import or export that produced them).
type Warnings struct {
	Title string
	Lines []string
}

func warningLines(ws []rtapp.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}

// applyRTApp imports an rt-app file from the editor; on success the editor
// shows the scenario it became, and it runs.
func (a *App) applyRTApp(text string) {
	sc, warns, err := rtapp.Import([]byte(text))
	if err != nil {
		a.JSONErr = asPathError(err)
		a.Warnings = nil
		return
	}
	a.setScenario(sc, "")
	if len(warns) > 0 {
		a.Warnings = &Warnings{Title: "rt-app import: what did not carry over exactly", Lines: warningLines(warns)}
	}
	a.Notice = "Imported an rt-app configuration; the editor now shows it as a scenario."
	a.StartRun()
}

// exportRTApp downloads the workload of the scenario as an rt-app file.
func (a *App) exportRTApp() {
	if a.Trace != nil {
		a.Notice = "An imported trace has no workload to export: go back to the simulation first."
		return
	}
	data, warns, err := rtapp.Export(a.Sc)
	if err != nil {
		a.Notice = "rt-app export: " + err.Error()
		a.Warnings = nil
		return
	}
	a.Warnings = nil
	if len(warns) > 0 {
		a.Warnings = &Warnings{Title: "rt-app export: what the file leaves out", Lines: warningLines(warns)}
	}
	a.download("rtapp.json", "application/json", data)
}

// download saves an export and records it for the browser tests (the
// text only when it is small).
func (a *App) download(name, mime string, data []byte) {
	if err := bridge.Download(name, mime, data); err != nil {
		a.Notice = err.Error()
		return
	}
	ex := map[string]any{"name": name, "bytes": len(data)}
	if len(data) <= 256<<10 {
		ex["text"] = string(data)
	}
	a.publishWarnings() // the export's notes, before a test reads lastExport
	bridge.Publish("lastExport", ex)
}

// drawWarnings fills the warning list after a render: each warning is a
// text node of its own <li> (warnings quote the user's file).
func (a *App) drawWarnings() {
	var lines []string
	if a.Warnings != nil {
		lines = a.Warnings.Lines
	}
	bridge.SetList(idWarningList, lines)
}
