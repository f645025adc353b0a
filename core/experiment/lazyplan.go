package experiment

// LazyPlan: Plan with each job's sched.Config built when the job is about
// to run. Building a job's configuration (its machine, its tasks, a
// workload generator's expansion for the seed) is most of what planning
// costs: for seed/cluster-hybrid's 900 kernel-build jobs it is seconds
// natively and minutes under WebAssembly. A caller that runs a few jobs of
// a plan (a browser pool worker, a shard) builds only those; the jobs,
// their order, seeds and configurations are Plan's, and Build(i) does for
// job i exactly what Plan does, so a job runs the same either way.
//
// Each configuration's first job is built at once: that validates the
// configuration as Plan does (bad input fails before anything runs) and
// gives MaxCPUs and the jobs' weights their machine and duration.

import (
	"fmt"
	"strconv"

	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// LazyPlan is a plan whose jobs' Cfg are built on demand.
type LazyPlan struct {
	// Jobs are Plan's jobs; a job's Cfg is zero until Build (each
	// configuration's first job is built).
	Jobs  []Job
	name  string
	runs  int
	scs   []*scenario.Scenario // per configuration: the scenario with its overrides
	built []bool
}

// PlanLazy plans like Plan, building only each configuration's first job.
func PlanLazy(base *scenario.Scenario, name string, cfgs []Config, runs int) (*LazyPlan, error) {
	p := &LazyPlan{name: name, runs: runs}
	for ci, c := range cfgs {
		sc := base.Clone()
		for _, kv := range c.Sets {
			if err := sc.Set(kv); err != nil {
				return nil, PlanError{quote.Errorf("%s %q: %v", c.Flag, kv, err)}
			}
		}
		// The task groups, with the workloads expanded (an override of a
		// workload parameter may change them; the seed does not).
		full, err := sc.Expanded()
		if err != nil {
			return nil, PlanError{fmt.Errorf("%s: %s: %v", quote.Clip(name), quote.Clip(c.Label), err)}
		}
		var groups []string
		for _, t := range full.Tasks {
			groups = append(groups, t.Name)
		}
		p.scs = append(p.scs, sc)
		for i := 0; i < runs; i++ {
			p.Jobs = append(p.Jobs, Job{Config: ci, Seed: sc.Seed + uint64(i), Name: name, Groups: groups})
			p.built = append(p.built, false)
		}
		if runs > 0 {
			if _, err := p.Build(ci * runs); err != nil {
				return nil, PlanError{fmt.Errorf("%s: %s: %v", quote.Clip(name), quote.Clip(c.Label), err)}
			}
		}
	}
	return p, nil
}

// Build returns job i with its Cfg, building it now if it is not built.
// Build and Release of different jobs may run at the same time (a CLI
// worker pool): each writes only its own job's entries and reads the
// configurations' scenarios, which nothing writes after planning.
func (p *LazyPlan) Build(i int) (Job, error) {
	if p.built[i] {
		return p.Jobs[i], nil
	}
	j := &p.Jobs[i]
	s := p.scs[j.Config].Clone()
	if err := s.Set("seed=" + strconv.FormatUint(j.Seed, 10)); err != nil {
		return Job{}, err
	}
	cfg, err := s.Build(sched.DefaultLimits())
	if err != nil {
		return Job{}, err
	}
	j.Cfg, p.built[i] = cfg, true
	return *j, nil
}

// Release drops job i's Cfg (a finished job's), keeping each
// configuration's first: a worker that runs many jobs holds one built
// configuration per configuration, not one per job.
func (p *LazyPlan) Release(i int) {
	if i%max(p.runs, 1) != 0 && p.built[i] {
		p.Jobs[i].Cfg, p.built[i] = sched.Config{}, false
	}
}

// Described is Jobs with each job's Cfg its configuration's first job's
// (shared: read it, never run it): the machine and duration every job of
// the configuration runs, for describing a plan before its jobs are built
// (MaxCPUs, a plan digest, the report's duration).
func (p *LazyPlan) Described() []Job {
	out := make([]Job, len(p.Jobs))
	for i, j := range p.Jobs {
		j.Cfg = p.Proto(i).Cfg
		out[i] = j
	}
	return out
}

// Proto is the built first job of job i's configuration: its machine and
// duration are job i's.
func (p *LazyPlan) Proto(i int) Job { return p.Jobs[p.Jobs[i].Config*p.runs] }
