package main

// schedplay run: scenario -> core -> summary, metrics, traces.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"schedplay/core/metrics"
	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

type runFlags struct {
	preset, topology, kernel, duration, seed string
	sets                                     multiFlag
	metricsOut, traceOut, perfettoOut, out   string
	traceSoftirq                             bool
}

func newRunFlagSet(f *runFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.preset, "preset", "", "run a built-in scenario (see `schedplay presets`)")
	fs.StringVar(&f.topology, "topology", "", "override the machine (see `schedplay topologies`)")
	fs.StringVar(&f.kernel, "kernel", "", "kernel profile, e.g. v5.8, v6.6, v6.18")
	fs.StringVar(&f.duration, "duration", "", "simulated time, Go duration syntax (10s, 250ms)")
	fs.StringVar(&f.seed, "seed", "", "random seed")
	fs.Var(&f.sets, "set", "override any scenario key, KEY=VALUE (repeatable; see `schedplay keys`)")
	fs.StringVar(&f.metricsOut, "metrics", "", `write metrics JSON (schedplay.metrics/v1); "-" = stdout`)
	fs.StringVar(&f.traceOut, "trace", "", "write ftrace text")
	fs.BoolVar(&f.traceSoftirq, "trace-softirq", false, "with -trace: also print each SCHED softirq's softirq_entry line (the load balancer's passes)")
	fs.StringVar(&f.perfettoOut, "perfetto", "", "write Chrome trace-event JSON for ui.perfetto.dev")
	fs.StringVar(&f.out, "o", "text", "summary on stdout: text or json")
	return fs
}

// applyFlags folds the shorthand flags and -set into the scenario.
func (f *runFlags) apply(sc *scenario.Scenario) error {
	short := []struct{ key, val string }{
		{"topology", f.topology}, {"kernel.version", f.kernel}, {"duration", f.duration}, {"seed", f.seed},
	}
	for _, s := range short {
		if s.val != "" {
			if err := sc.Set(s.key + "=" + s.val); err != nil {
				return badInput("%v", err)
			}
		}
	}
	for _, kv := range f.sets {
		if err := sc.Set(kv); err != nil {
			return badInput("-set: %v", err)
		}
	}
	return nil
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var f runFlags
	fs := newRunFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() > 1 {
		return badInput("want at most one SCENARIO, got %d", fs.NArg())
	}
	if f.out != "text" && f.out != "json" {
		return badInput("-o %q: want text or json", f.out)
	}
	sc, name, err := loadScenarioWarn(fs.Arg(0), f.preset, stdin, stderr)
	if err != nil {
		return err
	}
	if err := f.apply(sc); err != nil {
		return err
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	col := metrics.New(sim.NumCPUs())
	sim.Attach(col)
	prov := scenario.NewRecord(sc, []uint64{cfg.Seed}, "run")
	traces, err := attachTraces(sim, &f, prov)
	if err != nil {
		return err
	}
	if err := sim.Run(); err != nil {
		for _, t := range traces {
			t.abandon()
		}
		return badInput("%s: run stopped: %v", quote.Clip(name), err)
	}
	for _, t := range traces {
		if err := t.finish(); err != nil {
			return err
		}
	}
	scName := sc.Name
	if scName == "" {
		scName = name
	}
	rep := col.Build(sim, scName)
	js, err := json.MarshalIndent(metrics.Document{Report: rep, Provenance: prov}, "", "  ")
	if err != nil {
		return err
	}
	js = append(js, '\n')
	if f.metricsOut != "" && f.metricsOut != "-" {
		if err := writeFileAtomic(f.metricsOut, js); err != nil {
			return err
		}
	}
	if f.out == "json" || f.metricsOut == "-" {
		_, err = stdout.Write(js)
		return err
	}
	return rep.WriteText(stdout)
}

// writeFileAtomic writes data to a temporary file beside path and renames it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	// CreateTemp makes 0600 files; outputs are ordinary files.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// pendingFile streams into a temporary file and renames it on finish.
type pendingFile struct {
	f      *os.File
	path   string
	closer func() error
}

func (p *pendingFile) finish() error {
	if err := p.closer(); err != nil {
		p.f.Close()
		os.Remove(p.f.Name())
		return err
	}
	if err := p.f.Close(); err != nil {
		os.Remove(p.f.Name())
		return err
	}
	if err := os.Chmod(p.f.Name(), 0o644); err != nil {
		os.Remove(p.f.Name())
		return err
	}
	return os.Rename(p.f.Name(), p.path)
}

// abandon removes the temporary file of an output that will not be written.
func (p *pendingFile) abandon() {
	p.f.Close()
	os.Remove(p.f.Name())
}

func createPending(path string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
}
