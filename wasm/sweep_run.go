package main

// Running a sweep (sweep.go has the form): in the simulation worker
// ("sweep" message, wasm/worker/sweep.go), or without a worker on a
// goroutine of the page in chunks. As for thread experiments, progress
// (runs done, fraction, time left) is written straight into the DOM and
// Vugu renders only when the sweep starts and ends. A sweep shares the run
// id sequence (App.gen): a run, an import or a thread experiment started
// since supersedes it, and it supersedes them.

import (
	"encoding/json"
	"fmt"
	"time"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// sweepActive reports whether a sweep is running.
func (a *App) sweepActive() bool {
	s := a.sw()
	return s.Running && s.ID == a.gen && (s.local || a.link != nil)
}

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
	if a.Running {
		a.CancelRun()
		a.Notice = ""
	}
	a.gen++
	s.ID, s.Running, s.local, s.RanSpec, s.RanOn = a.gen, true, a.link == nil, spec, scName(sc)
	s.Fraction, s.Finished, s.Total, s.Info, s.Report, s.Err = 0, 0, total, "", nil, ""
	s.start = bridge.Now()
	if a.link == nil {
		go a.sweepLocal(sc, spec, s.ID)
		return
	}
	js, _ := json.Marshal(spec)
	if err := a.link.w.Post(map[string]any{"type": "sweep", "id": s.ID, "scenario": string(sc.Encode()), "spec": string(js)}); err != nil {
		s.Running, s.Err = false, err.Error()
	}
}

// CancelSweep stops the sweep; nothing of it is shown.
func (a *App) CancelSweep() {
	s := a.sw()
	if !a.sweepActive() {
		return
	}
	if a.link != nil && !s.local {
		a.link.w.Post(map[string]any{"type": "cancel", "id": s.ID})
	}
	s.Running = false
	a.Notice = "Sweep cancelled."
}

// handleSweep applies a worker message of a sweep and reports whether the
// page needs a re-render (it ended).
func (a *App) handleSweep(m bridge.WorkerMsg) bool {
	s := a.sw()
	if m.ID != s.ID || !a.sweepActive() {
		return false // cancelled or superseded
	}
	switch m.Type {
	case "sweepprogress":
		s.Fraction, s.Finished, s.Total, s.Info = m.Now, int(m.Events), m.CPUs, m.Info
		a.sweepProgressDOM()
		return false
	case "sweepdone":
		var rep *view.SweepReport
		err := m.Error
		if err == "" {
			rep = &view.SweepReport{}
			if jerr := json.Unmarshal([]byte(m.Report), rep); jerr != nil {
				rep, err = nil, "worker report: "+jerr.Error()
			}
		}
		a.sweepFinished(rep, err)
		return true
	}
	return false
}

func (a *App) sweepFinished(rep *view.SweepReport, err string) {
	s := a.sw()
	s.Running, s.Report, s.Err = false, rep, err
	s.Fraction, s.Finished = 1, s.Total
	s.Ms = bridge.Now() - s.start
}

// sweepLocal runs the sweep on the page in chunks (no worker).
func (a *App) sweepLocal(sc *scenario.Scenario, spec experiment.SweepSpec, id int) {
	dt := sched.Millisecond
	a.env.Lock()
	sr, err := view.NewSweepRun(sc, spec)
	if err != nil {
		if s := a.sw(); s.ID == id && a.sweepActive() {
			a.sweepFinished(nil, err.Error())
		}
		a.env.UnlockRender()
		return
	}
	a.env.UnlockOnly()
	for {
		a.env.Lock()
		s := a.sw()
		if !a.sweepActive() || s.ID != id {
			a.env.UnlockOnly()
			return
		}
		t0 := bridge.Now()
		slices := 0
		done, err := sr.Advance(dt, func() bool { slices++; return bridge.Now()-t0 > threadChunkMs })
		if slices > 0 {
			dt = adaptSlice(dt, (bridge.Now()-t0)/float64(slices))
		}
		s.Fraction, s.Finished, s.Info = sr.Fraction(), sr.Finished(), sr.Current()
		if err != nil || done {
			var rep *view.SweepReport
			msg := ""
			var sw *experiment.Sweep
			if err == nil {
				sw, err = sr.Result()
			}
			if err != nil {
				msg = err.Error()
			} else {
				rep = view.NewSweepReport(sw)
			}
			a.sweepFinished(rep, msg)
			a.env.UnlockRender()
			return
		}
		a.sweepProgressDOM()
		a.env.UnlockOnly()
		time.Sleep(time.Millisecond) // yield to the browser
	}
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
	if !a.sweepActive() {
		if s.Report != nil && s.Ms > 0 {
			return fmt.Sprintf("%d runs in %.1f s", s.Total, s.Ms/1000)
		}
		return ""
	}
	t := fmt.Sprintf("%d / %d runs", s.Finished, s.Total)
	if s.Info != "" && s.Finished < s.Total {
		t += " · running " + s.Info
	}
	el := (bridge.Now() - s.start) / 1000
	if s.Fraction > 0.02 && el > 0.5 {
		t += fmt.Sprintf(" · about %s left", fmtSeconds(el*(1-s.Fraction)/s.Fraction))
	}
	return t
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
