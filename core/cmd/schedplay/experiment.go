package main

// Shared machinery of `schedplay compare` and `schedplay sweep`: the flags,
// the expansion of configurations x seeds into runs, and the worker pool
// that runs them on every core. Each run is an independent, deterministic
// simulation; results are stored by job index, so the output does not
// depend on which worker finished first.

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"schedplay/core/experiment"
	"schedplay/core/metrics"
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

// variant is one configuration: overrides applied on top of the scenario.
type variant struct {
	label string   // how errors and tables name it: "A", "kernel.hz=250", ...
	flag  string   // the flag the overrides came from, for errors
	sets  []string // KEY=VALUE
}

// job is one run: a configuration and a seed.
type job struct {
	variant int
	seed    uint64
	cfg     sched.Config
	name    string
	groups  []string // scenario task groups, in order
}

// cloneScenario copies what Set may change (the maps; the rest is
// replaced, never mutated in place).
func cloneScenario(sc *scenario.Scenario) *scenario.Scenario {
	c := *sc
	c.Features = maps.Clone(sc.Features)
	c.Sysctl = maps.Clone(sc.Sysctl)
	c.HW = maps.Clone(sc.HW)
	return &c
}

// loadExperiment reads the scenario and folds the run flags into it.
func loadExperiment(fs *flag.FlagSet, f *expFlags, stdin io.Reader, stderr io.Writer) (*scenario.Scenario, string, error) {
	if fs.NArg() > 1 {
		return nil, "", badInput("want at most one SCENARIO, got %d", fs.NArg())
	}
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
}

// prepare validates every configuration and builds one job per
// configuration and seed (seeds first, first..first+runs-1), so that bad
// input fails before anything runs.
func prepare(base *scenario.Scenario, name string, vars []variant, runs int) ([]job, error) {
	var jobs []job
	for vi, v := range vars {
		sc := cloneScenario(base)
		for _, kv := range v.sets {
			if err := sc.Set(kv); err != nil {
				return nil, badInput("%s %q: %v", v.flag, kv, err)
			}
		}
		// The task groups, with the workloads expanded (a -set of a
		// workload parameter may change them; the seed does not).
		full, err := sc.Expanded()
		if err != nil {
			return nil, badInput("%s: %s: %v", name, v.label, err)
		}
		var groups []string
		for _, t := range full.Tasks {
			groups = append(groups, t.Name)
		}
		first := sc.Seed
		for i := 0; i < runs; i++ {
			seed := first + uint64(i)
			s := cloneScenario(sc)
			if err := s.Set("seed=" + strconv.FormatUint(seed, 10)); err != nil {
				return nil, err
			}
			cfg, err := s.Build(sched.DefaultLimits())
			if err != nil {
				return nil, badInput("%s: %s: %v", name, v.label, err)
			}
			jobs = append(jobs, job{variant: vi, seed: seed, cfg: cfg, name: name, groups: groups})
		}
	}
	return jobs, nil
}

// runOne runs one job to the end.
func runOne(j job) (experiment.Run, error) {
	sim, err := sched.New(j.cfg)
	if err != nil {
		return experiment.Run{}, err
	}
	col := metrics.New(sim.NumCPUs())
	rec := &experiment.Recorder{}
	sim.Attach(col)
	sim.Attach(rec)
	if err := sim.Run(); err != nil {
		return experiment.Run{}, fmt.Errorf("run stopped: %v", err)
	}
	rep := col.Build(sim, j.name)
	grp := make([]string, sim.NumTasks())
	for i := range grp {
		grp[i] = sim.TaskInfo(sched.TaskID(i)).Group
	}
	return experiment.Run{Report: rep, Groups: grp, GroupOrder: j.groups, Rec: rec}, nil
}

// runAll runs the jobs on a pool of GOMAXPROCS workers. The first error
// in job order is returned, naming the configuration and seed.
func runAll(jobs []job, vars []variant, prog *progress) ([]experiment.Run, error) {
	out := make([]experiment.Run, len(jobs))
	errs := make([]error, len(jobs))
	work := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i], errs[i] = runOne(jobs[i])
				done <- i
			}
		}()
	}
	go func() {
		for i := range jobs {
			work <- i
		}
		close(work)
		wg.Wait()
		close(done)
	}()
	n := 0
	for range done {
		n++
		prog.update(n, len(jobs))
	}
	prog.finish()
	for i, err := range errs {
		if err != nil {
			j := jobs[i]
			return nil, badInput("%s: %s, seed %d: %v", j.name, vars[j.variant].label, j.seed, err)
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
// default set from the finished runs; explicitly asked metrics that some
// run cannot give are bad input.
func selectMetrics(specs []string, groups []string, jobs []job, vals []experiment.Values, vars []variant) ([]string, error) {
	ncpu := 0
	for _, j := range jobs {
		ncpu = max(ncpu, j.cfg.Machine.NumCPUs())
	}
	if len(specs) == 0 {
		return experiment.Defaults(groups, ncpu, vals), nil
	}
	names, err := experiment.Resolve(specs, groups, ncpu)
	if err != nil {
		return nil, badInput("-metric: %v", err)
	}
	for _, n := range names {
		if n != "completion" {
			continue
		}
		for i, v := range vals {
			if _, ok := v[n]; !ok {
				return nil, badInput("-metric completion: tasks still run at the end of %s, seed %d; completion needs a workload whose tasks all exit",
					vars[jobs[i].variant].label, jobs[i].seed)
			}
		}
	}
	return names, nil
}

// measureAll measures every run.
func measureAll(runs []experiment.Run) []experiment.Values {
	vals := make([]experiment.Values, len(runs))
	for i, r := range runs {
		vals[i] = experiment.Measure(r)
	}
	return vals
}

// splitSets splits an -a/-b argument: KEY=VALUE pairs separated by
// spaces or commas.
func splitSets(flagName, s string) ([]string, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == ',' })
	for _, kv := range f {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, badInput("%s %q: want KEY=VALUE", flagName, kv)
		}
	}
	return f, nil
}

// allGroups is every task group of the jobs, in order of first appearance:
// the configurations differ when a -set changes a workload (more hackbench
// groups on side B), and a metric may name a group only one side has.
func allGroups(jobs []job) []string {
	seen := map[string]bool{}
	var out []string
	for _, j := range jobs {
		for _, g := range j.groups {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}
