package main

// schedplay trace-metrics: the metrics of a real kernel trace (ftrace text
// or trace-cmd report output, read by core/ftraceimport), in the same
// schema and tables as a simulated run.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"schedplay/core/ftraceimport"
	"schedplay/core/quote"
)

func cmdTraceMetrics(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("trace-metrics", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "text", "output: text (tables) or json (schedplay.metrics/v1)")
	strict := fs.Bool("strict", false, "refuse a trace with a sched line that cannot be read (default: skip it with a warning on stderr)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedplay trace-metrics [-o text|json] FILE\n\nFILE is /sys/kernel/tracing/trace text or `trace-cmd report` output with the sched\nevents (sched_switch, sched_wakeup, ...); - reads standard input.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() != 1 {
		return badInput("want one FILE, got %d", fs.NArg())
	}
	if *out != "text" && *out != "json" {
		return badInput("-o %q: want text or json", *out)
	}
	path := fs.Arg(0)
	var r io.Reader = stdin
	name := "stdin"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return badInput("%s: %v", quote.Clip(path), pathless(err))
		}
		defer f.Close()
		r, name = f, filepath.Base(path)
	}
	tr, err := ftraceimport.Import(r, ftraceimport.Options{Lenient: !*strict})
	if err != nil {
		var ie *ftraceimport.Error
		if errors.As(err, &ie) {
			return badInput("%s: %v", quote.Clip(path), err)
		}
		return fmt.Errorf("%s: %v", quote.Clip(path), err)
	}
	writeImportWarnings(stderr, path, tr)
	rep := tr.Metrics(name)
	if *out == "json" {
		js, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(js, '\n'))
		return err
	}
	if err := rep.WriteText(stdout); err != nil {
		return err
	}
	st := tr.Stats
	other := st.OtherMore
	for _, n := range st.Other {
		other += n
	}
	_, err = fmt.Fprintf(stdout, "\ntrace: %d lines, %d sched events, starts at %d.%09d s; skipped %d other events, %d comment and %d unrecognized lines; %d redundant wakeups, %d sched_waking unused\n",
		st.Lines, st.Events, tr.Offset/1e9, tr.Offset%1e9, other, st.Comments, st.Unrecognized, st.RedundantWakeups, st.WakingIgnored)
	return err
}
