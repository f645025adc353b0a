package runner

// Engine: one simulation with the consumers a streamed run needs: the
// core's metrics collector (its report is sent once at the end) and the
// compact recorder whose batches feed the page's timeline (wasm/codec).

import (
	"encoding/json"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/codec"
)

// Engine runs one scenario in chunks.
type Engine struct {
	Scenario *scenario.Scenario
	Sim      *sched.Sim
	Metrics  *metrics.Collector
	Rec      *codec.Recorder
	sent     int // tasks already described to the page
}

// NewEngine decodes and validates a scenario and prepares its run.
func NewEngine(scenarioJSON []byte) (*Engine, error) {
	sc, sim, err := newSim(scenarioJSON)
	if err != nil {
		return nil, err
	}
	e := &Engine{Scenario: sc, Sim: sim, Metrics: metrics.New(sim.NumCPUs()), Rec: &codec.Recorder{}}
	sim.Attach(e.Metrics)
	sim.Attach(e.Rec)
	return e, nil
}

// NewTaskInfos returns the tasks created since the previous call (of it
// or NewTasks).
func (e *Engine) NewTaskInfos() []sched.TaskInfo {
	n := e.Sim.NumTasks()
	if n == e.sent {
		return nil
	}
	infos := make([]sched.TaskInfo, 0, n-e.sent)
	for id := e.sent; id < n; id++ {
		infos = append(infos, e.Sim.TaskInfo(sched.TaskID(id)))
	}
	e.sent = n
	return infos
}

// NewTasks returns the tasks created since the previous call, as JSON
// ("" if none).
func (e *Engine) NewTasks() string {
	infos := e.NewTaskInfos()
	if infos == nil {
		return ""
	}
	b, _ := json.Marshal(infos)
	return string(b)
}

// Report is the metrics report (schedplay.metrics/v1), complete once the
// run is done.
func (e *Engine) Report() metrics.Report {
	name := e.Scenario.Name
	if name == "" {
		name = "untitled"
	}
	return e.Metrics.Build(e.Sim, name)
}

// ReportJSON is Report as JSON.
func (e *Engine) ReportJSON() string {
	b, _ := json.Marshal(e.Report())
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
