package view

// ThreadRun: a scenario's experiment block (its mailing-list thread) run
// job by job, in slices of simulated time, for the browser worker (and the
// page when there is no worker): the same plan as `schedplay compare
// -preset NAME` (experiment.ThreadConfigs x runs seeds, configuration
// major), each job run by experiment.Execution, which gives the values of
// experiment.Execute whatever the slicing. Between slices the caller posts
// progress and yields, which is when a cancel is seen.
//
// Progress is weighted by simulated CPU time (duration x CPUs) so that a
// 144-CPU variant counts for what it costs and the estimated time left is
// meaningful.

import (
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// ThreadRun is an experiment in progress.
type ThreadRun struct {
	Name   string
	Sc     *scenario.Scenario
	Runs   int
	Center experiment.Center
	jobs   []experiment.Job
	names  []string
	vals   []experiment.Values
	labels []string
	weight []float64
	total  float64
	next   int // next job to start
	cur    *experiment.Execution
	doneW  float64 // weight of the finished jobs
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
	jobs, err := experiment.Plan(sc, name, experiment.ThreadConfigs(e), runs)
	if err != nil {
		return nil, err
	}
	var groups []string
	for _, t := range sc.Tasks {
		groups = append(groups, t.Name)
	}
	ncpu := 0
	t := &ThreadRun{Name: name, Sc: sc, Runs: runs, Center: experiment.CenterMean, jobs: jobs}
	for _, j := range jobs {
		n := j.Cfg.Machine.NumCPUs()
		ncpu = max(ncpu, n)
		w := float64(j.Cfg.Duration) * float64(max(n, 1))
		t.weight = append(t.weight, w)
		t.total += w
	}
	if t.names, err = experiment.Resolve(e.Metrics, groups, ncpu); err != nil {
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

// Jobs is the number of runs the experiment takes.
func (t *ThreadRun) Jobs() int { return len(t.jobs) }

// Finished is the number of runs done.
func (t *ThreadRun) Finished() int { return len(t.vals) }

// Done reports whether every run has finished.
func (t *ThreadRun) Done() bool { return len(t.vals) == len(t.jobs) }

// Current names the configuration and seed of the run in progress.
func (t *ThreadRun) Current() string {
	i := min(len(t.vals), len(t.jobs)-1)
	cf := experiment.ThreadConfigs(t.Sc.Experiment)[t.jobs[i].Config]
	return fmt.Sprintf("%s, seed %d", cf.Label, t.jobs[i].Seed)
}

// Fraction is the share of the work done, weighted by simulated CPU time.
func (t *ThreadRun) Fraction() float64 {
	if t.total == 0 {
		return 1
	}
	w := t.doneW
	if t.cur != nil {
		now, end := t.cur.Progress()
		if end > 0 {
			w += t.weight[len(t.vals)] * float64(now) / float64(end)
		}
	}
	return min(1, w/t.total)
}

// Advance runs slices of dt simulated time until stop reports true (asked
// after every slice) or the experiment is done; it reports done.
func (t *ThreadRun) Advance(dt sched.Time, stop func() bool) (bool, error) {
	for !t.Done() {
		if t.cur == nil {
			x, err := experiment.Start(t.jobs[len(t.vals)])
			if err != nil {
				return false, t.jobErr(err)
			}
			t.cur = x
		}
		if t.cur.Advance(dt) {
			r, err := t.cur.Finish()
			if err != nil {
				return false, t.jobErr(err)
			}
			i := len(t.vals)
			t.vals = append(t.vals, experiment.Measure(r))
			if i%(len(t.Sc.Experiment.Configs)*t.Runs) == 0 {
				t.labels = append(t.labels, fmt.Sprintf("topology %s, kernel %s", r.Report.Topology, r.Report.Kernel))
			}
			t.doneW += t.weight[i]
			t.cur = nil
		}
		if stop != nil && stop() {
			break
		}
	}
	return t.Done(), nil
}

func (t *ThreadRun) jobErr(err error) error {
	return fmt.Errorf("%s: %s: %v", t.Name, t.Current(), err)
}

// Result evaluates the finished experiment.
func (t *ThreadRun) Result() (*experiment.ThreadRender, error) {
	if !t.Done() {
		return nil, fmt.Errorf("%d of %d runs done", len(t.vals), len(t.jobs))
	}
	e := t.Sc.Experiment
	res, err := experiment.EvaluateThread(e, t.names, experiment.ThreadCube(e, t.vals, t.Runs), t.Center)
	if err != nil {
		return nil, err
	}
	var seeds []uint64
	for i := 0; i < t.Runs; i++ {
		seeds = append(seeds, t.jobs[i].Seed)
	}
	return &experiment.ThreadRender{Name: t.Name, Runs: t.Runs, Seeds: seeds, Labels: t.labels, Res: res}, nil
}
