package main

// Running a sweep (sweep.go has the form) as a batch (batch.go): a
// protocol.Sweep request the engine runs (wasm/runner/sweep.go).

import (
	"encoding/json"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
	"schedplay/wasm/report"
)

// sweepActive reports whether a sweep is running.
func (a *App) sweepActive() bool { return a.active(&a.sw().batch) }

// StartSweep runs the form's sweep on the current scenario.
func (a *App) StartSweep() {
	s := a.sw()
	spec, ok := s.Spec()
	if !ok {
		return
	}
	sc, err := scenario.Decode(a.Sc.Encode()) // a private copy
	if err != nil {
		s.Err = err.Error()
		return
	}
	// Check each value against the scenario here (cheap: no machine is
	// built), so a bad one is shown at its field at once with the CLI's
	// message; the worker plans the runs.
	total := spec.Runs
	for i, ax := range spec.Axes {
		parsed, _ := experiment.ParseSweepAxis(ax)
		total *= len(parsed.Values)
		for _, v := range parsed.Values {
			if err := sc.Clone().Set(parsed.Key + "=" + v); err != nil {
				s.FormErr, s.FormField = fmt.Sprintf("-sweep %q: %v", parsed.Key+"="+v, err), fmt.Sprintf("vals%d", i+1)
				return
			}
		}
	}
	if total > protocol.MaxSweepJobs {
		s.FormErr, s.FormField = fmt.Sprintf("%d runs; the limit in the browser is %d (the CLI has none)", total, protocol.MaxSweepJobs), "runs"
		return
	}
	s.RanSpec, s.RanOn, s.Report = spec, scName(sc), nil
	s.ran = newOrigin(sc)
	s.ranLink = bridge.ShareURL(bridge.PageURL(), scenario.EncodeURLPayload(sc)) + "&sweep=" + spec.EncodeFragment()
	js, _ := json.Marshal(spec)
	enc := string(sc.Encode())
	a.beginBatch(&s.batch, total, protocol.BatchSpec{Kind: protocol.KindSweep, Scenario: enc, Spec: string(js)}, sc,
		func(id int) protocol.Message {
			return protocol.Sweep{ID: id, Scenario: enc, Spec: string(js)}
		})
}

// CancelSweep stops the sweep; nothing of it is shown.
func (a *App) CancelSweep() { a.cancelBatch(&a.sw().batch, "Sweep cancelled.") }

// handleSweep applies an engine message of a sweep and reports whether
// the page needs a re-render (it ended).
func (a *App) handleSweep(m protocol.Message) bool {
	s := a.sw()
	switch m := m.(type) {
	case protocol.SweepProgress:
		a.batchProgress(&s.batch, m.ID, m.Progress, a.sweepProgressDOM)
	case protocol.SweepDone:
		return batchDone(a, &s.batch, m.ID, m.Report, m.Error, a.sweepFinished)
	}
	return false
}

func (a *App) sweepFinished(rep *report.SweepReport, err string) {
	s := a.sw()
	s.finish(err)
	s.Report = rep
}

// sweepProgressDOM updates the progress bar and text in place.
func (a *App) sweepProgressDOM() {
	bridge.SetStyle("sweep-progress-bar", "width", fmt.Sprintf("%.1f%%", 100*a.sw().Fraction))
	bridge.SetText("sweep-progress-text", a.sweepProgressText())
	a.publishSweep()
}

// sweepProgressText: runs done, the one in progress, time left.
func (a *App) sweepProgressText() string {
	s := a.sw()
	return a.progressText(&s.batch, s.Report != nil)
}

// sweepEstimate is what the form's sweep will cost, before it starts.
func (a *App) sweepEstimate() string {
	if a.sweepActive() {
		return ""
	}
	form := *a.sw() // Spec notes form errors: not on the page's state from a render
	spec, ok := form.Spec()
	if !ok {
		return ""
	}
	js, _ := json.Marshal(spec)
	o, err := a.outline(nil, protocol.BatchSpec{Kind: protocol.KindSweep, Scenario: string(a.Sc.Encode()), Spec: string(js)})
	if err != nil {
		return ""
	}
	return a.estimateText(o)
}

// DownloadSweepCSV saves the finished sweep's CSV (`schedplay sweep -csv`).
func (a *App) DownloadSweepCSV() {
	if r := a.sw().Report; r != nil {
		a.download("sweep.csv", "text/csv", []byte(r.CSV))
	}
}

// SweepProvenanceName is the sidecar's download name.
const SweepProvenanceName = "sweep.csv" + experiment.ProvenanceSuffix

// DownloadSweepProvenance saves the sidecar of sweep.csv: the
// configuration the sweep ran on and the sweep, as `schedplay sweep -csv
// sweep.csv` writes it beside the CSV (core/experiment/provenance.go).
func (a *App) DownloadSweepProvenance() {
	s := a.sw()
	if s.Report == nil || s.ran == nil {
		return
	}
	a.download(SweepProvenanceName, "application/json", experiment.SweepProvenanceJSON(s.ran.Sc, s.Report.Spec, s.Report.Seeds, "sweep.csv"))
}

// publishSweep exposes the sweep to the browser tests.
func (a *App) publishSweep() {
	s := a.sw()
	st := map[string]any{"open": s.Open, "running": a.sweepActive(), "fraction": s.Fraction, "finished": s.Finished,
		"total": s.Total, "error": s.Err, "formError": s.FormErr, "formField": s.FormField}
	if s.Report != nil {
		st["csv"] = s.Report.CSV
		st["text"] = s.Report.Text
	}
	bridge.Publish("sweep", st)
}

// SweepFrom names the configuration the sweep ran on.
func (a *App) SweepFrom() string { return a.sw().ran.from() }

// SweepCommand reruns the sweep with the CLI: its own share link, which
// carries the scenario and the sweep (`schedplay sweep 'LINK'`).
func (a *App) SweepCommand() string {
	return "schedplay sweep " + scenario.ShellQuote(a.sw().ranLink)
}

// SweepStale is the out-of-date banner ("" when the scenario is still the
// one the sweep ran on).
func (a *App) SweepStale() string {
	s := a.sw()
	if s.Report == nil || s.ran == nil {
		return ""
	}
	return a.staleMemo.get("sweep", a.JSONText, s.ran, func() string {
		if string(a.Sc.Encode()) == string(s.ran.Sc.Encode()) {
			return ""
		}
		return "Out of date: computed before " + changeText(scenario.Compare(s.ran.Sc, a.Sc)) + ". Run the sweep again for this configuration."
	})
}
