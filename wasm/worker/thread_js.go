//go:build js && wasm

package main

// The JavaScript side of thread experiments (thread.go): read the
// "thread" message, run chunk by chunk while the run is current, post
// progress after each chunk and the report at the end.

import (
	"syscall/js"
	"time"
)

// runThreadMsg runs the experiment of a "thread" message.
func runThreadMsg(id int, m js.Value) {
	runs := 0
	if r := m.Get("runs"); r.Type() == js.TypeNumber {
		runs = r.Int()
	}
	tr, err := NewThread(m.Get("scenario").String(), runs)
	if err != nil {
		post(id, "threaddone", map[string]any{"error": err.Error()}, nil)
		return
	}
	dt := firstSlice
	for current == id {
		t0 := now()
		deadline := t0 + threadChunkMs
		slices := 0
		done, err := tr.Advance(dt, func() bool { slices++; return now() > deadline })
		if slices > 0 {
			dt = threadSlice(dt, (now()-t0)/float64(slices))
		}
		if err != nil {
			post(id, "threaddone", map[string]any{"error": err.Error()}, nil)
			return
		}
		post(id, "threadprogress", map[string]any{"now": tr.Fraction(), "events": tr.Finished(),
			"cpus": tr.Jobs(), "info": tr.Current()}, nil)
		if done {
			rep, err := ThreadReportJSON(tr)
			fields := map[string]any{"report": rep}
			if err != nil {
				fields = map[string]any{"error": err.Error()}
			}
			post(id, "threaddone", fields, nil)
			return
		}
		time.Sleep(time.Millisecond) // yield: a cancel or a newer run arrives now
	}
}
