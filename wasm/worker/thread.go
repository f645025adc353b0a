package main

// Thread experiments in the worker: a scenario's experiment block (the
// mailing-list thread a seed/ preset reproduces) run as `schedplay compare
// -preset NAME` runs it, job after job (view.ThreadRun, which runs each
// with experiment.Execution in slices of simulated time), posting progress
// between chunks so that a 144-CPU variant never leaves the page without
// news and a cancel is seen within a chunk. The messages (doc.go):
//
//	page -> worker  {type: "thread", id, scenario: "<scenario JSON>", runs}
//	worker -> page  {type: "threadprogress", id, now: fraction done (0..1),
//	                 events: runs finished, cpus: runs in all, info: "<config, seed>"}
//	                {type: "threaddone", id, report: "<JSON view.ThreadReport>", error}
//
// The fields reuse bridge.WorkerMsg's (now/events/cpus/info) so the page's
// decoder needs no change.

import (
	"encoding/json"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/view"
)

// Slice bounds of simulated time between two looks at the clock: a slice
// of a small machine is microseconds of wall time, of a 144-CPU machine
// milliseconds; the worker adapts between them (threadSlice).
const (
	threadChunkMs = 50 // wall time of one chunk: one progress message, then a yield
	minSlice      = 10 * sched.Microsecond
	maxSlice      = 200 * sched.Millisecond
	firstSlice    = sched.Millisecond
)

// NewThread decodes a scenario and plans its experiment with runs seeds
// per cell (0: the block's own count).
func NewThread(scenarioJSON string, runs int) (*view.ThreadRun, error) {
	sc, err := scenario.Decode([]byte(scenarioJSON))
	if err != nil {
		return nil, err
	}
	return view.NewThreadRun(sc, runs)
}

// ThreadReportJSON evaluates a finished experiment for the page.
func ThreadReportJSON(tr *view.ThreadRun) (string, error) {
	res, err := tr.Result()
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(view.NewThreadReport(res))
	return string(b), err
}

// threadSlice adapts the slice to the wall time one slice took (ms),
// aiming at about a tenth of a chunk per slice.
func threadSlice(dt sched.Time, sliceMs float64) sched.Time {
	switch {
	case sliceMs > threadChunkMs/5:
		dt /= 2
	case sliceMs < threadChunkMs/50:
		dt *= 2
	}
	return min(maxSlice, max(minSlice, dt))
}
