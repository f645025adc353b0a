package runner

// ThreadRun: a scenario's experiment block (its mailing-list thread) run
// job by job, in slices of simulated time, in the browser worker (or on
// the page when there is no worker): the same plan as `schedplay compare
// -preset NAME` (experiment.ThreadConfigs x runs seeds, configuration
// major), each job run by experiment.Execution, which gives the values of
// experiment.Execute whatever the slicing. The job queue and its progress
// are jobQueue's (jobqueue.go).

import (
	"encoding/json"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/report"
)

// ThreadRun is an experiment in progress.
type ThreadRun struct {
	jobQueue
	Name   string
	Sc     *scenario.Scenario
	Runs   int
	Center experiment.Center
	names  []string
}

// NewThreadRun plans sc's experiment with runs seeds per cell (0: the
// block's own count). Bad input (no experiment block, an override the
// scenario rejects, an unknown metric) fails here, before anything runs.
func NewThreadRun(sc *scenario.Scenario, runs int) (*ThreadRun, error) {
	e := sc.Experiment
	if e == nil {
		return nil, fmt.Errorf("%s has no experiment block", scName(sc))
	}
	if runs == 0 {
		runs = e.EffectiveRuns()
	}
	if runs < 1 || runs > scenario.MaxExpRuns {
		return nil, fmt.Errorf("runs %d: want 1..%d", runs, scenario.MaxExpRuns)
	}
	name := scName(sc)
	cfgs := experiment.ThreadConfigs(e)
	plan, err := experiment.PlanLazy(sc, name, cfgs, runs)
	if err != nil {
		return nil, err
	}
	jobs := plan.Jobs
	var groups []string
	for _, t := range sc.Tasks {
		groups = append(groups, t.Name)
	}
	t := &ThreadRun{Name: name, Sc: sc, Runs: runs, Center: experiment.CenterMean}
	t.jobQueue = newJobQueue(name, plan, func(j experiment.Job) string {
		return fmt.Sprintf("%s, seed %d", cfgs[j.Config].Label, j.Seed)
	})
	if t.names, err = experiment.Resolve(e.Metrics, groups, experiment.MaxCPUs(jobs)); err != nil {
		return nil, fmt.Errorf("%s: experiment.metrics: %v", name, err)
	}
	return t, nil
}

func scName(sc *scenario.Scenario) string {
	if sc.Name == "" {
		return "untitled"
	}
	return sc.Name
}

// Result evaluates the finished experiment.
func (t *ThreadRun) Result() (*experiment.ThreadRender, error) {
	if !t.complete() {
		return nil, t.notDone()
	}
	e := t.Sc.Experiment
	// Each variant's machine and kernel, from its first run.
	var labels []string
	for k := 0; k < len(t.jobs); k += len(e.Configs) * t.Runs {
		labels = append(labels, t.where[k])
	}
	res, err := experiment.EvaluateThread(e, t.names, experiment.ThreadCube(e, t.vals, t.Runs), t.Center)
	if err != nil {
		return nil, err
	}
	var seeds []uint64
	for i := 0; i < t.Runs; i++ {
		seeds = append(seeds, t.jobs[i].Seed)
	}
	return &experiment.ThreadRender{Name: t.Name, Runs: t.Runs, Seeds: seeds, Labels: labels, Res: res}, nil
}

// NewThread decodes a scenario and plans its experiment with runs seeds
// per cell (0: the block's own count).
func NewThread(scenarioJSON string, runs int) (*ThreadRun, error) {
	sc, err := scenario.Decode([]byte(scenarioJSON))
	if err != nil {
		return nil, err
	}
	return NewThreadRun(sc, runs)
}

// Report evaluates the finished experiment for the page.
func (t *ThreadRun) Report() (*report.ThreadReport, error) {
	res, err := t.Result()
	if err != nil {
		return nil, err
	}
	return report.NewThreadReport(res), nil
}

// ReportJSON is Report as JSON.
func (t *ThreadRun) ReportJSON() (string, error) {
	rep, err := t.Report()
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(rep)
	return string(b), err
}
