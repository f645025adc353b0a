package main

// Running a sweep (sweep.go has the form) as a batch (batch.go): in the
// simulation worker ("sweep" message, wasm/worker/sweep.go) or on the
// page.

import (
	"encoding/json"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
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
	if total > view.MaxSweepJobs {
		s.FormErr, s.FormField = fmt.Sprintf("%d runs; the limit in the browser is %d (the CLI has none)", total, view.MaxSweepJobs), "runs"
		return
	}
	s.RanSpec, s.RanOn, s.Report = spec, scName(sc), nil
	if a.beginBatch(&s.batch, total) {
		go a.sweepLocal(sc, spec, s.ID)
		return
	}
	js, _ := json.Marshal(spec)
	a.postBatch(&s.batch, map[string]any{"type": "sweep", "id": s.ID, "scenario": string(sc.Encode()), "spec": string(js)})
}

// CancelSweep stops the sweep; nothing of it is shown.
func (a *App) CancelSweep() { a.cancelBatch(&a.sw().batch, "Sweep cancelled.") }

// handleSweep applies a worker message of a sweep and reports whether the
// page needs a re-render (it ended).
func (a *App) handleSweep(m bridge.WorkerMsg) bool {
	return handleBatch(a, &a.sw().batch, "sweep", m, a.sweepProgressDOM, a.sweepFinished)
}

func (a *App) sweepFinished(rep *view.SweepReport, err string) {
	s := a.sw()
	s.finish(err)
	s.Report = rep
}

// sweepLocal runs the sweep on the page in chunks (no worker).
func (a *App) sweepLocal(sc *scenario.Scenario, spec experiment.SweepSpec, id int) {
	s := a.sw()
	runOnPage(a, &s.batch, id, func() (*view.SweepRun, error) { return view.NewSweepRun(sc, spec) },
		func(sr *view.SweepRun) error {
			sw, err := sr.Result()
			if err == nil {
				s.Report = view.NewSweepReport(sw)
			}
			return err
		}, a.sweepProgressDOM)
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

// DownloadSweepCSV saves the finished sweep's CSV (`schedplay sweep -csv`).
func (a *App) DownloadSweepCSV() {
	if r := a.sw().Report; r != nil {
		a.download("sweep.csv", "text/csv", []byte(r.CSV))
	}
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
