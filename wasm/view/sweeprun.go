package view

// SweepRun: a sweep (experiment.SweepSpec: one or two keys over values,
// N seeds per point) run job by job, in slices of simulated time, for the
// browser worker (and the page when there is no worker). It plans what
// `schedplay sweep` plans (experiment.SweepConfigs x runs seeds, point
// major, experiment.Plan), runs each job with experiment.Execution, which
// gives the values of experiment.Execute whatever the slicing, and picks
// the metrics as the CLI does (experiment.SelectMetrics), so the table
// and the CSV are the CLI's for the same scenario, sweep and seeds.
//
// Progress is weighted by simulated CPU time (duration x CPUs), so a
// point with more CPUs or a longer duration counts for what it costs.

import (
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// MaxSweepJobs bounds the runs of one browser sweep.
const MaxSweepJobs = 2000

// SweepRun is a sweep in progress.
type SweepRun struct {
	Name   string
	Spec   experiment.SweepSpec
	axes   []experiment.SweepAxis
	cfgs   []experiment.Config
	jobs   []experiment.Job
	vals   []experiment.Values
	weight []float64
	total  float64
	cur    *experiment.Execution
	doneW  float64
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
	jobs, err := experiment.Plan(sc, name, cfgs, spec.Runs)
	if err != nil {
		return nil, err
	}
	if _, err := experiment.Resolve(spec.Metrics, experiment.Groups(jobs), experiment.MaxCPUs(jobs)); err != nil {
		return nil, fmt.Errorf("metric: %v", err)
	}
	s := &SweepRun{Name: name, Spec: spec, axes: axes, cfgs: cfgs, jobs: jobs}
	for _, j := range jobs {
		w := float64(j.Cfg.Duration) * float64(max(j.Cfg.Machine.NumCPUs(), 1))
		s.weight = append(s.weight, w)
		s.total += w
	}
	return s, nil
}

// Jobs is the number of runs the sweep takes.
func (s *SweepRun) Jobs() int { return len(s.jobs) }

// Finished is the number of runs done.
func (s *SweepRun) Finished() int { return len(s.vals) }

// Done reports whether every run has finished.
func (s *SweepRun) Done() bool { return len(s.vals) == len(s.jobs) }

// Current names the point and seed of the run in progress.
func (s *SweepRun) Current() string {
	i := min(len(s.vals), len(s.jobs)-1)
	return fmt.Sprintf("%s, seed %d", s.cfgs[s.jobs[i].Config].Label, s.jobs[i].Seed)
}

// Fraction is the share of the work done, weighted by simulated CPU time.
func (s *SweepRun) Fraction() float64 {
	if s.total == 0 {
		return 1
	}
	w := s.doneW
	if s.cur != nil {
		if now, end := s.cur.Progress(); end > 0 {
			w += s.weight[len(s.vals)] * float64(now) / float64(end)
		}
	}
	return min(1, w/s.total)
}

// Advance runs slices of dt simulated time until stop reports true (asked
// after every slice) or the sweep is done; it reports done.
func (s *SweepRun) Advance(dt sched.Time, stop func() bool) (bool, error) {
	for !s.Done() {
		if s.cur == nil {
			x, err := experiment.Start(s.jobs[len(s.vals)])
			if err != nil {
				return false, s.jobErr(err)
			}
			s.cur = x
		}
		if s.cur.Advance(dt) {
			r, err := s.cur.Finish()
			if err != nil {
				return false, s.jobErr(err)
			}
			s.doneW += s.weight[len(s.vals)]
			s.vals = append(s.vals, experiment.Measure(r))
			s.cur = nil
		}
		if stop != nil && stop() {
			break
		}
	}
	return s.Done(), nil
}

func (s *SweepRun) jobErr(err error) error {
	return fmt.Errorf("%s: %s: %v", s.Name, s.Current(), err)
}

// Result is the finished sweep, its metrics picked as the CLI picks them.
func (s *SweepRun) Result() (*experiment.Sweep, error) {
	if !s.Done() {
		return nil, fmt.Errorf("%d of %d runs done", len(s.vals), len(s.jobs))
	}
	names, err := experiment.SelectMetrics(s.Spec.Metrics, s.jobs, s.vals, s.cfgs)
	if err != nil {
		return nil, fmt.Errorf("metric %v", err)
	}
	return experiment.NewSweep(s.Name, s.axes, s.jobs, s.vals, names, s.Spec.Runs, s.Spec.Center()), nil
}
