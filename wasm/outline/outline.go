// Package outline is the page's cheap view of a batch's plan (a thread
// experiment or a sweep): each job's weight and label, in plan order,
// worked out without building a machine per job, for the worker pool's
// progress, time left and the estimate shown before a batch starts.
//
// It needs the scenario format and the experiment plans' configurations,
// never the engine, so the page links it without linking the simulator
// (the page's deps test, wasm/deps_test.go). The workers weigh their jobs
// with the same [JobWeight] (wasm/runner's job queue), and wasm/runner's
// tests check that an outline matches the plan job by job.
package outline

import (
	"encoding/json"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
	"schedplay/wasm/protocol"
)

// Outline is what the page knows of a plan before it runs: each job's
// weight (simulated CPU time, as the workers' progress weighs it) and its
// label ("configuration, seed N"), in plan order, and its configuration
// (an index into the plan's configurations), by which the pool learns
// how long a configuration's jobs take (wasm/pool/order.go).
type Outline struct {
	Weights []float64
	Labels  []string
	Configs []int
}

// Total is the weight of every job.
func (o Outline) Total() float64 {
	t := 0.0
	for _, w := range o.Weights {
		t += w
	}
	return t
}

// JobWeight is a job's share of a batch's work: simulated CPU time.
func JobWeight(d sched.Time, cpus int) float64 { return float64(d) * float64(max(cpus, 1)) }

// Batch outlines the batch b of sc (a decoded copy of b.Scenario)
// without building a machine per job: the configurations' overrides are
// applied to the scenario and its topology's CPUs counted once each.
func Batch(sc *scenario.Scenario, b protocol.BatchSpec) (Outline, error) {
	var cfgs []experiment.Config
	runs := b.Runs
	switch b.Kind {
	case protocol.KindThread:
		if sc.Experiment == nil {
			name := sc.Name
			if name == "" {
				name = "untitled"
			}
			return Outline{}, fmt.Errorf("%s has no experiment block", name)
		}
		if runs == 0 {
			runs = sc.Experiment.EffectiveRuns()
		}
		cfgs = experiment.ThreadConfigs(sc.Experiment)
	case protocol.KindSweep:
		var spec experiment.SweepSpec
		if err := json.Unmarshal([]byte(b.Spec), &spec); err != nil {
			return Outline{}, fmt.Errorf("sweep: %v", err)
		}
		axes, err := spec.Check()
		if err != nil {
			return Outline{}, err
		}
		runs, cfgs = spec.Runs, experiment.SweepConfigs(axes)
	default:
		return Outline{}, fmt.Errorf("batch kind %q", b.Kind)
	}
	var o Outline
	for ci, c := range cfgs {
		s := sc.Clone()
		for _, kv := range c.Sets {
			if err := s.Set(kv); err != nil {
				return Outline{}, fmt.Errorf("%s %q: %v", c.Flag, kv, err)
			}
		}
		cpus := 1
		if m, err := topology.Preset(s.Topology); err == nil {
			cpus = m.NumCPUs()
		}
		for i := 0; i < runs; i++ {
			o.Weights = append(o.Weights, JobWeight(s.Duration, cpus))
			o.Labels = append(o.Labels, fmt.Sprintf("%s, seed %d", c.Label, s.Seed+uint64(i)))
			o.Configs = append(o.Configs, ci)
		}
	}
	return o, nil
}
