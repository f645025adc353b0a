package view

// Run: one simulation as the page sees it. It comes in two kinds:
//
//   - local (Sim != nil): the engine runs here, driven in bounded chunks
//     (Advance with an event budget, then yield to the browser). This is
//     the main-thread fallback when no Web Worker is available, and what
//     host tests and the native budget baseline use.
//   - remote (Sim == nil, NewRemoteRun): the engine runs in the worker
//     (wasm/worker); the page feeds the streamed record batches to the
//     timeline (Ingest), progress and task names as they arrive, and the
//     metrics report once at the end (Finish).
//
// The UI reads both through the same methods (NumCPUs, Progress, TaskInfo,
// Report...), so components do not know where the engine ran. The chunking
// does not change the result (a run is a pure function of its config).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

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

	// TraceName is the file name of an imported trace (trace.go), "" for
	// a simulation.
	TraceName string

	// Remote runs: what the worker has reported so far.
	ncpu   int
	dur    sched.Time
	now    sched.Time
	events int64
	done   bool
	err    error
	tasks  []sched.TaskInfo
}

// NewRemoteRun prepares the page side of a run executed by the worker. It
// builds the config (not the simulation) to learn the CPU count and
// duration and to reject a bad scenario before anything is sent; what only
// sched.New checks (admission control, limits) comes back from the worker
// as the run's error. Constructing the simulation here as well cost the
// main thread one long task per run start on big machines (sched domains
// and tasks of a 256-CPU machine, in WASM).
func NewRemoteRun(sc *scenario.Scenario) (*Run, error) {
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return nil, err
	}
	n := cfg.Machine.NumCPUs()
	if n < 1 || n > cfg.Limits.MaxCPUs || cfg.Duration <= 0 {
		return nil, fmt.Errorf("topology %q: %d CPUs, duration %s", cfg.Machine.Name, n, cfg.Duration)
	}
	r := &Run{Scenario: sc, Timeline: NewTimeline(n), ncpu: n, dur: cfg.Duration}
	r.Timeline.SetUtilGrid(r.dur, UtilBuckets)
	return r, nil
}

// Remote reports whether the engine of r runs elsewhere (the worker).
func (r *Run) Remote() bool { return r.Sim == nil }

// Ingest feeds one streamed batch: compact records, the simulated time and
// event count reached, and the tasks created since the previous batch.
func (r *Run) Ingest(records []byte, now sched.Time, events int64, newTasks []sched.TaskInfo) error {
	r.tasks = append(r.tasks, newTasks...)
	r.now, r.events = now, events
	err := DecodeRecords(records, r.ncpu, r.Timeline)
	r.Timeline.IndexLOD()
	r.syncColors()
	return err
}

// Finish ends a remote run with the worker's metrics report (nil if the
// run failed) and error.
func (r *Run) Finish(rep *metrics.Report, err error) {
	r.report, r.err, r.done = rep, err, true
	if err != nil && rep == nil {
		r.report = &metrics.Report{}
	}
}

// NumCPUs is the machine's CPU count.
func (r *Run) NumCPUs() int {
	if r.Sim != nil {
		return r.Sim.NumCPUs()
	}
	return r.ncpu
}

// NumTasks is the number of tasks known so far.
func (r *Run) NumTasks() int {
	if r.Sim != nil {
		return r.Sim.NumTasks()
	}
	return len(r.tasks)
}

// TaskInfo describes task id (a zero TaskInfo if it is not known yet).
func (r *Run) TaskInfo(id sched.TaskID) sched.TaskInfo {
	if r.Sim != nil {
		return r.Sim.TaskInfo(id)
	}
	if id < 0 || int(id) >= len(r.tasks) {
		return sched.TaskInfo{ID: id}
	}
	return r.tasks[id]
}

// Done reports whether the run has finished (remote: its report arrived).
func (r *Run) Done() bool {
	if r.Sim != nil {
		return r.Sim.Done()
	}
	return r.done
}

// Err is the run's error, if it failed.
func (r *Run) Err() error {
	if r.Sim != nil {
		return r.Sim.Err()
	}
	return r.err
}

// Now is the simulated time reached.
func (r *Run) Now() sched.Time {
	if r.Sim != nil {
		return r.Sim.Now()
	}
	return r.now
}

// Duration is the simulated length of the run.
func (r *Run) Duration() sched.Time {
	if r.Sim != nil {
		return r.Sim.Config().Duration
	}
	return r.dur
}

// Progress is the simulated time done and the total.
func (r *Run) Progress() (done, total sched.Time) { return r.Now(), r.Duration() }

// Events is the number of engine events processed so far.
func (r *Run) Events() int64 {
	if r.Sim != nil {
		return r.Sim.EventsProcessed()
	}
	return r.events
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
	r.Timeline.SetUtilGrid(cfg.Duration, UtilBuckets)
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
	r.Timeline.IndexLOD()
	r.syncColors()
	return r.Sim.Done()
}

func (r *Run) syncColors() {
	for id := len(r.Colors); id < r.NumTasks(); id++ {
		r.Colors = append(r.Colors, TaskColor(r.TaskInfo(sched.TaskID(id)).Name))
	}
}

// Fraction is the share of simulated time done, 0..1.
func (r *Run) Fraction() float64 {
	done, total := r.Progress()
	if total <= 0 {
		return 1
	}
	return float64(done) / float64(total)
}

// Report is the metrics report (complete once the run is done; a remote
// run has one only then).
func (r *Run) Report() *metrics.Report {
	if r.Sim == nil {
		if r.report == nil {
			return &metrics.Report{}
		}
		return r.report
	}
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
	if r.Scenario == nil {
		return errors.New("an imported trace has no scenario to replay: export its metrics instead")
	}
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
