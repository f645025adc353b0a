package main

// Sweeps in the worker: one or two keys over values, N seeds per point,
// run as `schedplay sweep` runs them (view.SweepRun: the same plan, each
// job with experiment.Execution in slices of simulated time), posting
// progress between chunks; the report carries the CLI's table and CSV.
// The messages (doc.go):
//
//	page -> worker  {type: "sweep", id, scenario: "<scenario JSON>", spec: "<JSON experiment.SweepSpec>"}
//	worker -> page  {type: "sweepprogress", id, now: fraction done (0..1),
//	                 events: runs finished, cpus: runs in all, info: "<point, seed>"}
//	                {type: "sweepdone", id, report: "<JSON view.SweepReport>", error}
//
// Like the thread messages, the fields reuse bridge.WorkerMsg's.

import (
	"encoding/json"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/view"
)

// NewSweep decodes a scenario and a sweep spec and plans the sweep.
func NewSweep(scenarioJSON, specJSON string) (*view.SweepRun, error) {
	sc, err := scenario.Decode([]byte(scenarioJSON))
	if err != nil {
		return nil, err
	}
	var spec experiment.SweepSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		return nil, fmt.Errorf("sweep: %v", err)
	}
	return view.NewSweepRun(sc, spec)
}

// SweepReportJSON renders a finished sweep for the page.
func SweepReportJSON(sr *view.SweepRun) (string, error) {
	sw, err := sr.Result()
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(view.NewSweepReport(sw))
	return string(b), err
}
