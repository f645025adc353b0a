package main

// Engine: one simulation with the consumers the worker needs: the core's
// metrics collector (its report is sent once at the end) and the compact
// recorder whose batches feed the page's timeline (wasm/view/stream.go).

import (
	"encoding/json"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/view"
)

// Engine runs one scenario in chunks.
type Engine struct {
	Scenario *scenario.Scenario
	Sim      *sched.Sim
	Metrics  *metrics.Collector
	Rec      *view.Recorder
	sent     int // tasks already described to the page
}

// NewEngine decodes and validates a scenario and prepares its run.
func NewEngine(scenarioJSON []byte) (*Engine, error) {
	sc, sim, err := newSim(scenarioJSON)
	if err != nil {
		return nil, err
	}
	e := &Engine{Scenario: sc, Sim: sim, Metrics: metrics.New(sim.NumCPUs()), Rec: &view.Recorder{}}
	sim.Attach(e.Metrics)
	sim.Attach(e.Rec)
	return e, nil
}

// Advance processes up to budget events, stopping early once stop reports
// true (asked every 1024 events), and reports whether the run is done.
func (e *Engine) Advance(budget int, stop func() bool) bool {
	for i := 0; i < budget; i++ {
		if !e.Sim.Step() {
			break
		}
		if stop != nil && i&1023 == 1023 && stop() {
			break
		}
	}
	return e.Sim.Done()
}

// NewTasks returns the tasks created since the previous call, as JSON
// ("" if none).
func (e *Engine) NewTasks() string {
	n := e.Sim.NumTasks()
	if n == e.sent {
		return ""
	}
	infos := make([]sched.TaskInfo, 0, n-e.sent)
	for id := e.sent; id < n; id++ {
		infos = append(infos, e.Sim.TaskInfo(sched.TaskID(id)))
	}
	e.sent = n
	b, _ := json.Marshal(infos)
	return string(b)
}

// ReportJSON is the final metrics report (schedplay.metrics/v1).
func (e *Engine) ReportJSON() string {
	name := e.Scenario.Name
	if name == "" {
		name = "untitled"
	}
	rep := e.Metrics.Build(e.Sim, name)
	b, _ := json.Marshal(rep)
	return string(b)
}

// newSim decodes and builds a scenario (the browser's default limits) and
// creates its simulation, with no sink attached.
func newSim(scenarioJSON []byte) (*scenario.Scenario, *sched.Sim, error) {
	sc, err := scenario.Decode(scenarioJSON)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return nil, nil, err
	}
	sim, err := sched.New(cfg)
	return sc, sim, err
}
