package main

// schedplay replay: infer the workload of a real kernel trace
// (core/replay), rerun it as a scenario on the trace's machine, and print
// the trace beside the replay task by task; -b compares the replay with
// the same replay under changes, in compare's A/B table.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"schedplay/core/experiment"
	"schedplay/core/ftraceimport"
	"schedplay/core/metrics"
	"schedplay/core/quote"
	"schedplay/core/replay"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

type replayFlags struct {
	topology, kernel, metricsOut, scenarioOut, b, pin, until string
	sets                                                     multiFlag
	strict, timed                                            bool
}

func cmdReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var f replayFlags
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.topology, "topology", "", "the machine: a topology preset, a LISA plat_info.yml or a JSON topology file (default: the trace's CPU count)")
	fs.StringVar(&f.kernel, "kernel", "", "kernel profile of the replay, e.g. v5.8, v6.6, v6.18")
	fs.Var(&f.sets, "set", "override a key of the inferred scenario, KEY=VALUE (repeatable)")
	fs.StringVar(&f.metricsOut, "metrics", "", `write the replay's metrics JSON (schedplay.metrics/v1); "-" = stdout`)
	fs.StringVar(&f.scenarioOut, "scenario", "", "write the inferred scenario JSON")
	fs.StringVar(&f.b, "b", "", "compare the replay (A) with the replay under 'KEY=VALUE ...' (B), as schedplay compare's table")
	fs.StringVar(&f.pin, "pin", replay.PinKthreads, "affinity kept from the trace: kthreads (per-CPU kernel threads seen on one CPU), seen (every task on the CPUs it ran on), none")
	fs.BoolVar(&f.timed, "timed", false, "no causal chains: every wakeup keeps its trace time (the scenario then exports to rt-app)")
	fs.StringVar(&f.until, "until", "", "replay only the trace's first span, e.g. 400ms (a trace too long for the replay's bounds says what fits)")
	fs.BoolVar(&f.strict, "strict", false, "refuse a trace with a line that cannot be read (default: skip it with a warning)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedplay replay [-topology T] [-kernel P] [-set K=V ...] [-metrics F] [-scenario OUT.json] [-b 'K=V ...'] [-until D] TRACE\n\nTRACE is /sys/kernel/tracing/trace text or `trace-cmd report` output with the sched\nevents; - reads standard input.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() != 1 {
		return badInput("want one TRACE, got %d", fs.NArg())
	}
	setsB, err := splitSets("-b", f.b)
	if err != nil {
		return err
	}
	var until sched.Time
	if f.until != "" {
		if until, err = scenario.ParseDuration("-until", f.until); err != nil {
			return badInput("%v", err)
		}
		if until <= 0 {
			return badInput("-until %s: want a positive duration", quote.Clip(f.until))
		}
	}
	path := fs.Arg(0)
	digest := newTraceDigest()
	tr, name, err := importTrace(path, stdin, ftraceimport.Options{Lenient: !f.strict, Until: until}, stderr, digest)
	if err != nil {
		return err
	}
	machine, maxKHz, topoName, err := replayMachine(f.topology, tr.NumCPUs)
	if err != nil {
		return err
	}
	if machine != nil && machine.NumCPUs() < tr.NumCPUs {
		fmt.Fprint(stderr, quote.Sprintf("replay: warning: the trace has %d CPUs, the machine %q %d; tasks seen on the others are not pinned to them\n", tr.NumCPUs, machine.Name, machine.NumCPUs()))
	}
	var caps []int
	if machine != nil {
		caps = replay.Capacities(machine)
	} else if m, err := topology.Preset(topoName); err == nil {
		caps = replay.Capacities(&m)
	}
	w, err := replay.Infer(tr, replay.Options{Capacity: caps, MaxKHz: maxKHz})
	if err != nil {
		return badInput("%s: %v", quote.Clip(path), err)
	}
	for _, msg := range w.Warnings {
		fmt.Fprintf(stderr, "replay: %s: warning: %s\n", quote.Clip(path), msg)
	}
	sc, err := w.Scenario(replay.ScenarioOptions{Name: "replay of " + name, Topology: topoName, Kernel: f.kernel, Pin: f.pin, Timed: f.timed})
	if err != nil {
		return badInput("%v", err)
	}
	for _, kv := range f.sets {
		if err := sc.Set(kv); err != nil {
			return badInput("-set: %v", err)
		}
	}
	if f.scenarioOut != "" {
		if machine != nil {
			fmt.Fprint(stderr, quote.Sprintf("replay: warning: no topology preset describes the machine %q: the scenario names %s; rerun it with schedplay replay -topology to use the machine\n", machine.Name, topoName))
		}
		if err := replay.CheckURL(sc); err != nil {
			fmt.Fprintf(stderr, "replay: warning: %v\n", err)
		}
		if err := writeFileAtomic(f.scenarioOut, sc.Encode()); err != nil {
			return err
		}
	}
	jobA, err := replayJob(sc, machine, 0, name)
	if err != nil {
		return err
	}
	runA, err := experiment.Execute(jobA)
	if err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	trep := tr.Metrics(name)
	fid := replay.Compare(w, &trep, &runA.Report)
	if f.metricsOut != "" {
		doc := metrics.Document{Report: runA.Report, Provenance: replayRecord(sc, &f, path, digest.hex())}
		js, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		js = append(js, '\n')
		if f.metricsOut == "-" {
			if _, err := stdout.Write(js); err != nil {
				return err
			}
		} else if err := writeFileAtomic(f.metricsOut, js); err != nil {
			return err
		}
	}
	out := stdout
	if f.metricsOut == "-" {
		out = stderr
	}
	fmt.Fprintf(out, "replay of %s: %d tasks, %d CPUs, %s; machine %s, kernel %s\n\n", name, len(w.Tasks), tr.NumCPUs,
		fmtNs(int64(tr.Duration)), runA.Report.Topology, runA.Report.Kernel)
	fmt.Fprintf(out, "%s\n%s\n\n", w.ClockSummary(), w.HZSummary())
	if _, err := io.WriteString(out, fid.Text()); err != nil {
		return err
	}
	if f.b == "" {
		return nil
	}
	scB := sc.Clone()
	for _, kv := range setsB {
		if err := scB.Set(kv); err != nil {
			return badInput("-b %q: %v", kv, err)
		}
	}
	jobB, err := replayJob(scB, machine, 1, name)
	if err != nil {
		return err
	}
	runB, err := experiment.Execute(jobB)
	if err != nil {
		return badInput("%s: B: %v", quote.Clip(name), err)
	}
	jobs := []experiment.Job{jobA, jobB}
	vals := []experiment.Values{experiment.Measure(runA), experiment.Measure(runB)}
	vars := []experiment.Config{{Label: "A", Flag: "replay"}, {Label: "B", Flag: "-b", Sets: setsB}}
	names, err := experiment.SelectMetrics(nil, jobs, vals, vars)
	if err != nil {
		return err
	}
	rows := experiment.Compare(names, experiment.Side{vals[0]}, experiment.Side{vals[1]}, experiment.CenterMean)
	outs := []jobOut{{Topology: runA.Report.Topology, Kernel: runA.Report.Kernel, Values: vals[0]},
		{Topology: runB.Report.Topology, Kernel: runB.Report.Kernel, Values: vals[1]}}
	doc := newCompareDoc(sc.Name, jobs, outs, vars, 1, experiment.CenterMean, rows)
	fmt.Fprintln(out)
	_, err = io.WriteString(out, doc.text())
	return err
}

// importTrace reads and imports TRACE ("-": stdin), hashing its bytes
// into digest; bad lines are skipped with a warning unless strict.
func importTrace(path string, stdin io.Reader, opts ftraceimport.Options, stderr io.Writer, digest *traceDigest) (*ftraceimport.Trace, string, error) {
	var r io.Reader = stdin
	name := "stdin"
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return nil, "", badInput("%s: %v", quote.Clip(path), pathless(err))
		}
		defer fh.Close()
		r, name = fh, filepath.Base(path)
	}
	tr, err := ftraceimport.Import(digest.reader(r), opts)
	if err != nil {
		var ie *ftraceimport.Error
		if errors.As(err, &ie) {
			return nil, "", badInput("%s: %v", quote.Clip(path), err)
		}
		return nil, "", fmt.Errorf("%s: %v", quote.Clip(path), err)
	}
	writeImportWarnings(stderr, path, tr)
	if opts.Until > 0 {
		fmt.Fprintf(stderr, "%s: note: -until: the first %s replayed, %d later sched events left out\n", quote.Clip(path), scenario.FormatDuration(tr.Duration), tr.Stats.AfterUntil)
	}
	return tr, name, nil
}

// writeImportWarnings prints what the import skipped or repaired, one
// line each, and a count of those beyond ftraceimport.MaxWarnings.
func writeImportWarnings(w io.Writer, path string, tr *ftraceimport.Trace) {
	for _, x := range tr.Warnings {
		fmt.Fprintf(w, "%s: warning: %s\n", path, x)
	}
	st := tr.Stats
	if more := st.Skipped + st.LostMarks + min(st.Unsorted, 1) - len(tr.Warnings); more > 0 {
		fmt.Fprintf(w, "%s: warning: %d more warnings not shown (%d lines skipped, %d lost-event marks)\n", path, more, st.Skipped, st.LostMarks)
	}
	if st.Unsorted > 0 {
		fmt.Fprintf(w, "%s: warning: %d events were out of timestamp order and were merged by time\n", path, st.Unsorted)
	}
	if st.RunningAtStart > 0 {
		fmt.Fprintf(w, "%s: note: the trace starts mid-run: %d CPUs were running a task; their work before the first event is unknown\n", path, st.RunningAtStart)
	}
}

// replayMachine resolves -topology: a preset (machine nil, its name), a
// platform file (the machine, its CPUs' highest frequencies if it gives
// them, and a stand-in preset name), or without the flag the smp-N preset
// of the trace's CPU count, or an smp machine of that count when no preset
// has it.
func replayMachine(flagVal string, ncpu int) (*topology.Machine, []int, string, error) {
	if flagVal == "" {
		name := fmt.Sprintf("smp-%d", ncpu)
		if _, err := topology.Preset(name); err == nil {
			return nil, nil, name, nil
		}
		m, err := replay.SMP(ncpu)
		if err != nil {
			return nil, nil, "", badInput("the trace's %d CPUs: %v", ncpu, err)
		}
		return &m, nil, replay.StandIn(ncpu), nil
	}
	if _, err := topology.Preset(flagVal); err == nil {
		return nil, nil, flagVal, nil
	}
	data, err := readFileLimited(flagVal)
	if err != nil {
		return nil, nil, "", badInput("-topology %q: not a topology preset (schedplay topologies) and not a readable platform file: %v", flagVal, err)
	}
	pl, err := replay.ParsePlatform(filepath.Base(flagVal), data)
	if err != nil {
		return nil, nil, "", badInput("-topology: %v", err)
	}
	return &pl.Machine, pl.MaxKHz, replay.StandIn(pl.Machine.NumCPUs()), nil
}

// replayJob is the run of sc (on machine when not nil) as an experiment
// job: config ci of the A/B pair.
func replayJob(sc *scenario.Scenario, machine *topology.Machine, ci int, name string) (experiment.Job, error) {
	cfg, err := replay.Config(sc, machine)
	if err != nil {
		return experiment.Job{}, badInput("%s: %v", quote.Clip(name), err)
	}
	var groups []string
	for _, t := range sc.Tasks {
		groups = append(groups, t.Name)
	}
	return experiment.Job{Config: ci, Seed: sc.Seed, Cfg: cfg, Name: sc.Name, Groups: groups}, nil
}
