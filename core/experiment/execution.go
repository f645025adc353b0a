package experiment

// Execution: one job run in slices of simulated time, for callers that
// must stay responsive while it runs (the browser worker posts progress
// and sees a cancel between slices). Execute is Start + Finish; cutting
// the run into slices does not change its result, because
// sched.Sim.RunUntil is cut-independent (see its comment), so a job run
// here gives the same values as in the CLI's worker pool.

import (
	"fmt"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// Execution is a job in progress.
type Execution struct {
	job Job
	sim *sched.Sim
	col *metrics.Collector
	rec *metrics.Samples
}

// Start prepares a job's simulation with its consumers attached.
func Start(j Job) (*Execution, error) { return StartCached(j, nil) }

// StartCached is Start with the job's sched domain tree reused from dc
// (sched.NewCached): the jobs of a batch share a few machines and kernels,
// so a worker that keeps one cache for its jobs builds each tree once. A
// nil dc builds it.
func StartCached(j Job, dc *sched.DomainCache) (*Execution, error) {
	sim, err := sched.NewCached(j.Cfg, dc)
	if err != nil {
		return nil, err
	}
	x := &Execution{job: j, sim: sim, col: metrics.New(sim.NumCPUs()), rec: &metrics.Samples{}}
	sim.Attach(x.col)
	sim.Attach(x.rec)
	return x, nil
}

// Advance runs dt more of simulated time and reports whether the run has
// reached its end (or stopped on an error, which Finish reports).
func (x *Execution) Advance(dt sched.Time) bool {
	now, end := x.sim.Progress()
	x.sim.RunUntil(min(end, now+max(dt, 1)))
	return x.sim.Done() || x.sim.Err() != nil
}

// Progress returns the simulated time done and the run's total.
func (x *Execution) Progress() (done, total sched.Time) { return x.sim.Progress() }

// Events is the number of engine events processed so far.
func (x *Execution) Events() int64 { return x.sim.EventsProcessed() }

// Finish runs what is left and builds the run's results.
func (x *Execution) Finish() (Run, error) {
	if err := x.sim.Run(); err != nil {
		return Run{}, fmt.Errorf("run stopped: %v", err)
	}
	rep := x.col.Build(x.sim, x.job.Name)
	grp := make([]string, x.sim.NumTasks())
	for i := range grp {
		grp[i] = x.sim.TaskInfo(sched.TaskID(i)).Group
	}
	return Run{Report: rep, Groups: grp, GroupOrder: x.job.Groups, Rec: x.rec}, nil
}
