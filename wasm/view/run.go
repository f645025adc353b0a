package view

// Run: one simulation as the page sees it. The engine runs elsewhere
// (wasm/runner, in the Web Worker or, without one, on a goroutine of the
// page): the page feeds the streamed record batches to the timeline
// (Ingest), progress and task names as they arrive, and the metrics
// report once at the end (Finish). An imported trace arrives the same way
// (trace.go). The chunking does not change the result (a run is a pure
// function of its config).

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/codec"
)

// MaxTimelineRecords bounds the streamed events a run's timeline keeps
// (about 24 to 48 bytes each in the page's heap): twice the largest
// preset's (seed/newidle-rt-latency, 4.1 million), so that a long run of
// a big machine cannot exhaust the tab. The metrics, computed in the
// worker, cover the whole run either way (docs/engine.md, Memory).
const MaxTimelineRecords = 8 << 20

// Run is one simulation's timeline, task table and report.
type Run struct {
	Scenario *scenario.Scenario
	Timeline *Timeline
	// TimelineLimit is the records the timeline keeps (0:
	// MaxTimelineRecords; tests set less); past it the timeline ends at
	// the last kept event and Cut reports where.
	TimelineLimit int64
	kept          int64 // records fed to the timeline
	isCut         bool  // the timeline stopped at cut
	cut           sched.Time
	Colors        []RGB // by TaskID, grown as tasks appear
	// Palette is Colors with each task's group (TaskInfo.Group, numbered
	// in order of first appearance) and the group's legend colour, for
	// the timeline's sub-pixel columns (density.go).
	Palette *Palette
	groups  map[string]int32
	report  *metrics.Report

	// Groups are the machine's CPUs by LLC, the timeline's lane groups
	// (lanegroups.go; nil for one LLC and for an imported trace).
	Groups []LaneGroup

	// Cgroups are the scenario's cgroup paths in cgroup number order
	// (Cgroups[k-1] is cgroup k, the number the throttle events carry).
	Cgroups []string

	// TraceName is the file name of an imported trace (trace.go), "" for
	// a simulation.
	TraceName string

	// What the engine has reported so far.
	ncpu   int
	dur    sched.Time
	now    sched.Time
	events int64
	done   bool
	err    error
	tasks  []sched.TaskInfo
}

// NewRun prepares the page side of a run of sc. It builds the config (not
// the simulation) to learn the CPU count and duration and to reject a bad
// scenario before anything is sent; what only sched.New checks (admission
// control, limits) comes back from the engine as the run's error. The
// page does not construct the simulation itself: on big machines that is
// a long task of its own (sched domains and tasks of a 256-CPU machine, in
// WASM).
func NewRun(sc *scenario.Scenario) (*Run, error) {
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
	r.Groups = LaneGroups(&cfg.Machine)
	for _, cg := range cfg.Cgroups {
		r.Cgroups = append(r.Cgroups, cg.Path)
	}
	return r, nil
}

// Ingest feeds one streamed batch: compact records, the simulated time and
// event count reached, and the tasks created since the previous batch.
func (r *Run) Ingest(records []byte, now sched.Time, events int64, newTasks []sched.TaskInfo) error {
	r.tasks = append(r.tasks, newTasks...)
	r.now, r.events = now, events
	defer r.syncColors()
	if r.isCut {
		return nil
	}
	limit := r.TimelineLimit
	if limit <= 0 {
		limit = MaxTimelineRecords
	}
	n := int64(len(records) / codec.RecordSize)
	over := r.kept+n > limit
	if over {
		n = max(limit-r.kept, 0)
		records = records[:n*codec.RecordSize]
	}
	r.kept += n
	err := codec.DecodeRecords(records, r.ncpu, r.Timeline)
	if over && err == nil {
		// The timeline ends here: close what is open, as at the run's end.
		r.cut, r.isCut = r.Timeline.Now, true
		r.Timeline.Event(&sched.Event{Time: r.cut, Kind: sched.EvEnd, CPU: -1, Prev: sched.NoTask, Next: sched.NoTask})
	}
	r.Timeline.IndexLOD()
	return err
}

// Cut reports whether the timeline stopped at MaxTimelineRecords
// (TimelineLimit) before the run's end, and at what simulated time.
func (r *Run) Cut() (sched.Time, bool) { return r.cut, r.isCut }

// CutNotice is the page's message for a cut timeline.
func (r *Run) CutNotice() string {
	head := fmt.Sprintf("The timeline stops at %s: it keeps the first %.1f million events, so that the tab's memory lasts. ",
		FormatDur(int64(r.cut)), float64(cmp.Or(r.TimelineLimit, MaxTimelineRecords))/1e6)
	if r.TraceName != "" {
		return head + "The metrics cover the whole trace; for every event, cut the trace shorter or summarise it with the CLI (schedplay trace-metrics)."
	}
	return head + "The metrics cover the whole run; for every event, shorten the run or write a trace with the CLI (schedplay run -trace)."
}

// Finish ends the run with the engine's metrics report (nil if the run
// failed) and error.
func (r *Run) Finish(rep *metrics.Report, err error) {
	r.report, r.err, r.done = rep, err, true
	if err != nil && rep == nil {
		r.report = &metrics.Report{}
	}
}

// NumCPUs is the machine's CPU count.
func (r *Run) NumCPUs() int { return r.ncpu }

// NumTasks is the number of tasks known so far.
func (r *Run) NumTasks() int { return len(r.tasks) }

// TaskInfo describes task id (a zero TaskInfo if it is not known yet).
func (r *Run) TaskInfo(id sched.TaskID) sched.TaskInfo {
	if id < 0 || int(id) >= len(r.tasks) {
		return sched.TaskInfo{ID: id}
	}
	return r.tasks[id]
}

// Done reports whether the run has finished (its report arrived).
func (r *Run) Done() bool { return r.done }

// Err is the run's error, if it failed.
func (r *Run) Err() error { return r.err }

// Now is the simulated time reached.
func (r *Run) Now() sched.Time { return r.now }

// Duration is the simulated length of the run.
func (r *Run) Duration() sched.Time { return r.dur }

// Progress is the simulated time done and the total.
func (r *Run) Progress() (done, total sched.Time) { return r.Now(), r.Duration() }

// Events is the number of engine events processed so far.
func (r *Run) Events() int64 { return r.events }

func (r *Run) syncColors() {
	if r.Palette == nil {
		r.Palette, r.groups = &Palette{}, map[string]int32{}
	}
	p := r.Palette
	for id := len(r.Colors); id < r.NumTasks(); id++ {
		info := r.TaskInfo(sched.TaskID(id))
		r.Colors = append(r.Colors, TaskColor(info.Name))
		g, ok := r.groups[info.Group]
		if !ok {
			g = int32(len(p.GroupColor))
			r.groups[info.Group] = g
			p.GroupColor = append(p.GroupColor, GroupColor(info.Group))
		}
		p.Group = append(p.Group, g)
	}
	p.Task = r.Colors
}

// Fraction is the share of simulated time done, 0..1.
func (r *Run) Fraction() float64 {
	done, total := r.Progress()
	if total <= 0 {
		return 1
	}
	return float64(done) / float64(total)
}

// Report is the metrics report (empty until the run is done).
func (r *Run) Report() *metrics.Report {
	if r.report == nil {
		return &metrics.Report{}
	}
	return r.report
}

// MetricsJSON is the schedplay.metrics/v1 document.
func (r *Run) MetricsJSON() []byte {
	js, _ := json.MarshalIndent(r.Report(), "", "  ")
	return append(js, '\n')
}

// CgroupPath names cgroup k (from 1), or "cgroup k" if it is unknown.
func (r *Run) CgroupPath(k int) string {
	if k >= 1 && k <= len(r.Cgroups) {
		return r.Cgroups[k-1]
	}
	return "cgroup " + strconv.Itoa(k)
}
