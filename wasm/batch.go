package main

// A batch: many planned runs in the background, a thread experiment
// (threadexp.go) or a sweep (sweep_run.go), with one lifecycle:
//
//   - it shares the run id sequence (App.gen) with single runs and trace
//     imports: whatever starts later supersedes it, and it supersedes them;
//   - it runs on the worker pool (poolrun.go: job by job over several
//     workers, gathered by job index and evaluated by one of them), or
//     without workers in the runner on the page (enginelink.go), whose
//     progress and done messages batchProgress and batchDone apply;
//   - progress (runs done, fraction, time left) is written straight into
//     the DOM; Vugu renders only when the batch starts and ends, so the
//     main thread never runs a long task for it.
//
// The two kinds differ only in what the engine plans (runner.ThreadRun,
// runner.SweepRun) and in the report they keep.

import (
	"encoding/json"
	"fmt"

	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
)

// batch is the progress of the current or last batch of one kind.
type batch struct {
	ID       int // run id shared with App.gen
	Running  bool
	Fraction float64
	Finished int
	Total    int
	Info     string // configuration and seed in progress
	start    float64
	Ms       float64 // wall time of the last finished batch
	Err      string
	workers  int // the pool's size it ran on
}

// active reports whether the batch is running and not superseded (the
// latest run id).
func (a *App) active(b *batch) bool {
	return b.Running && b.ID == a.Ctl.gen
}

// beginBatch cancels a single run in progress and starts b as the newest
// run id: spec of sc on the pool, or without one msg's request for that
// id posted to the page's runner (a failure ends the batch).
func (a *App) beginBatch(b *batch, total int, spec protocol.BatchSpec, sc *scenario.Scenario, msg func(id int) protocol.Message) {
	if a.Ctl.Running {
		a.CancelRun()
		a.Notice = ""
	}
	a.Ctl.gen++
	b.ID, b.Running = a.Ctl.gen, true
	b.Fraction, b.Finished, b.Total, b.Info, b.Err = 0, 0, total, "", ""
	b.start, b.workers = bridge.Now(), 1
	if a.usePool() {
		b.workers = a.poolSize()
	}
	if a.usePool() {
		o, err := a.outline(sc, spec)
		if err == nil {
			b.Total = len(o.Weights)
			err = a.poolStart(b, spec, o)
		}
		if err != nil {
			b.Running, b.Err = false, err.Error()
		}
		return
	}
	if err := a.Ctl.link.post(msg(b.ID)); err != nil {
		b.Running, b.Err = false, err.Error()
	}
}

// cancelBatch stops b; nothing of it is shown.
func (a *App) cancelBatch(b *batch, notice string) {
	if !a.active(b) {
		return
	}
	if a.usePool() {
		a.cancelPool()
	} else {
		a.Ctl.link.post(protocol.Cancel{ID: b.ID})
	}
	b.Running = false
	a.Notice = notice
}

// finish ends b with err ("" on success).
func (b *batch) finish(err string) {
	b.Running, b.Err = false, err
	b.Fraction, b.Finished = 1, b.Total
	b.Ms = bridge.Now() - b.start
}

// progressText: runs done, the ones in progress, time left; after a
// finished batch whose report is on screen (shown: of the current
// scenario, never another preset's), how long it took.
func (a *App) progressText(b *batch, shown bool) string {
	if !a.active(b) {
		if shown && b.Ms > 0 {
			return fmt.Sprintf("%d runs in %.1f s on %d worker%s", b.Total, b.Ms/1000, b.workers, plural(b.workers))
		}
		return ""
	}
	s := fmt.Sprintf("%d / %d runs", b.Finished, b.Total)
	if b.Info != "" && b.Finished < b.Total {
		s += " · running " + b.Info
	}
	if ms, ok := a.batchLeft(b); ok {
		s += fmt.Sprintf(" · about %s left", fmtSeconds(ms/1000))
	}
	return s
}

// batchProgress applies a progress message of batch b (request id) and
// updates its progress in the DOM.
func (a *App) batchProgress(b *batch, id int, p protocol.Progress, progressDOM func()) {
	if id != b.ID || !a.active(b) {
		return // cancelled or superseded
	}
	b.Fraction, b.Finished, b.Total, b.Info = p.Fraction, p.Finished, p.Total, p.Current
	progressDOM()
}

// batchDone applies the done message of batch b (request id): the report
// as JSON of R, or the error. It reports whether the page needs a
// re-render (the batch ended).
func batchDone[R any](a *App, b *batch, id int, report, err string, done func(*R, string)) bool {
	if id != b.ID || !a.active(b) {
		return false // cancelled or superseded
	}
	var rep *R
	if err == "" {
		rep = new(R)
		if jerr := json.Unmarshal([]byte(report), rep); jerr != nil {
			rep, err = nil, "worker report: "+jerr.Error()
		}
	}
	done(rep, err)
	return true
}

func fmtSeconds(s float64) string {
	if s < 90 {
		return fmt.Sprintf("%.0f s", max(1, s))
	}
	return fmt.Sprintf("%.0f min", s/60)
}
