package main

// schedplay sweep: one or two scenario keys over lists of values, N seeds
// per point, as a table per metric and a plot-ready CSV. The grid, the
// table and the CSV are core/experiment/sweep.go's, shared with the
// playground's sweep panel. -csv FILE also writes FILE.provenance.json,
// the sweep's configuration (core/experiment/provenance.go).

import (
	"flag"
	"io"
	"path/filepath"

	"schedplay/core/experiment"
	"schedplay/core/quote"
)

func cmdSweep(args []string, e env, stdin io.Reader, stdout, stderr io.Writer) error {
	return runSweep(args, e, nil, stdin, stdout, stderr)
}

// runSweep is sweep with merge's executor (nil: from the flags).
func runSweep(args []string, e env, merge *batchExec, stdin io.Reader, stdout, stderr io.Writer) error {
	var f expFlags
	var axesFlag multiFlag
	var csvOut string
	fs := newExpFlagSet("sweep", &f, stderr)
	fs.Var(&axesFlag, "sweep", "KEY=v1,v2,... a scenario key and its values (once or twice); quote a value with commas: KEY=\"0-3,8\",0-7")
	fs.StringVar(&csvOut, "csv", "", `write the plot-ready CSV to FILE ("-" = stdout instead of the table)`)
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if err := f.check(); err != nil {
		return err
	}
	x, err := newBatchExec("sweep", fs, args, f.shard, e, merge)
	if err != nil {
		return err
	}
	if len(axesFlag) == 0 && fs.NArg() == 1 {
		// A playground share URL with a sweep: its axes, and its runs,
		// metrics and centre unless given as flags.
		if p := experiment.SweepFragmentParam(fs.Arg(0)); p != "" {
			spec, err := experiment.DecodeSweepFragment(p)
			if err != nil {
				return badInput("%s: %v", quote.Clip(fs.Arg(0)), err)
			}
			axesFlag = spec.Axes
			given := map[string]bool{}
			fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
			if !given["runs"] {
				f.runs = spec.Runs
			}
			if !given["metric"] {
				f.metrics = spec.Metrics
			}
			if !given["stat"] {
				f.stat = string(spec.Center())
			}
		}
	}
	if len(axesFlag) == 0 || len(axesFlag) > 2 {
		return badInput("want one or two -sweep KEY=v1,v2,... (got %d)", len(axesFlag))
	}
	var axes []experiment.SweepAxis
	for _, s := range axesFlag {
		ax, err := experiment.ParseSweepAxis(s)
		if err != nil {
			return badInput("%v", err)
		}
		axes = append(axes, ax)
	}
	if err := experiment.CheckSweepAxes(axes); err != nil {
		return badInput("%v", err)
	}
	sc, name, err := loadExperiment(fs, &f, x, stdin, stderr)
	if err != nil {
		return err
	}
	vars := experiment.SweepConfigs(axes)
	bt, err := runBatch(sc, name, vars, &f, x, newProgress(stderr, f.progress, "sweep"))
	if err != nil {
		return err
	}
	if x.sharding() {
		return x.writePart()
	}
	if err := x.finishMerge(); err != nil {
		return err
	}
	res := &experiment.Sweep{Name: name, Axes: axes, Runs: f.runs, Center: experiment.Center(f.stat),
		Names: bt.names, Sides: bt.sides}
	for _, j := range bt.jobs {
		res.Seeds = append(res.Seeds, j.Seed)
	}
	if csvOut != "" {
		data := res.CSV()
		if csvOut == "-" {
			_, err := stdout.Write(data)
			return err
		}
		if err := writeFileAtomic(csvOut, data); err != nil {
			return err
		}
		// The CSV stays a plain table; its provenance goes beside it.
		if err := writeFileAtomic(csvOut+experiment.ProvenanceSuffix, res.ProvenanceJSON(sc, filepath.Base(csvOut))); err != nil {
			return err
		}
	}
	_, err = io.WriteString(stdout, res.Text())
	return err
}

func csvFloat(x float64) string { return experiment.CSVFloat(x) }
