package runner

// SweepRun: a sweep (experiment.SweepSpec: one or two keys over values,
// N seeds per point) run job by job, in slices of simulated time, in the
// browser worker (or on the page when there is no worker). It plans what
// `schedplay sweep` plans (experiment.SweepConfigs x runs seeds, point
// major, experiment.Plan), runs each job with experiment.Execution, which
// gives the values of experiment.Execute whatever the slicing, and picks
// the metrics as the CLI does (experiment.SelectMetrics), so the table
// and the CSV are the CLI's for the same scenario, sweep and seeds. The
// job queue and its progress are jobQueue's (jobqueue.go).

import (
	"encoding/json"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/protocol"
	"schedplay/wasm/report"
)

// MaxSweepJobs bounds the runs of one browser sweep (protocol's limit).
const MaxSweepJobs = protocol.MaxSweepJobs

// SweepRun is a sweep in progress.
type SweepRun struct {
	jobQueue
	Name string
	Spec experiment.SweepSpec
	axes []experiment.SweepAxis
	cfgs []experiment.Config
}

// NewSweepRun plans the sweep of sc. Bad input (a malformed spec, a value
// the scenario rejects, an unknown metric) fails here, before anything
// runs, with the CLI's messages.
func NewSweepRun(sc *scenario.Scenario, spec experiment.SweepSpec) (*SweepRun, error) {
	axes, err := spec.Check()
	if err != nil {
		return nil, err
	}
	npts := 1
	for _, ax := range axes {
		npts *= len(ax.Values)
	}
	if n := npts * spec.Runs; n > MaxSweepJobs {
		return nil, fmt.Errorf("%d points x %d runs = %d runs; the limit in the browser is %d (the CLI has none)", npts, spec.Runs, n, MaxSweepJobs)
	}
	name := scName(sc)
	cfgs := experiment.SweepConfigs(axes)
	plan, err := experiment.PlanLazy(sc, name, cfgs, spec.Runs)
	if err != nil {
		return nil, err
	}
	jobs := plan.Jobs
	if _, err := experiment.Resolve(spec.Metrics, experiment.Groups(jobs), experiment.MaxCPUs(jobs)); err != nil {
		return nil, fmt.Errorf("metric: %v", err)
	}
	s := &SweepRun{Name: name, Spec: spec, axes: axes, cfgs: cfgs}
	s.jobQueue = newJobQueue(name, plan, func(j experiment.Job) string {
		return fmt.Sprintf("%s, seed %d", cfgs[j.Config].Label, j.Seed)
	})
	return s, nil
}

// Result is the finished sweep, its metrics picked as the CLI picks them.
func (s *SweepRun) Result() (*experiment.Sweep, error) {
	if !s.complete() {
		return nil, s.notDone()
	}
	names, err := experiment.SelectMetrics(s.Spec.Metrics, s.jobs, s.vals, s.cfgs)
	if err != nil {
		return nil, fmt.Errorf("metric %v", err)
	}
	return experiment.NewSweep(s.Name, s.axes, s.jobs, s.vals, names, s.Spec.Runs, s.Spec.Center()), nil
}

// NewSweep decodes a scenario and a sweep spec (JSON
// experiment.SweepSpec) and plans the sweep.
func NewSweep(scenarioJSON, specJSON string) (*SweepRun, error) {
	sc, err := scenario.Decode([]byte(scenarioJSON))
	if err != nil {
		return nil, err
	}
	var spec experiment.SweepSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		return nil, fmt.Errorf("sweep: %v", err)
	}
	return NewSweepRun(sc, spec)
}

// Report renders the finished sweep for the page.
func (s *SweepRun) Report() (*report.SweepReport, error) {
	sw, err := s.Result()
	if err != nil {
		return nil, err
	}
	return report.NewSweepReport(sw), nil
}

// ReportJSON is Report as JSON.
func (s *SweepRun) ReportJSON() (string, error) {
	rep, err := s.Report()
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(rep)
	return string(b), err
}
