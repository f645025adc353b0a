package view

// Run: one simulation driven in bounded chunks. The browser cannot block its
// main thread, so the UI calls Advance with an event budget, yields to the
// browser (rendering, input, Cancel), and calls again; the timeline grows
// between calls and is drawn as it streams in. The chunking does not change
// the result (the core guarantees a run is a pure function of its config).

import (
	"bytes"
	"encoding/json"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/perfetto"
)

// Run is one simulation with its consumers.
type Run struct {
	Scenario *scenario.Scenario
	Sim      *sched.Sim
	Timeline *Timeline
	Metrics  *metrics.Collector
	Colors   []RGB // by TaskID, grown as tasks appear
	report   *metrics.Report
}

// NewRun validates sc and prepares its run.
func NewRun(sc *scenario.Scenario) (*Run, error) {
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return nil, err
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	r := &Run{Scenario: sc, Sim: sim, Timeline: NewTimeline(sim.NumCPUs()),
		Metrics: metrics.New(sim.NumCPUs())}
	sim.Attach(r.Timeline)
	sim.Attach(r.Metrics)
	return r, nil
}

// Advance processes up to budget engine events and reports whether the run
// is finished.
func (r *Run) Advance(budget int) bool { return r.AdvanceUntil(budget, nil) }

// AdvanceUntil is Advance that also stops early once stop reports true
// (asked every 256 events), so a caller can bound a chunk by wall time
// whatever the cost of individual events.
func (r *Run) AdvanceUntil(budget int, stop func() bool) bool {
	for i := 0; i < budget; i++ {
		if !r.Sim.Step() {
			break
		}
		if stop != nil && i&255 == 255 && stop() {
			break
		}
	}
	r.syncColors()
	return r.Sim.Done()
}

func (r *Run) syncColors() {
	for id := len(r.Colors); id < r.Sim.NumTasks(); id++ {
		r.Colors = append(r.Colors, TaskColor(r.Sim.TaskInfo(sched.TaskID(id)).Name))
	}
}

// Fraction is the share of simulated time done, 0..1.
func (r *Run) Fraction() float64 {
	done, total := r.Sim.Progress()
	if total <= 0 {
		return 1
	}
	return float64(done) / float64(total)
}

// Report is the metrics report (complete once the run is done).
func (r *Run) Report() *metrics.Report {
	if r.report == nil || !r.Sim.Done() {
		name := r.Scenario.Name
		if name == "" {
			name = "untitled"
		}
		rep := r.Metrics.Build(r.Sim, name)
		r.report = &rep
	}
	return r.report
}

// MetricsJSON is the schedplay.metrics/v1 document.
func (r *Run) MetricsJSON() []byte {
	js, _ := json.MarshalIndent(r.Report(), "", "  ")
	return append(js, '\n')
}

// replay runs the scenario again with sink attached (see the file comment).
func (r *Run) replay(attach func(*sched.Sim) interface{ Close() error }) error {
	cfg, err := r.Scenario.Build(sched.DefaultLimits())
	if err != nil {
		return err
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return err
	}
	w := attach(sim)
	if err := sim.Run(); err != nil {
		return err
	}
	return w.Close()
}

// Ftrace is the run as ftrace text.
func (r *Run) Ftrace() ([]byte, error) {
	var b bytes.Buffer
	err := r.replay(func(sim *sched.Sim) interface{ Close() error } {
		w := ftrace.NewWriter(&b, sim.TaskInfo, sim.NumCPUs())
		sim.Attach(w)
		return w
	})
	return b.Bytes(), err
}

// Perfetto is the run as Chrome trace-event JSON.
func (r *Run) Perfetto() ([]byte, error) {
	var b bytes.Buffer
	err := r.replay(func(sim *sched.Sim) interface{ Close() error } {
		w := perfetto.NewWriter(&b, sim.TaskInfo, sim.NumCPUs())
		sim.Attach(w)
		return w
	})
	return b.Bytes(), err
}
