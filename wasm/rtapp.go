package main

// rt-app configurations in the playground: the JSON editor accepts a pasted
// rt-app file (detected by looksLikeRTApp, imported by core/rtapp, its
// warnings listed above the page and its errors shown at their rt-app JSON
// path like scenario errors), and "rt-app" exports the workload of the
// current scenario as an rt-app file (core/rtapp's Export, with its
// warnings).

import (
	"strings"

	"schedplay/core/rtapp"
	"schedplay/core/scenario"
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
	// watch holds, per line, the scenario keys the warning is about and
	// their values when it was made: a line goes once one changes (the
	// warning is resolved), pruneWarnings.
	watch []map[string]string
}

// pageControl names the page control that sets a scenario key, for
// warnings that speak page instead of CLI flags.
var pageControl = map[string]string{
	"topology":       "the Machine select at the top of the side panel",
	"kernel.version": "the kernel profile in the Kernel tab",
	"duration":       "the duration field in the Workload tab",
}

// warningText is a warning as the page says it: the CLI's flags (Hint)
// replaced by the controls that set its keys.
func warningText(w rtapp.Warning) string {
	if len(w.Keys) == 0 {
		return w.String()
	}
	var ctl []string
	for _, k := range w.Keys {
		if c, ok := pageControl[k]; ok {
			ctl = append(ctl, c)
		}
	}
	if len(ctl) == 0 {
		return w.String()
	}
	them := "them"
	if len(ctl) == 1 {
		them = "it"
	}
	msg := w.Msg + "; change " + them + " with " + strings.Join(ctl, " and ")
	if w.Path != "" {
		msg = w.Path + ": " + msg
	}
	return msg
}

// newWarnings lists ws for the page, watching the keys of those that
// have them in sc.
func newWarnings(title string, ws []rtapp.Warning, sc *scenario.Scenario) *Warnings {
	out := &Warnings{Title: title}
	for _, w := range ws {
		out.Lines = append(out.Lines, warningText(w))
		var watch map[string]string
		if len(w.Keys) > 0 {
			watch = map[string]string{}
			for _, k := range w.Keys {
				watch[k], _ = sc.Value(k)
			}
		}
		out.watch = append(out.watch, watch)
	}
	return out
}

// pruneWarnings drops the warnings whose keys sc has changed (resolved),
// and the list when none is left.
func (a *App) pruneWarnings() {
	w := a.Warnings
	if w == nil || len(w.watch) != len(w.Lines) {
		return
	}
	var lines []string
	var watch []map[string]string
	for i, l := range w.Lines {
		changed := false
		for k, v := range w.watch[i] {
			if cur, _ := a.Sc.Value(k); cur != v {
				changed = true
			}
		}
		if !changed {
			lines, watch = append(lines, l), append(watch, w.watch[i])
		}
	}
	w.Lines, w.watch = lines, watch
	if len(lines) == 0 {
		a.Warnings = nil
	}
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
		a.Warnings = newWarnings("rt-app import: what did not carry over exactly", warns, sc)
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
		a.Warnings = newWarnings("rt-app export: what the file leaves out", warns, a.Sc)
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
