package runner

// Warm-up: an idle pool worker runs the batch the page expects next (the
// current scenario's thread experiment), cut short, so that its first real
// job does not pay the code's first use. A fresh worker's WASM functions
// are compiled when first called and optimised later (docs/budgets.md
// "Where the time goes on the worker pool"): under Node, a fresh worker's
// first job of seed/sched-idle-wakeup takes tens of times its later ones.
// The warm-up walks what a job and an evaluation walk: it plans the batch
// (and keeps the plan for the real jobs, as a job would), runs each
// configuration's first job for warmSim of simulated time with the
// worker's sched domain cache (filling it with the batch's trees), encodes
// the values, and evaluates a small plan of the same batch from them; then
// it runs those jobs again, uncut, for a few hundred ms of wall time in
// all, so that the hot code is optimised too.
// Nothing is posted and no kept result changes: the real jobs run from
// their start and their values are the CLI's (the plan is deterministic,
// the domain cache gives the tree a build gives).
//
// It gives way to real work: it runs under jobMu (a job waits for it),
// lets the event loop run every warmSlice of simulated time and stops
// there once a job or any other request (a timeline run, an export) has
// arrived.

import (
	"encoding/json"
	"errors"
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

// warmSim is each warm-up run's simulated time: enough for a
// configuration's code paths to run (wakeups, ticks, balancing), short
// enough that a worker is free again within a few hundred ms even cold.
const warmSim = 2 * sched.Millisecond

// warmSlice is the simulated time between two looks for a request: a
// timeline run posted to a warming worker waits for at most one slice.
const warmSlice = 250 * sched.Microsecond

// warmHotMs is the wall time the warm-up spends on running the batch's
// jobs for longer (warmHot), shared by its configurations.
const warmHotMs = 300

// warmEvalRuns is the runs per cell of the evaluation's warm-up plan;
// warmMaxConfigs bounds the configurations run (a sweep has one per point).
const (
	warmEvalRuns   = 2
	warmMaxConfigs = 8
)

// warm runs batch b's code once as described above; errors end it quietly
// (the real batch reports them).
func (s *Service) warm(b protocol.BatchSpec) {
	s.jobMu.Lock()
	defer s.jobMu.Unlock()
	since := s.requests.Load()
	if s.jobsWaiting.Load() > 0 {
		return
	}
	p, _, err := s.planTimed(b)
	if err != nil {
		return
	}
	plan := p.queue().plan
	var vals []experiment.Values
	var where []string
	var firsts []int
	defer func() { s.warmHot(plan, firsts, since) }()
	for i := range plan.Jobs {
		if plan.Jobs[i].Config != len(vals) {
			continue // each configuration's first job only (plan order: configuration by configuration)
		}
		if len(vals) == warmMaxConfigs || s.stopWarm(since) {
			break
		}
		v, w, err := s.warmRun(plan, i, since)
		if err != nil {
			return
		}
		vals, where, firsts = append(vals, v), append(where, w), append(firsts, i)
	}
	if len(vals) == 0 || b.Kind != protocol.KindThread || s.stopWarm(since) {
		return // a sweep's evaluation plan would be the whole sweep
	}
	b.Runs = warmEvalRuns
	ev, err := PlanBatch(b) // its own plan: the kept one stays the real batch's
	if err != nil {
		return
	}
	q := ev.queue()
	results := make([]string, len(q.jobs))
	for i := range results {
		k := q.jobs[i].Config % len(vals) // each job takes its configuration's warm-up values
		results[i] = encodeJobResult(vals[k], where[k])
	}
	all, err := json.Marshal(results)
	if err == nil && setResults(ev, string(all)) == nil {
		ev.ReportJSON() // its errors are the real evaluation's to report
	}
}

// warmHot runs the jobs firsts of plan, each from its start for its share
// of warmHotMs of wall time (never to its end, whose values nobody needs),
// so that the engine's hot functions run long enough for the WASM engine
// to optimise them (V8 compiles a function with its baseline compiler
// first and optimises it once it has run enough); it stops for a request.
func (s *Service) warmHot(plan *experiment.LazyPlan, firsts []int, since int64) {
	for _, i := range firsts {
		if s.stopWarm(since) {
			return
		}
		j, err := plan.Build(i)
		if err != nil {
			return
		}
		x, err := experiment.StartCached(j, s.domains)
		if err != nil {
			return
		}
		for t0 := s.now(); s.now()-t0 < warmHotMs/float64(len(firsts)) && !x.Advance(warmSlice); {
			if s.stopWarm(since) {
				return
			}
		}
	}
}

// stopWarm lets the host's event loop deliver what the page posted (a
// worker's messages arrive only while Go yields) and reports whether a Job
// request is waiting or any other request came after request count since.
func (s *Service) stopWarm(since int64) bool {
	s.yield()
	return s.jobsWaiting.Load() > 0 || s.requests.Load() != since
}

var errWarmStopped = errors.New("warm-up stopped for a request")

// warmRun runs job i of plan for warmSim, in slices of warmSlice between
// which a request stops it, and returns its values.
func (s *Service) warmRun(plan *experiment.LazyPlan, i int, since int64) (experiment.Values, string, error) {
	j, err := plan.Build(i)
	if err != nil {
		return nil, "", err
	}
	j.Cfg.Duration = min(j.Cfg.Duration, warmSim)
	x, err := experiment.StartCached(j, s.domains)
	if err != nil {
		return nil, "", err
	}
	for !x.Advance(warmSlice) {
		if s.stopWarm(since) {
			return nil, "", errWarmStopped
		}
	}
	r, err := x.Finish()
	if err != nil {
		return nil, "", err
	}
	return experiment.Measure(r), fmt.Sprintf("topology %s, kernel %s", r.Report.Topology, r.Report.Kernel), nil
}
