//go:build js && wasm

package main

// The JavaScript side of thread experiments (thread.go) and of every
// batch of runs (runQueued, also for sweeps): read the message, run chunk
// by chunk while the run is current, post progress after each chunk and
// the report at the end.

import (
	"syscall/js"

	"schedplay/core/sched"
)

// runThreadMsg runs the experiment of a "thread" message.
func (w *worker) runThreadMsg(id int, m js.Value) {
	runs := 0
	if r := m.Get("runs"); r.Type() == js.TypeNumber {
		runs = r.Int()
	}
	tr, err := NewThread(m.Get("scenario").String(), runs)
	if err != nil {
		post(id, "threaddone", map[string]any{"error": err.Error()}, nil)
		return
	}
	w.runQueued(id, "thread", tr, func() (string, error) { return ThreadReportJSON(tr) })
}

// queued is a planned batch of runs advanced in slices (view.ThreadRun,
// view.SweepRun).
type queued interface {
	Advance(dt sched.Time, stop func() bool) (bool, error)
	Fraction() float64
	Finished() int
	Jobs() int
	Current() string
}

// runQueued runs q chunk by chunk while message id is current, posting
// KIND+"progress" after each chunk and KIND+"done" with the report (or the
// error) at the end.
func (w *worker) runQueued(id int, kind string, q queued, report func() (string, error)) {
	dt := firstSlice
	for w.current == id {
		t0 := now()
		deadline := t0 + threadChunkMs
		slices := 0
		done, err := q.Advance(dt, func() bool { slices++; return now() > deadline })
		if slices > 0 {
			dt = threadSlice(dt, (now()-t0)/float64(slices))
		}
		if err != nil {
			post(id, kind+"done", map[string]any{"error": err.Error()}, nil)
			return
		}
		post(id, kind+"progress", map[string]any{"now": q.Fraction(), "events": q.Finished(),
			"cpus": q.Jobs(), "info": q.Current()}, nil)
		if done {
			rep, err := report()
			fields := map[string]any{"report": rep}
			if err != nil {
				fields = map[string]any{"error": err.Error()}
			}
			post(id, kind+"done", fields, nil)
			return
		}
		w.yieldToEventLoop() // a cancel or a newer run arrives now
	}
}
