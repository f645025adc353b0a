package main

// schedplay compare: the same scenario under configurations A and B over
// N seeds, as the A/B table of a scheduler mailing-list thread.

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

// CompareSchema is the JSON schema of `compare -o json` (docs/compare.md).
const CompareSchema = "schedplay.compare/v1"

func cmdCompare(args []string, e env, stdin io.Reader, stdout, stderr io.Writer) error {
	return runCompare(args, e, nil, stdin, stdout, stderr)
}

// runCompare is compare with merge's executor (nil: from the flags).
func runCompare(args []string, e env, merge *batchExec, stdin io.Reader, stdout, stderr io.Writer) error {
	var f expFlags
	var a, b, out string
	fs := newExpFlagSet("compare", &f, stderr)
	fs.StringVar(&a, "a", "", "configuration A (the baseline): 'KEY=VALUE ...', space- or comma-separated; a comma not followed by KEY= stays in the value (0-3,8); quote a value with spaces")
	fs.StringVar(&b, "b", "", "configuration B: 'KEY=VALUE ...'")
	fs.StringVar(&out, "o", "text", "output: text (the table), markdown, or json ("+CompareSchema+"; "+ThreadSchema+" in thread mode)")
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if err := f.check(); err != nil {
		return err
	}
	if out != "text" && out != "json" && out != "markdown" {
		return badInput("-o %q: want text, markdown or json", out)
	}
	x, err := newBatchExec("compare", fs, args, f.shard, e, merge)
	if err != nil {
		return err
	}
	setsA, err := splitSets("-a", a)
	if err != nil {
		return err
	}
	setsB, err := splitSets("-b", b)
	if err != nil {
		return err
	}
	sc, name, err := loadExperiment(fs, &f, x, stdin, stderr)
	if err != nil {
		return err
	}
	if a == "" && b == "" && sc.Experiment != nil {
		// Thread mode: the scenario's own configurations and variants.
		runs := 0
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name == "runs" {
				runs = f.runs
			}
		})
		if len(f.metricSpecs()) > 0 {
			return badInput("-metric: %s has an experiment block that names its metrics; give -a/-b to compare other metrics", quote.Clip(name))
		}
		tr, err := runThread(sc, name, runs, experiment.Center(f.stat), x, newProgress(stderr, f.progress, "compare"))
		if err != nil {
			return err
		}
		if x.sharding() {
			return x.writePart()
		}
		if err := x.finishMerge(); err != nil {
			return err
		}
		tr.build = scenario.BuildVersion()
		return writeThread(stdout, tr, out)
	}
	vars := []experiment.Config{{Label: "A", Flag: "-a", Sets: setsA}, {Label: "B", Flag: "-b", Sets: setsB}}
	bt, err := runBatch(sc, name, vars, &f, x, newProgress(stderr, f.progress, "compare"))
	if err != nil {
		return err
	}
	if x.sharding() {
		return x.writePart()
	}
	if err := x.finishMerge(); err != nil {
		return err
	}
	center := experiment.Center(f.stat)
	rows := experiment.Compare(bt.names, bt.sides[0], bt.sides[1], center)
	doc := newCompareDoc(name, bt.jobs, bt.outs, vars, f.runs, center, rows)
	doc.Provenance = compareRecord(sc, doc.Seeds, a, b, f.runs, center)
	if out == "json" {
		js, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(js, '\n'))
		return err
	}
	if out == "markdown" {
		_, err = io.WriteString(stdout, doc.markdown())
		return err
	}
	_, err = io.WriteString(stdout, doc.text())
	return err
}

func maxCPUs(jobs []experiment.Job) int { return experiment.MaxCPUs(jobs) }

// compareDoc is the schema schedplay.compare/v1.
type compareDoc struct {
	Schema     string        `json:"schema"`
	Scenario   string        `json:"scenario"`
	DurationNs int64         `json:"duration_ns"`
	Runs       int           `json:"runs"`
	Seeds      []uint64      `json:"seeds"`
	Center     string        `json:"center"`
	A          sideDoc       `json:"a"`
	B          sideDoc       `json:"b"`
	Metrics    []compareItem `json:"metrics"`
	// Provenance: the configuration compared (an addition to
	// schedplay.compare/v1; docs/cli.md "Provenance in exports").
	Provenance *scenario.Record `json:"provenance,omitempty"`
}

// compareRecord is the provenance object of an A/B comparison of sc: its
// command gives -a and -b as they were given.
func compareRecord(sc *scenario.Scenario, seeds []uint64, a, b string, runs int, c experiment.Center) *scenario.Record {
	cmd := "compare"
	for _, s := range []struct{ flag, v string }{{"-a", a}, {"-b", b}} {
		if s.v != "" {
			cmd += " " + s.flag + " " + scenario.ShellQuote(s.v)
		}
	}
	cmd += fmt.Sprintf(" -runs %d", runs)
	if c == experiment.CenterMedian {
		cmd += " -stat median"
	}
	return scenario.NewRecord(sc, seeds, cmd)
}

type sideDoc struct {
	Set      []string `json:"set"`
	Topology string   `json:"topology"`
	Kernel   string   `json:"kernel"`
}

type compareItem struct {
	Name      string   `json:"name"`
	Unit      string   `json:"unit"`
	Better    string   `json:"better"`
	A         *statDoc `json:"a"`
	B         *statDoc `json:"b"`
	ChangePct *float64 `json:"change_pct"`
	Verdict   string   `json:"verdict"`
}

type statDoc struct {
	Values    []float64 `json:"values"`
	Mean      float64   `json:"mean"`
	Median    float64   `json:"median"`
	Stddev    float64   `json:"stddev"`
	StddevPct float64   `json:"stddev_pct"`
	Min       float64   `json:"min"`
	Max       float64   `json:"max"`
}

func toStatDoc(s *experiment.Summary) *statDoc {
	if s == nil {
		return nil
	}
	return &statDoc{Values: s.Values, Mean: s.Mean, Median: s.Median, Stddev: s.Stddev,
		StddevPct: s.StddevPct, Min: s.Min, Max: s.Max}
}

func newCompareDoc(name string, jobs []experiment.Job, outs []jobOut, vars []experiment.Config, n int, c experiment.Center, rows []experiment.Row) compareDoc {
	d := compareDoc{Schema: CompareSchema, Scenario: name, DurationNs: int64(jobs[0].Cfg.Duration),
		Runs: n, Center: string(c), Metrics: []compareItem{}}
	for i := 0; i < n; i++ {
		d.Seeds = append(d.Seeds, jobs[i].Seed)
	}
	side := func(v int) sideDoc {
		r := outs[v*n]
		return sideDoc{Set: append([]string{}, vars[v].Sets...), Topology: r.Topology, Kernel: r.Kernel}
	}
	d.A, d.B = side(0), side(1)
	for _, r := range rows {
		d.Metrics = append(d.Metrics, compareItem{Name: r.Name, Unit: r.Unit, Better: string(r.Better),
			A: toStatDoc(r.A), B: toStatDoc(r.B), ChangePct: r.ChangePct, Verdict: string(r.Verdict)})
	}
	return d
}

var centerTitle = map[string]string{"amean": "AMean", "median": "Median"}

// text renders the table.
func (d *compareDoc) text() string {
	var b strings.Builder
	seeds := fmt.Sprintf("seed %d", d.Seeds[0])
	if len(d.Seeds) > 1 {
		seeds = fmt.Sprintf("seeds %d..%d", d.Seeds[0], d.Seeds[len(d.Seeds)-1])
	}
	fmt.Fprintf(&b, "compare %s  duration %s  %d runs per side (%s)\n", d.Scenario, fmtNs(d.DurationNs), d.Runs, seeds)
	d.sides(func(l, set string, s sideDoc) {
		fmt.Fprintf(&b, "  %s: %s  [topology %s, kernel %s]\n", l, set, s.Topology, s.Kernel)
	})
	ct := centerTitle[d.Center]
	fmt.Fprintf(&b, "\n%-32s %-6s %-6s %14s %8s %14s %8s %9s  %s\n",
		"metric", "unit", "better", ct+" A", "stddev%", ct+" B", "stddev%", "change%", "verdict")
	for _, m := range d.Metrics {
		fmt.Fprintf(&b, "%-32s %-6s %-6s %14s %8s %14s %8s %9s  %s\n", m.Name, m.Unit, betterMark(m.Better),
			center(m.A, d.Center), dev(m.A), center(m.B, d.Center), dev(m.B), pct(m.ChangePct), m.Verdict)
	}
	if d.Runs < 2 {
		b.WriteString("\n1 run per side: no run-to-run deviation, every change counts\n")
	} else {
		b.WriteString("\nstddev%: sample standard deviation over the runs, % of the mean; " +
			"noise: |B - A| within the larger stddev of the two sides\n")
	}
	return b.String()
}

func betterMark(b string) string {
	if b == "none" {
		return "-"
	}
	return b
}

func center(s *statDoc, c string) string {
	if s == nil {
		return "-"
	}
	if c == "median" {
		return fmtVal(s.Median)
	}
	return fmtVal(s.Mean)
}

func dev(s *statDoc) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", s.StddevPct)
}

func pct(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%+.2f%%", *p)
}

// fmtVal prints a figure with two decimals, more for small ones (a
// SCHED_IDLE task's share is a few hundredths of a percent).
func fmtVal(v float64) string { return experiment.FormatValue(v) }

func fmtNs(ns int64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.9f", float64(ns)/1e9), "0"), ".") + "s"
}

// markdown renders the table as GitHub Markdown.
func (d *compareDoc) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s`, duration %s, %d runs per side (seeds %d..%d)\n\n", d.Scenario, fmtNs(d.DurationNs), d.Runs,
		d.Seeds[0], d.Seeds[len(d.Seeds)-1])
	d.sides(func(l, set string, s sideDoc) {
		fmt.Fprintf(&b, "- %s: `%s` (topology %s, kernel %s)\n", l, set, s.Topology, s.Kernel)
	})
	ct := centerTitle[d.Center]
	fmt.Fprintf(&b, "\n| metric | unit | better | %s A | stddev%% | %s B | stddev%% | change%% | verdict |\n", ct, ct)
	b.WriteString("|---|---|---|--:|--:|--:|--:|--:|---|\n")
	for _, m := range d.Metrics {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(m.Name), m.Unit, betterMark(m.Better),
			center(m.A, d.Center), dev(m.A), center(m.B, d.Center), dev(m.B), pct(m.ChangePct), m.Verdict)
	}
	if p := d.Provenance; p != nil {
		fmt.Fprintf(&b, "\nRegenerate: `%s`. %s`%s`.\n", p.Command, experiment.BuildLinePrefix, p.Schedplay)
	}
	return b.String()
}

// sides calls f for A and B with their overrides as one string.
func (d *compareDoc) sides(f func(label, set string, s sideDoc)) {
	for _, x := range []struct {
		l string
		s sideDoc
	}{{"A", d.A}, {"B", d.B}} {
		set := strings.Join(x.s.Set, " ")
		if set == "" {
			set = "(scenario as is)"
		}
		f(x.l, set, x.s)
	}
}
