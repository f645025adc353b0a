package experiment

// Planning and executing the runs of an experiment: configurations x seeds
// (compare, sweep) or variants x configurations x seeds (a thread), each a
// scenario with `-set` overrides built into a sched.Config; and running one
// of them to the end with a metrics.Collector and a metrics.Samples attached.
// Callers decide how to schedule the jobs: the CLI on a worker pool, the
// browser worker one after the other with progress between them.

import (
	"fmt"
	"slices"

	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// Config is one configuration: overrides applied on top of a scenario.
type Config struct {
	Label string   // how errors and tables name it: "A", "EPYC / SM_IDLE on", ...
	Flag  string   // where the overrides came from, for errors ("-a", "experiment")
	Sets  []string // KEY=VALUE
}

// Job is one run: a configuration and a seed.
type Job struct {
	Config int // index into the planned configurations
	Seed   uint64
	Cfg    sched.Config
	Name   string   // scenario name, for the report
	Groups []string // scenario task groups, in order
}

// PlanError is bad input found while planning (an override the scenario
// rejects); the CLI reports it with exit status 2.
type PlanError struct{ Err error }

func (e PlanError) Error() string { return e.Err.Error() }

// Groups lists the task groups of every job, in first-seen order (a
// configuration may change them, e.g. a workload's size).
func Groups(jobs []Job) []string {
	seen := map[string]bool{}
	var out []string
	for _, j := range jobs {
		for _, g := range j.Groups {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// Plan validates every configuration and builds one job per configuration
// and seed (base.Seed, base.Seed+1, ..., runs of them; configuration-major),
// so that bad input fails before anything runs.
func Plan(base *scenario.Scenario, name string, cfgs []Config, runs int) ([]Job, error) {
	p, err := PlanLazy(base, name, cfgs, runs) // lazyplan.go: the same jobs, built here all at once
	if err != nil {
		return nil, err
	}
	for i := range p.Jobs {
		if _, err := p.Build(i); err != nil {
			return nil, PlanError{fmt.Errorf("%s: %s: %v", quote.Clip(name), quote.Clip(cfgs[p.Jobs[i].Config].Label), err)}
		}
	}
	return p.Jobs, nil
}

// ThreadConfigs lists the configurations of e as a thread runs them:
// variant-major (every configuration of the first variant, then of the
// next), each the variant's overrides followed by the configuration's.
func ThreadConfigs(e *scenario.Experiment) []Config {
	var out []Config
	for _, v := range e.VariantList() {
		for _, c := range e.Configs {
			label := c.Name
			if v.Name != "" {
				label = v.Name + " / " + c.Name
			}
			sets := append(append([]string{}, v.Set...), c.Set...)
			out = append(out, Config{Label: label, Flag: "experiment", Sets: sets})
		}
	}
	return out
}

// ThreadCube arranges measured values, one per job of a thread's plan
// (ThreadConfigs x runs), as EvaluateThread takes them.
func ThreadCube(e *scenario.Experiment, vals []Values, runs int) [][][]Values {
	vl := e.VariantList()
	cube := make([][][]Values, len(vl))
	for vi := range vl {
		cube[vi] = make([][]Values, len(e.Configs))
		for ci := range e.Configs {
			k := (vi*len(e.Configs) + ci) * runs
			cube[vi][ci] = vals[k : k+runs]
		}
	}
	return cube
}

// Execute runs one job to the end (Start + Finish; execution.go runs it
// in slices).
func Execute(j Job) (Run, error) { return ExecuteCached(j, nil) }

// ExecuteCached is Execute with StartCached's reuse of sched domain trees.
func ExecuteCached(j Job, dc *sched.DomainCache) (Run, error) {
	x, err := StartCached(j, dc)
	if err != nil {
		return Run{}, err
	}
	return x.Finish()
}

// MaxCPUs is the largest machine of the jobs.
func MaxCPUs(jobs []Job) int {
	n := 0
	for _, j := range jobs {
		n = max(n, j.Cfg.Machine.NumCPUs())
	}
	return n
}

// SelectMetrics resolves the asked metrics (Resolve) against the jobs'
// task groups and machines, or picks the default set (Defaults) from the
// measured runs when none is asked; an asked `completion` that some run
// cannot give (its tasks still run at the end) is an error naming the
// configuration and seed. vals are per job, cfgs the planned
// configurations.
func SelectMetrics(specs []string, jobs []Job, vals []Values, cfgs []Config) ([]string, error) {
	groups, ncpu := Groups(jobs), MaxCPUs(jobs)
	if len(specs) == 0 {
		return Defaults(groups, ncpu, vals), nil
	}
	names, err := Resolve(specs, groups, ncpu)
	if err != nil {
		return nil, err
	}
	if slices.Contains(names, "completion") {
		for i, v := range vals {
			if _, ok := v["completion"]; !ok {
				return nil, CompletionError{cfgs[jobs[i].Config].Label, jobs[i].Seed}
			}
		}
	}
	return names, nil
}

// CompletionError: `completion` was asked of a run whose tasks still run
// at its end.
type CompletionError struct {
	Label string // the configuration
	Seed  uint64
}

func (e CompletionError) Error() string {
	return fmt.Sprintf("completion: tasks still run at the end of %s, seed %d; completion needs a workload whose tasks all exit", e.Label, e.Seed)
}
