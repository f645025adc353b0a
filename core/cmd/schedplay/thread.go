package main

// Thread mode of `schedplay compare` and `schedplay validate`: a scenario
// with an experiment block (docs/scenario-format.md "experiment") run as
// its thread ran it — every variant under every configuration over the
// same seeds — and rendered as the thread's tables with the published
// numbers beside the simulator's.

import (
	"fmt"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/quote"
	"schedplay/core/scenario"
)

// threadRun is an evaluated experiment with what produced it.
type threadRun struct {
	Name   string
	Sc     *scenario.Scenario
	Runs   int
	Seeds  []uint64
	Res    experiment.ThreadResult
	labels []string // topology/kernel per variant, for the headers
	build  string   // the build the Markdown names (compare's export; not validate's)
}

// runThread runs sc's experiment block: runs seeds per cell (0 = the
// block's own count).
// A nil threadRun: x is sharding, nothing to print.
func runThread(sc *scenario.Scenario, name string, runs int, c experiment.Center, x *batchExec, prog *progress) (*threadRun, error) {
	e := sc.Experiment
	if runs == 0 {
		runs = e.EffectiveRuns()
	}
	vl := e.VariantList()
	vars := experiment.ThreadConfigs(e)
	plan, err := prepare(sc, name, vars, runs)
	if err != nil {
		return nil, err
	}
	jobs := plan.Described()
	groups := allGroups(jobs)
	names, err := experiment.Resolve(e.Metrics, groups, maxCPUs(jobs))
	if err != nil {
		return nil, badInput("%s: experiment.metrics: %v", quote.Clip(name), err)
	}
	out, ok, err := x.runJobs(plan, vars, names, prog)
	if err != nil || !ok {
		return nil, err
	}
	vals := values(out)
	tr := &threadRun{Name: name, Sc: sc, Runs: runs}
	for i := 0; i < runs; i++ {
		tr.Seeds = append(tr.Seeds, jobs[i].Seed)
	}
	for vi := range vl {
		r := out[vi*len(e.Configs)*runs]
		tr.labels = append(tr.labels, fmt.Sprintf("topology %s, kernel %s", r.Topology, r.Kernel))
	}
	cube := experiment.ThreadCube(e, vals, runs)
	tr.Res, err = experiment.EvaluateThread(e, names, cube, c)
	if err != nil {
		return nil, err
	}
	return tr, nil
}

// render is the shared renderer of the thread's tables
// (core/experiment/threadmd.go, also used by the playground).
func (tr *threadRun) render() *experiment.ThreadRender {
	return &experiment.ThreadRender{Name: tr.Name, Runs: tr.Runs, Seeds: tr.Seeds, Labels: tr.labels, Res: tr.Res,
		Prov: scenario.ProvenanceOf(tr.Sc), Build: tr.build}
}

// record is the thread's provenance object (docs/cli.md "Provenance in
// exports").
func (tr *threadRun) record() *scenario.Record {
	return scenario.NewRecord(tr.Sc, tr.Seeds, fmt.Sprintf("compare -runs %d", tr.Runs))
}

// fmtCell renders a table value; normalised values get three decimals.
func (tr *threadRun) fmtCell(c experiment.Cell) string { return tr.render().CellText(c) }

func (tr *threadRun) header() string {
	e := tr.Res.Exp
	date := ""
	if e.Date != "" {
		date = e.Date + ", "
	}
	norm := ""
	if n := e.NormalizedText(); n != "" {
		norm = fmt.Sprintf("; %s normalised to %q", n, e.Configs[0].Name)
	}
	return fmt.Sprintf("%s: %q (%s%s)\n%d runs per cell (seeds %d..%d), %s%s; (±dev%%) run-to-run deviation, (+x%%) change against %q\n",
		tr.Name, e.Thread, date, e.Kind, tr.Runs, tr.Seeds[0], tr.Seeds[len(tr.Seeds)-1],
		centerTitle[string(tr.Res.Center)], norm, e.Configs[0].Name)
}

// text renders the tables as aligned text.
func (tr *threadRun) text() string {
	var b strings.Builder
	b.WriteString(tr.header())
	if c := tr.render().Changed(); c != "" {
		fmt.Fprintf(&b, "changed from the preset: %s; regenerate: %s\n", c, tr.render().Regenerate())
	}
	for ti, t := range tr.Res.Tables {
		b.WriteByte('\n')
		if t.Variant != "" {
			fmt.Fprintf(&b, "%s  [%s]\n", t.Variant, tr.labels[ti])
		} else {
			fmt.Fprintf(&b, "[%s]\n", tr.labels[ti])
		}
		w := []int{28, 6, 6}
		cols := []string{"metric", "unit", "better"}
		for _, c := range t.Configs {
			cols = append(cols, c)
			w = append(w, max(26, len(c)))
		}
		for i, c := range cols {
			fmt.Fprintf(&b, "%-*s ", w[i], c)
		}
		b.WriteByte('\n')
		for mi, d := range t.Metrics {
			cells := []string{d.Name, t.Unit(mi), betterMark(string(d.Better))}
			for _, c := range t.Cells[mi] {
				cells = append(cells, tr.fmtCell(c))
			}
			for i, c := range cells {
				fmt.Fprintf(&b, "%-*s ", w[i], c)
			}
			b.WriteByte('\n')
		}
	}
	if len(tr.Res.Checks) > 0 {
		b.WriteString("\nthe thread's numbers\n")
		for _, c := range tr.Res.Checks {
			verdict := passText(c.Pass)
			if why := tr.render().NotApplying(c.Ref); why != "" {
				verdict = "n/a (" + why + ")"
			}
			fmt.Fprintf(&b, "  %-44s thread %-10s sim %-10s %-8s %s%s\n", refWhere(c.Ref), fmtVal(c.Ref.Value),
				fmtGot(c.Got), c.Ref.ToleranceText(), verdict, noteText(c.Ref.Note))
		}
	}
	return b.String()
}

// markdown renders the tables for docs/VALIDATION.md.
func (tr *threadRun) markdown() string { return tr.render().Markdown() }

func refWhere(r scenario.ExpRef) string { return experiment.RefWhere(r.Variant, r.Config, r.Metric) }

func fmtGot(v float64) string { return experiment.FormatGot(v) }

func passText(ok bool) string { return experiment.PassText(ok) }

func noteText(n string) string { return experiment.NoteText(n) }

func mdEscape(s string) string { return experiment.MDEscape(s) }
