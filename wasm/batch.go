package main

// A batch: many planned runs in the background, a thread experiment
// (threadexp.go) or a sweep (sweep_run.go), with one lifecycle:
//
//   - it shares the run id sequence (App.gen) with single runs and trace
//     imports: whatever starts later supersedes it, and it supersedes them;
//   - it runs in the simulation worker, whose progress and done messages
//     (TYPEprogress, TYPEdone) handleBatch applies, or, without a worker,
//     on a goroutine of the page in chunks of threadChunkMs (runOnPage);
//   - progress (runs done, fraction, time left) is written straight into
//     the DOM; Vugu renders only when the batch starts and ends, so the
//     main thread never runs a long task for it.
//
// The two kinds differ only in what they plan (view.NewThreadRun,
// view.NewSweepRun) and in the report they keep.

import (
	"encoding/json"
	"fmt"
	"time"

	"schedplay/core/sched"
	"schedplay/wasm/bridge"
)

const threadChunkMs = 20 // page fallback: wall time of one chunk

// batch is the progress of the current or last batch of one kind.
type batch struct {
	ID       int // run id shared with App.gen
	Running  bool
	local    bool // running on the page (no worker)
	Fraction float64
	Finished int
	Total    int
	Info     string // configuration and seed in progress
	start    float64
	Ms       float64 // wall time of the last finished batch
	Err      string
}

// active reports whether the batch is running and not superseded: the
// latest run id, and on the page or with a live worker.
func (a *App) active(b *batch) bool {
	return b.Running && b.ID == a.gen && (b.local || a.link != nil)
}

// beginBatch cancels a single run in progress and starts b as the newest
// run id, returning whether it runs on the page.
func (a *App) beginBatch(b *batch, total int) bool {
	if a.Running {
		a.CancelRun()
		a.Notice = ""
	}
	a.gen++
	b.ID, b.Running, b.local = a.gen, true, a.link == nil
	b.Fraction, b.Finished, b.Total, b.Info, b.Err = 0, 0, total, "", ""
	b.start = bridge.Now()
	return b.local
}

// postBatch sends the worker its job message; a failure ends the batch.
func (a *App) postBatch(b *batch, msg map[string]any) {
	if err := a.link.w.Post(msg); err != nil {
		b.Running, b.Err = false, err.Error()
	}
}

// cancelBatch stops b; nothing of it is shown.
func (a *App) cancelBatch(b *batch, notice string) {
	if !a.active(b) {
		return
	}
	if a.link != nil && !b.local {
		a.link.w.Post(map[string]any{"type": "cancel", "id": b.ID})
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

// progressText: runs done, the one in progress, time left; after a
// finished batch with a report, how long it took.
func (a *App) progressText(b *batch, hasReport bool) string {
	if !a.active(b) {
		if hasReport && b.Ms > 0 {
			return fmt.Sprintf("%d runs in %.1f s", b.Total, b.Ms/1000)
		}
		return ""
	}
	s := fmt.Sprintf("%d / %d runs", b.Finished, b.Total)
	if b.Info != "" && b.Finished < b.Total {
		s += " · running " + b.Info
	}
	el := (bridge.Now() - b.start) / 1000
	if b.Fraction > 0.02 && el > 0.5 {
		s += fmt.Sprintf(" · about %s left", fmtSeconds(el*(1-b.Fraction)/b.Fraction))
	}
	return s
}

// handleBatch applies a worker message of b (types kind+"progress" and
// kind+"done", the report as JSON of R) and reports whether the page needs
// a re-render (the batch ended).
func handleBatch[R any](a *App, b *batch, kind string, m bridge.WorkerMsg, progressDOM func(), done func(*R, string)) bool {
	if m.ID != b.ID || !a.active(b) {
		return false // cancelled or superseded
	}
	switch m.Type {
	case kind + "progress":
		b.Fraction, b.Finished, b.Total, b.Info = m.Now, int(m.Events), m.CPUs, m.Info
		progressDOM()
	case kind + "done":
		var rep *R
		err := m.Error
		if err == "" {
			rep = new(R)
			if jerr := json.Unmarshal([]byte(m.Report), rep); jerr != nil {
				rep, err = nil, "worker report: "+jerr.Error()
			}
		}
		done(rep, err)
		return true
	}
	return false
}

// pageRun is a planned batch run on the page (view.ThreadRun,
// view.SweepRun).
type pageRun interface {
	Advance(dt sched.Time, stop func() bool) (bool, error)
	Fraction() float64
	Finished() int
	Current() string
}

// runOnPage plans and runs batch id on the page in chunks (no worker):
// plan builds the run (its error ends the batch), result turns the
// finished run into the report (done's error message, "" on success).
func runOnPage[P pageRun](a *App, b *batch, id int, plan func() (P, error), result func(P) error, progressDOM func()) {
	dt := sched.Millisecond
	a.env.Lock()
	r, err := plan()
	if err != nil {
		if b.ID == id && a.active(b) {
			b.finish(err.Error())
		}
		a.env.UnlockRender()
		return
	}
	a.env.UnlockOnly()
	for {
		a.env.Lock()
		if !a.active(b) || b.ID != id {
			a.env.UnlockOnly()
			return
		}
		t0 := bridge.Now()
		slices := 0
		done, err := r.Advance(dt, func() bool { slices++; return bridge.Now()-t0 > threadChunkMs })
		if slices > 0 {
			dt = adaptSlice(dt, (bridge.Now()-t0)/float64(slices))
		}
		b.Fraction, b.Finished, b.Info = r.Fraction(), r.Finished(), r.Current()
		if err != nil || done {
			if err == nil {
				err = result(r)
			}
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			b.finish(msg)
			a.env.UnlockRender()
			return
		}
		progressDOM()
		a.env.UnlockOnly()
		time.Sleep(time.Millisecond) // yield to the browser
	}
}

// adaptSlice keeps one slice of simulated time near a tenth of a chunk.
func adaptSlice(dt sched.Time, sliceMs float64) sched.Time {
	switch {
	case sliceMs > threadChunkMs/5:
		dt /= 2
	case sliceMs < threadChunkMs/50:
		dt *= 2
	}
	return min(200*sched.Millisecond, max(10*sched.Microsecond, dt))
}

func fmtSeconds(s float64) string {
	if s < 90 {
		return fmt.Sprintf("%.0f s", max(1, s))
	}
	return fmt.Sprintf("%.0f min", s/60)
}
