//go:build linux

// Command realkernel compares the simulator with the Linux kernel it runs on.
//
// The simulator claims to follow the kernel's rules (EEVDF, the tick, wakeup
// preemption, load balancing). The cheapest check of that claim is to run the
// same simple workloads on the real kernel and in the simulator and put the
// numbers side by side. For a handful of cases (CPU hogs at different nice levels
// or policies pinned to one CPU, a periodic task against a hog, three hogs on two
// CPUs) it measures, per task:
//
//   - the CPU share (se.sum_exec_runtime over wall time): tests load weights and
//     the fairness of the pick;
//   - context switches, voluntary and involuntary (nr_*switches): tests when the
//     kernel preempts, which depends on HZ, the base slice and the preemption model;
//   - migrations (se.nr_migrations): tests placement and load balancing.
//
// A pipe ping-pong case (pipe.go, id pipe-pingpong) measures microseconds per
// round trip of perf bench sched pipe style ping-pong, pinned to one CPU and
// across two, beside the simulator's demo/pipe-pingpong program.
//
// The mixed cases (mixed.go, ids mix-*) leave every task free on both CPUs:
// hogs, a periodic task and seeded run/sleep tasks whose demand is below,
// near and above two CPUs. Each is measured -repeats times; the report shows
// per task the mean and range of CPU share, wait per slice (run_delay /
// pcount), migrations and switches over the real runs and over the
// simulator's seeds, for this code and for the simulator before issue 18's
// fixes (-before, before.go).
//
// -vmcosts (vmcosts.go) measures this machine's wakeup-path costs instead:
// micro-workloads that only wake up (timer wakeups onto an idle and a busy
// CPU, pipe wakeups across CPUs), recorded with tracefs, reduced to medians
// and spreads of each cost the simulator models (docs/costs.md, "The 2-vCPU
// VM"); -vmcosts-trace derives the same quantities from existing captures.
//
// The workloads are a small C program (worker.c, compiled with gcc into a temp
// dir) so that no runtime (GC, extra threads) adds switches of its own. Each case
// runs for -duration with the harness itself kept on CPU 0; counters are read from
// /proc/PID/sched, /proc/PID/schedstat and /proc/PID/stat before the workers are
// released and after -duration, and the differences are reported. Then each case's
// scenario (written to scripts/realkernel/cases/<id>.json with this machine's HZ
// and preemption model) is run through `go run ./core/cmd/schedplay run -o json`;
// if that fails the report says the simulator is not available.
//
// Usage, from the repository root, as root:
//
//	go run ./scripts/realkernel [-duration 10s] [-cases a,b] [-pipe-loops N] [-repeats 3] [-before REV] [-o docs/real-kernel.md] [-json FILE] [-no-sim]
//
// Regenerating docs/real-kernel.md (all cases, the pipe case included) needs an
// otherwise idle machine: go run ./scripts/realkernel -o docs/real-kernel.md.
// One case alone, without touching the docs: -cases pipe-pingpong -o /tmp/r.md.
// The wakeup-path costs: -vmcosts -trace DIR -o /tmp/vmcosts.md.
//
// The group weights of a cgroup case as the kernel keeps them (debugfs.go,
// debugfit.go; docs/real-kernel-notes.md item 4):
//
//	go run ./scripts/realkernel -cases mix-over -repeats 1 -no-sim -sample-debug /tmp/d -o /tmp/d/r.md
//	go run ./scripts/realkernel -fit-debug /tmp/d/mix-over.debug.txt -fit-from 1.25s
//
// The balancer's passes, from a capture with -trace-softirq and from the
// simulator's trace alike (passes.go):
//
//	go run ./core/cmd/schedplay run -trace /tmp/s1.txt -trace-softirq -seed 1 scripts/realkernel/cases/mix-over.json
//	go run ./scripts/realkernel -passes /tmp/d/mix-over.real.txt,/tmp/s1.txt
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "realkernel:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("realkernel", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./scripts/realkernel [flags]   (from the repository root, as root)\n\n"+
			"Measures simple workloads on this machine's kernel and runs the same scenarios in the simulator.\n"+
			"Regenerate the report on an otherwise idle machine with:\n"+
			"  go run ./scripts/realkernel -o docs/real-kernel.md -json docs/real-kernel.json\n"+
			"One case alone, e.g. the pipe ping-pong (us per round trip pinned and across two CPUs):\n"+
			"  go run ./scripts/realkernel -cases "+pipeCaseID+" -pipe-loops 50000 -o /tmp/real-kernel.md\n\nFlags:\n")
		fs.PrintDefaults()
	}
	duration := fs.Duration("duration", 10*time.Second, "measurement time per case")
	caseList := fs.String("cases", "", "comma-separated case ids (default: all): nice0-vs-nice5, nice0-vs-idle, two-hogs, periodic-vs-hog, three-hogs-two-cpus, fifo-vs-other, cg-*, mix-below, mix-near, mix-over, "+pipeCaseID)
	pipeLoops := fs.Int64("pipe-loops", 200000, "round trips per placement of the "+pipeCaseID+" case")
	mdOut := fs.String("o", "", "Markdown report (default: <repo>/docs/real-kernel.md)")
	jsonOut := fs.String("json", "", "also write the raw measurements as JSON here")
	noSim := fs.Bool("no-sim", false, "skip the simulator column")
	repeats := fs.Int("repeats", 3, "real runs of each mixed, unpinned case (mix-*), for their spread")
	before := fs.String("before", defaultBeforeRev, "commit whose simulator gives the mixed cases' before column (\"\" to skip; before.go)")
	traceDir := fs.String("trace", "", "record each case's first real run with tracefs into DIR/<id>.real.txt (tracefs.go)")
	traceSoftirq := fs.Bool("trace-softirq", false, "with -trace: also record the SCHED softirq's entries (irq:softirq_entry vec 7)")
	debugDir := fs.String("sample-debug", "", "sample "+schedDebugFile+" during each case's first real run into DIR/<id>.debug.txt (debugfs.go)")
	debugEvery := fs.Duration("sample-every", 10*time.Millisecond, "interval of -sample-debug's reads")
	fitFrom := fs.Duration("fit-from", 0, "with -fit-debug: the per-level ratios and other load from this time after the release on")
	fitDebug := fs.String("fit-debug", "", "fit the group weights of a -sample-debug FILE against calc_group_shares() and print the result; measures nothing (debugfit.go)")
	passes := fs.String("passes", "", "comma-separated traces, groups separated by ';' (a -trace -trace-softirq capture, or schedplay run -trace FILE -trace-softirq): count the periodic balance passes' outcomes and the mix tasks' migrations; measures nothing (passes.go)")
	passTasks := fs.String("passes-tasks", "hog-,periodic-,rsa-,rsb-", "-passes: comm prefixes of the mix tasks")
	replay := fs.String("replay-passes", "", "a -trace -trace-softirq capture of a cgroup mix: decide each busy pass again from the trace's runnable tasks and -replay-debug's samples (passes_replay.go); measures nothing")
	replayDebug := fs.String("replay-debug", "", "-replay-passes: the capture's -sample-debug file")
	passFrom := fs.Duration("passes-from", 1250*time.Millisecond, "-passes: count from this time after the first wakeup of a mix task on")
	section := fs.String("section", "", "replace only the part of the -o file between <!-- realkernel:NAME begin --> and <!-- realkernel:NAME end --> (appended if missing) with these cases, e.g. -section cgroups -cases cg-1-vs-4,...")
	vmcosts := fs.Bool("vmcosts", false, "measure this machine's wakeup-path costs on micro-workloads with tracefs instead (vmcosts.go); the table goes to -o, or stdout")
	vmDur := fs.Duration("vmcosts-duration", 5*time.Second, "-vmcosts: recording time per micro-workload")
	vmTrace := fs.String("vmcosts-trace", "", "comma-separated existing tracefs captures to derive the same quantities from (no measurement)")
	vmTasks := fs.String("vmcosts-tasks", "periodic-,rs", "-vmcosts-trace: comm prefixes of the tasks whose wakeups count")
	vmOnly := fs.String("vmcosts-only", "", "-vmcosts: comma-separated micro-workloads to run (default all: idle-timer, busy-timer, idle-pipe, busy-pipe)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *vmcosts || *vmTrace != "" {
		return runVMCosts(*vmcosts, *vmDur, *vmTrace, *vmTasks, *vmOnly, *traceDir, *mdOut)
	}
	if *fitDebug != "" {
		return printDebugFit(os.Stdout, *fitDebug, fitFrom.Seconds())
	}
	if *replay != "" {
		return printReplayPasses(os.Stdout, *replay, *replayDebug, strings.Split(*passTasks, ","), passFrom.Nanoseconds())
	}
	if *passes != "" {
		var groups [][]string
		for _, g := range strings.Split(*passes, ";") {
			groups = append(groups, strings.Split(g, ","))
		}
		return printPasses(os.Stdout, groups, strings.Split(*passTasks, ","), passFrom.Nanoseconds())
	}
	if fs.NArg() > 0 || *duration <= 0 || *pipeLoops <= 0 || *repeats <= 0 || *debugEvery <= 0 {
		return fmt.Errorf("usage: go run ./scripts/realkernel [-duration D] [-cases a,b] [-pipe-loops N] [-repeats N] [-before REV] [-trace DIR] [-sample-debug DIR] [-sample-every D] [-o FILE] [-json FILE] [-no-sim]")
	}
	rest, withPipe := splitPipe(*caseList)
	var cases []caseSpec
	if rest != "-" {
		var err error
		if cases, err = selectCases(rest); err != nil {
			return err
		}
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	if *mdOut == "" {
		*mdOut = filepath.Join(root, "docs", "real-kernel.md")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sweepStale() // staleness.go

	res := results{Schema: "schedplay.realkernel/v1",
		Command: strings.TrimSpace("go run ./scripts/realkernel " + strings.Join(args, " "))}
	res.Machine = gatherMachineInfo()
	if res.Machine.CPUs < 2 {
		return fmt.Errorf("need at least 2 CPUs, have %d", res.Machine.CPUs)
	}
	if len(cases) > 0 {
		if err := measureAll(ctx, root, cases, *duration, *repeats, record{*traceDir, *traceSoftirq, *debugDir, *debugEvery}, &res); err != nil {
			return err
		}
	}
	if withPipe {
		pr, err := measurePipe(ctx, root, *pipeLoops)
		if err != nil {
			return err
		}
		if err := simPipe(ctx, root, pr, &res.Machine, *noSim); err != nil {
			return err
		}
		res.Pipe = pr
	}
	var bt *beforeTree
	for i := range res.Cases {
		c := cases[slices.IndexFunc(cases, func(c caseSpec) bool { return c.ID == res.Cases[i].ID })] // measureAll may skip some
		if err := addSim(ctx, root, c, &res.Cases[i], &res.Machine, *duration, *noSim); err != nil {
			return err
		}
		if !c.mixed() || *noSim || *before == "" {
			continue
		}
		if bt == nil {
			t, err := extractBefore(root, *before)
			if err != nil {
				return err
			}
			defer os.RemoveAll(t.Dir)
			bt = &t
		}
		addBefore(ctx, root, *bt, &res.Cases[i])
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := writeAtomic(*jsonOut, append(b, '\n')); err != nil {
			return err
		}
	}
	md := res.markdown()
	if *section != "" {
		old, err := os.ReadFile(*mdOut)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		md = spliceSection(string(old), *section, res.sectionMarkdown())
	}
	if err := writeAtomic(*mdOut, []byte(md)); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", *mdOut)
	return nil
}

// record says what to record of each case's first real run besides its
// counters: a tracefs trace (tracefs.go) and samples of sched/debug
// (debugfs.go); an empty directory records nothing.
type record struct {
	traceDir     string
	traceSoftirq bool
	debugDir     string
	debugEvery   time.Duration
}

// first is rec for run k of a case: everything for the first, nothing after.
func (rec record) first(k int) record {
	if k > 0 {
		return record{}
	}
	return rec
}

// measureAll runs every case on the real kernel, with schedstats on and the
// harness pinned to CPU 0, restoring both afterwards.
// A mixed case is run repeats times; its tasks keep every run and report
// their mean.
func measureAll(ctx context.Context, root string, cases []caseSpec, d time.Duration, repeats int, rec record, res *results) error {
	restore, state := enableSchedstats()
	defer restore()
	res.Machine.Schedstats = state
	old, err := pinSelf(maskOf([]int{0}))
	if err != nil {
		return err
	}
	defer pinSelf(old)
	tmp, err := os.MkdirTemp("", "realkernel-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := buildWorker(root, tmp)
	if err != nil {
		return err
	}
	if _, _, err := cgroupMount(); err != nil { // cgroups.go
		var flat []caseSpec
		for _, c := range cases {
			if len(c.Cgroups) == 0 {
				flat = append(flat, c)
			} else {
				fmt.Fprintf(os.Stderr, "skipping %s: %v\n", c.ID, err)
			}
		}
		cases = flat
	}
	for _, c := range cases {
		n := 1
		if c.mixed() {
			n = repeats
		}
		var runs [][]realTask
		var nz noise
		var cgStats []cpuStat
		for k := range n {
			fmt.Fprintf(os.Stderr, "measuring %s for %v (run %d of %d)\n", c.ID, d, k+1, n)
			measured, nzk, cg, err := measureCase(ctx, bin, c, d, rec.first(k))
			if err != nil {
				return fmt.Errorf("case %s: %v", c.ID, err)
			}
			if late := time.Duration(measured[0].ElapsedNS) - d; late > d/100 {
				fmt.Fprintf(os.Stderr, "warning: %s run %d lasted %v, %v more than -duration\n", c.ID, k+1, time.Duration(measured[0].ElapsedNS), late)
			}
			runs, cgStats = append(runs, measured), cg
			nz.MachineSwitches += nzk.MachineSwitches
			nz.TaskSwitches += nzk.TaskSwitches
			nz.StealMS += nzk.StealMS
		}
		nz.MachineSwitches, nz.TaskSwitches, nz.StealMS = nz.MachineSwitches/int64(n), nz.TaskSwitches/int64(n), nz.StealMS/int64(n)
		cr := caseResult{ID: c.ID, Description: c.Description, DurationNS: d.Nanoseconds(),
			CPUs: len(c.cpuSet()), Noise: nz, CaseFile: "scripts/realkernel/cases/" + c.ID + ".json"}
		if c.mixed() {
			cr.Repeats = n
		}
		ideal := c.expectedShares()
		for i, t := range c.tasks() {
			w := t.Spec.workload()
			var perRun []realTask
			for _, r := range runs {
				perRun = append(perRun, r[i])
			}
			tr := taskResult{Name: t.Name, Policy: t.Spec.Policy, Nice: t.Spec.Nice,
				CPUs: t.Spec.CPUs, Workload: w, IdealPct: ideal[t.Name], Real: meanReal(perRun)}
			if c.mixed() {
				tr.RealRuns = perRun
			}
			cr.Tasks = append(cr.Tasks, tr)
		}
		for i, g := range c.Cgroups {
			gr := cgroupResult{Path: g.Path, Real: cgStats[i]}
			for j, t := range c.tasks() {
				if t.Spec.Cgroup == g.Path || strings.HasPrefix(t.Spec.Cgroup, g.Path+"/") {
					gr.RealUsage += runs[0][j].SharePct
				}
			}
			cr.Cgroups = append(cr.Cgroups, gr)
		}
		res.Cases = append(res.Cases, cr)
	}
	return nil
}

// addSim writes the case's scenario file and fills in the simulator column.
func addSim(ctx context.Context, root string, c caseSpec, cr *caseResult, m *machineInfo, d time.Duration, skip bool) error {
	_, v1, mntErr := cgroupMount() // cgroups.go; without one, v1 as on this project's machine
	sc, err := c.scenarioJSON(d, m.HZ, scenarioPreempt(m.Preempt), v1 || mntErr != nil)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(root, cr.CaseFile), sc); err != nil {
		return err
	}
	if skip {
		cr.SimError = "skipped with -no-sim"
		return nil
	}
	fmt.Fprintf(os.Stderr, "simulating %s\n", c.ID)
	sim, seeds, err := runSim(ctx, root, cr.CaseFile)
	if err != nil {
		cr.SimError = err.Error()
		return nil
	}
	if c.mixed() {
		cr.SimDurationNS = sim.DurationNS
	}
	for i := range cr.Tasks {
		t, ok := sim.task(cr.Tasks[i].Name)
		if !ok {
			cr.SimError = "simulator metrics have no task " + cr.Tasks[i].Name
			for j := range cr.Tasks {
				cr.Tasks[j].Sim = nil
			}
			return nil
		}
		cr.Tasks[i].Sim = &t
		if c.mixed() {
			for _, m := range seeds {
				st, _ := m.task(t.Name) // meanMetrics checked every seed has it
				cr.Tasks[i].SimSeeds = append(cr.Tasks[i].SimSeeds, st)
			}
		}
		cr.Tasks[i].SimSharePct = 100 * float64(t.RuntimeNS) / float64(sim.DurationNS)
	}
	for i := range cr.Cgroups {
		for _, g := range sim.Cgroups {
			if g.Path == c.simGroup(cr.Cgroups[i].Path) {
				g := g
				cr.Cgroups[i].Sim = &g
				cr.Cgroups[i].SimUsage = 100 * float64(g.UsageNS) / float64(sim.DurationNS)
			}
		}
	}
	return nil
}

// scenarioPreempt maps the kernel's model name to the scenario's kernel.preempt
// (which has no "rt"; full is the closest).
func scenarioPreempt(model string) string {
	switch model {
	case "none", "voluntary", "full", "lazy":
		return model
	}
	return "full"
}

// repoRoot finds the directory of the schedplay go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module schedplay") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the schedplay module (no go.mod with module schedplay)")
		}
		dir = parent
	}
}

// writeAtomic writes a file via a temporary name and a rename, so readers never
// see half a file.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// spliceSection replaces the text between the markers of section name in
// doc with body (appending the markers and body when doc has none).
func spliceSection(doc, name, body string) string {
	begin, end := "<!-- realkernel:"+name+" begin -->\n", "<!-- realkernel:"+name+" end -->\n"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		return doc + "\n" + begin + body + end
	}
	return doc[:i+len(begin)] + body + doc[j:]
}
