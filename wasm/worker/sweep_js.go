//go:build js && wasm

package main

// The JavaScript side of sweeps (sweep.go): read the "sweep" message, run
// chunk by chunk while the sweep is current, post progress after each
// chunk and the report at the end.

import (
	"syscall/js"
	"time"
)

// runSweepMsg runs the sweep of a "sweep" message.
func runSweepMsg(id int, m js.Value) {
	sr, err := NewSweep(m.Get("scenario").String(), m.Get("spec").String())
	if err != nil {
		post(id, "sweepdone", map[string]any{"error": err.Error()}, nil)
		return
	}
	dt := firstSlice
	for current == id {
		t0 := now()
		deadline := t0 + threadChunkMs
		slices := 0
		done, err := sr.Advance(dt, func() bool { slices++; return now() > deadline })
		if slices > 0 {
			dt = threadSlice(dt, (now()-t0)/float64(slices))
		}
		if err != nil {
			post(id, "sweepdone", map[string]any{"error": err.Error()}, nil)
			return
		}
		post(id, "sweepprogress", map[string]any{"now": sr.Fraction(), "events": sr.Finished(),
			"cpus": sr.Jobs(), "info": sr.Current()}, nil)
		if done {
			rep, err := SweepReportJSON(sr)
			fields := map[string]any{"report": rep}
			if err != nil {
				fields = map[string]any{"error": err.Error()}
			}
			post(id, "sweepdone", fields, nil)
			return
		}
		time.Sleep(time.Millisecond) // yield: a cancel or a newer run arrives now
	}
}
