package main

// schedplay validate: every built-in scenario with an experiment block
// (the seed/... presets, docs/VALIDATION.md), run as its thread ran it, with
// the thread's published numbers checked. -o markdown is the seed section
// of docs/VALIDATION.md (`make validate` adds the real-kernel section).

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/quote"
	"schedplay/core/scenario"
)

func cmdValidate(args []string, e env, stdin io.Reader, stdout, stderr io.Writer) error {
	return runValidate(args, e, nil, stdin, stdout, stderr)
}

// runValidate is validate with merge's executor (nil: from the flags).
func runValidate(args []string, e env, merge *batchExec, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("runs", 0, "seeds per cell (default: each experiment's own runs)")
	out := fs.String("o", "text", "output: text, markdown or json")
	check := fs.Bool("check", false, "exit with status 3 when a thread's number is missed")
	progress := fs.Bool("progress", false, "show progress on stderr even when it is not a terminal")
	var sf shardFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedplay validate [-runs N] [-o text|markdown|json] [-check] [-shard K/N -part FILE] [PRESET|SCENARIO ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if *runs < 0 || *runs > scenario.MaxExpRuns {
		return badInput("-runs %d: want 1..%d", *runs, scenario.MaxExpRuns)
	}
	if *out != "text" && *out != "markdown" && *out != "json" {
		return badInput("-o %q: want text, markdown or json", *out)
	}
	x, err := newBatchExec("validate", fs, args, sf, e, merge)
	if err != nil {
		return err
	}
	names := fs.Args()
	if len(names) == 0 {
		for _, p := range scenario.Presets() {
			if sc, err := scenario.Preset(p.Name); err == nil && sc.Experiment != nil {
				names = append(names, p.Name)
			}
		}
	}
	var trs []*threadRun
	for _, n := range names {
		// A preset name, or a scenario file / share URL of one's own.
		preset, arg := n, ""
		if _, err := scenario.Preset(n); err != nil && !strings.HasPrefix(n, "seed/") && !strings.HasPrefix(n, "demo/") && !strings.HasPrefix(n, "cgroup/") {
			preset, arg = "", n
		}
		sc, name, err := x.load(func() (*scenario.Scenario, string, error) {
			sc, name, err := loadScenarioWarn(arg, preset, stdin, stderr)
			if err == nil && sc.Name != "" {
				name = sc.Name
			}
			return sc, name, err
		})
		if err != nil {
			return err
		}
		if sc.Experiment == nil {
			return badInput("%s has no experiment block (see docs/scenario-format.md)", quote.Clip(n))
		}
		tr, err := runThread(sc, name, *runs, experiment.CenterMean, x, newProgress(stderr, *progress, name))
		if err != nil {
			return err
		}
		trs = append(trs, tr)
	}
	if x.sharding() {
		return x.writePart()
	}
	if err := x.finishMerge(); err != nil {
		return err
	}
	if err := writeValidation(stdout, trs, *out); err != nil {
		return err
	}
	if *check {
		for _, tr := range trs {
			if !tr.render().Passed() {
				return thresholdError{fmt.Errorf("%s misses the thread's numbers", tr.Name)}
			}
		}
	}
	return nil
}

// thresholdError is a validation miss (exit status 3).
type thresholdError struct{ err error }

func (e thresholdError) Error() string { return e.err.Error() }

func writeValidation(w io.Writer, trs []*threadRun, format string) error {
	switch format {
	case "json":
		docs := []threadDoc{}
		for _, tr := range trs {
			docs = append(docs, tr.doc())
		}
		js, err := json.MarshalIndent(map[string]any{"schema": "schedplay.validate/v1", "experiments": docs}, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(js, '\n'))
		return err
	case "markdown":
		var b strings.Builder
		b.WriteString("| preset | thread | kind | thread's numbers met |\n|---|---|---|---|\n")
		for _, tr := range trs {
			met := 0
			for _, c := range tr.Res.Checks {
				if c.Pass {
					met++
				}
			}
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %d of %d |\n", tr.Name, anchor(tr.Name), mdEscape(tr.Res.Exp.Thread),
				tr.Res.Exp.Kind, met, len(tr.Res.Checks))
		}
		for _, tr := range trs {
			fmt.Fprintf(&b, "\n### %s\n\n", tr.Name)
			b.WriteString(tr.markdown())
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	for i, tr := range trs {
		if i > 0 {
			io.WriteString(w, "\n")
		}
		if _, err := io.WriteString(w, tr.text()); err != nil {
			return err
		}
	}
	return nil
}

// anchor is GitHub's heading anchor for a preset name.
func anchor(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
