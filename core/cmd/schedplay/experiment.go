package main

// Shared machinery of `schedplay compare` and `schedplay sweep`: the flags,
// the expansion of configurations x seeds into runs, and the worker pool
// that runs them on every core. Each run is an independent, deterministic
// simulation; results are stored by job index, so the output does not
// depend on which worker finished first.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"schedplay/core/experiment"
	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// expFlags are the flags compare and sweep share: the run flags that make
// sense for a batch, plus the experiment's own.
type expFlags struct {
	run      runFlags
	runs     int
	metrics  multiFlag
	stat     string
	progress bool
	shard    shardFlags
}

func newExpFlagSet(name string, f *expFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	r := &f.run
	fs.StringVar(&r.preset, "preset", "", "use a built-in scenario (see `schedplay presets`)")
	fs.StringVar(&r.topology, "topology", "", "override the machine (see `schedplay topologies`)")
	fs.StringVar(&r.kernel, "kernel", "", "kernel profile, e.g. v5.8, v6.6, v6.18")
	fs.StringVar(&r.duration, "duration", "", "simulated time, Go duration syntax (10s, 250ms)")
	fs.StringVar(&r.seed, "seed", "", "first seed (runs use seed, seed+1, ...; default: the scenario's)")
	fs.Var(&r.sets, "set", "override a scenario key for every run, KEY=VALUE (repeatable)")
	fs.IntVar(&f.runs, "runs", 5, "runs (seeds) per configuration")
	fs.Var(&f.metrics, "metric", "metrics to report, comma-separated (repeatable); default: a standard set. Known: "+
		metricNames()+"; task metrics take @GROUP, busy takes @cpuN")
	fs.StringVar(&f.stat, "stat", "amean", "centre of each side: amean or median")
	fs.BoolVar(&f.progress, "progress", false, "show progress on stderr even when it is not a terminal")
	f.shard.register(fs)
	return fs
}

func metricNames() string {
	var n []string
	for _, d := range experiment.Catalogue() {
		n = append(n, d.Name)
	}
	return strings.Join(n, ", ")
}

func (f *expFlags) check() error {
	if f.runs < 1 || f.runs > 10000 {
		return badInput("-runs %d: want 1..10000", f.runs)
	}
	if f.stat != string(experiment.CenterMean) && f.stat != string(experiment.CenterMedian) {
		return badInput("-stat %q: want amean or median", f.stat)
	}
	return nil
}

// metricSpecs splits the -metric flags.
func (f *expFlags) metricSpecs() []string {
	var out []string
	for _, m := range f.metrics {
		for _, s := range strings.Split(m, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// loadExperiment reads the scenario and folds the run flags into it (at
// merge: the scenario the parts carry, flags already folded in).
func loadExperiment(fs *flag.FlagSet, f *expFlags, x *batchExec, stdin io.Reader, stderr io.Writer) (*scenario.Scenario, string, error) {
	if fs.NArg() > 1 {
		return nil, "", badInput("want at most one SCENARIO, got %d", fs.NArg())
	}
	return x.load(func() (*scenario.Scenario, string, error) {
		sc, name, err := loadScenarioWarn(fs.Arg(0), f.run.preset, stdin, stderr)
		if err != nil {
			return nil, "", err
		}
		if err := f.run.apply(sc); err != nil {
			return nil, "", err
		}
		if sc.Name != "" {
			name = sc.Name
		}
		return sc, name, nil
	})
}

// prepare plans the runs (experiment.PlanLazy: each configuration's
// first job is built, which validates it; the others are built by the
// worker that runs them, so the first runs start at once and the building
// is spread over the cores); overrides the scenario rejects are bad input.
func prepare(base *scenario.Scenario, name string, vars []experiment.Config, runs int) (*experiment.LazyPlan, error) {
	plan, err := experiment.PlanLazy(base, name, vars, runs)
	var pe experiment.PlanError
	if errors.As(err, &pe) {
		return nil, badInput("%v", pe.Err)
	}
	return plan, err
}

// jobOut is what the tables take from a finished run: its machine and
// kernel names and its measured values.
type jobOut struct {
	Topology, Kernel string
	Values           experiment.Values
}

// allJobs is the indices of every job of plan, in plan order.
func allJobs(plan *experiment.LazyPlan) []int {
	idx := make([]int, len(plan.Jobs))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// runAll runs the jobs idx of plan on a pool of GOMAXPROCS workers, each
// building its job as it takes it, and measures each as it finishes; the
// outcomes are in idx order. The first error in that order is returned,
// naming the configuration and seed.
func runAll(plan *experiment.LazyPlan, idx []int, vars []experiment.Config, prog *progress) ([]jobOut, error) {
	out := make([]jobOut, len(idx))
	errs := make([]error, len(idx))
	work := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(idx)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			domains := sched.NewDomainCache() // this worker's jobs build each sched domain tree once
			for k := range work {
				j, err := plan.Build(idx[k])
				var r experiment.Run
				if err == nil {
					r, err = experiment.ExecuteCached(j, domains)
				}
				if err == nil {
					out[k] = jobOut{Topology: r.Report.Topology, Kernel: r.Report.Kernel, Values: experiment.Measure(r)}
				}
				plan.Release(idx[k]) // its configuration is garbage now (each configuration's first is kept)
				errs[k] = err
				done <- k
			}
		}()
	}
	go func() {
		for k := range idx {
			work <- k
		}
		close(work)
		wg.Wait()
		close(done)
	}()
	n := 0
	for range done {
		n++
		prog.update(n, len(idx))
	}
	prog.finish()
	for k, err := range errs {
		if err != nil {
			j := plan.Jobs[idx[k]]
			return nil, badInput("%s: %s, seed %d: %v", quote.Clip(j.Name), quote.Clip(vars[j.Config].Label), j.Seed, err)
		}
	}
	return out, nil
}

// progress writes "what: n/total runs" on one rewritten stderr line.
type progress struct {
	w    io.Writer // nil: no progress
	what string
	last int
}

func newProgress(stderr io.Writer, force bool, what string) *progress {
	if !force && !isTerminal(stderr) {
		return &progress{}
	}
	return &progress{w: stderr, what: what}
}

func (p *progress) update(n, total int) {
	if p.w == nil {
		return
	}
	fmt.Fprintf(p.w, "\r%s: %d/%d runs", p.what, n, total)
	p.last = n
}

func (p *progress) finish() {
	if p.w != nil && p.last > 0 {
		fmt.Fprintln(p.w)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// selectMetrics resolves -metric against the scenario, or picks the
// default set from the finished runs (experiment.SelectMetrics).
func selectMetrics(specs []string, jobs []experiment.Job, vals []experiment.Values, vars []experiment.Config) ([]string, error) {
	names, err := experiment.SelectMetrics(specs, jobs, vals, vars)
	var ce experiment.CompletionError
	if errors.As(err, &ce) {
		return nil, badInput("-metric %v", err)
	}
	if err != nil {
		return nil, badInput("-metric: %v", err)
	}
	return names, nil
}

// values are the measured values of the outcomes, in job order.
func values(outs []jobOut) []experiment.Values {
	vals := make([]experiment.Values, len(outs))
	for i, o := range outs {
		vals[i] = o.Values
	}
	return vals
}

// allGroups is every task group of the jobs, in order of first appearance:
// the configurations differ when a -set changes a workload (more hackbench
// groups on side B), and a metric may name a group only one side has.
func allGroups(jobs []experiment.Job) []string { return experiment.Groups(jobs) }

// batch is a finished compare or sweep: every configuration over the
// seeds, measured, with the metrics to report.
type batch struct {
	jobs  []experiment.Job
	outs  []jobOut
	names []string          // resolved -metric, or the default set
	sides []experiment.Side // per configuration, the values in seed order
}

// runBatch plans, checks -metric against every configuration's task
// groups before anything runs, runs the jobs on every core (x decides
// which) and measures them. A nil batch: x is sharding, nothing to print.
func runBatch(sc *scenario.Scenario, name string, vars []experiment.Config, f *expFlags, x *batchExec, prog *progress) (*batch, error) {
	plan, err := prepare(sc, name, vars, f.runs)
	if err != nil {
		return nil, err
	}
	jobs := plan.Described()
	groups := allGroups(jobs)
	keep, err := experiment.Resolve(f.metricSpecs(), groups, maxCPUs(jobs))
	if err != nil {
		return nil, badInput("-metric: %v", err)
	}
	outs, ok, err := x.runJobs(plan, vars, keep, prog)
	if err != nil || !ok {
		return nil, err
	}
	vals := values(outs)
	names, err := selectMetrics(f.metricSpecs(), jobs, vals, vars)
	if err != nil {
		return nil, err
	}
	sides := make([]experiment.Side, len(vars))
	for i, j := range jobs {
		sides[j.Config] = append(sides[j.Config], vals[i])
	}
	return &batch{jobs: jobs, outs: outs, names: names, sides: sides}, nil
}
