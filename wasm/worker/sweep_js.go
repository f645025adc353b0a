//go:build js && wasm

package main

// The JavaScript side of sweeps (sweep.go): read the "sweep" message and
// run it with runQueued (thread_js.go).

import "syscall/js"

// runSweepMsg runs the sweep of a "sweep" message.
func (w *worker) runSweepMsg(id int, m js.Value) {
	sr, err := NewSweep(m.Get("scenario").String(), m.Get("spec").String())
	if err != nil {
		post(id, "sweepdone", map[string]any{"error": err.Error()}, nil)
		return
	}
	w.runQueued(id, "sweep", sr, func() (string, error) { return SweepReportJSON(sr) })
}
