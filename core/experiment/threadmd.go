package experiment

// Rendering of a thread's tables, shared by `schedplay compare -preset
// seed/... -o markdown` (and docs/VALIDATION.md) and the playground's
// thread view, so that both show the same numbers the same way: one table
// per variant (metrics x configurations; the value, ±run-to-run deviation
// when there are several runs, and the change against the first
// configuration), then the thread's published numbers beside the
// simulator's with the tolerance and pass/FAIL.

import (
	"fmt"
	"math"
	"strings"

	"schedplay/core/scenario"
)

// ThreadRender is an evaluated experiment with what produced it.
type ThreadRender struct {
	Name   string   // scenario or preset name
	Runs   int      // seeds per cell
	Seeds  []uint64 // the seeds, in order
	Labels []string // "topology T, kernel K" per variant
	Res    ThreadResult
	// Prov is the scenario against its preset (scenario.ProvenanceOf):
	// the -set flags of the regenerate command, and the keys the thread's
	// numbers assume (ExpRef.Depends) that this run changed.
	Prov scenario.Provenance
	// Build, when set, is the schedplay build (scenario.BuildVersion) that
	// the Markdown names in its last line: set for an export (`compare -o
	// markdown`, the playground's thread.md), left out of docs generated
	// from many reports (validate), whose header names the build once.
	Build string
}

// Regenerate is the command that reruns the experiment: the preset with
// the -set flags that differ from it.
func (tr *ThreadRender) Regenerate() string {
	if tr.Prov.Preset == "" {
		return "schedplay compare SCENARIO.json"
	}
	return "schedplay compare -preset " + scenario.ShellQuote(tr.Name) + tr.Prov.SetFlags()
}

// BuildLinePrefix starts the Markdown's line naming the build.
const BuildLinePrefix = "Simulated with schedplay "

// Changed describes how the scenario differs from its preset ("" when it
// does not): "kernel.hz=1000 (preset: 250)".
func (tr *ThreadRender) Changed() string {
	var parts []string
	for _, d := range tr.Prov.Diff {
		parts = append(parts, fmt.Sprintf("%s=%s (preset: %s)", d.Key, orDefault(d.Value), orDefault(d.Base)))
	}
	if tr.Prov.Other {
		parts = append(parts, "fields no -set key names (task groups, workloads or others)")
	}
	return strings.Join(parts, ", ")
}

func orDefault(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

// NotApplying says why a published number does not apply to this run
// ("" when it does): the run changed a key the number assumes.
func (tr *ThreadRender) NotApplying(r scenario.ExpRef) string {
	var why []string
	for _, k := range r.Depends {
		for _, d := range tr.Prov.Diff {
			if d.Key == k {
				why = append(why, fmt.Sprintf("%s=%s, the thread's %s", k, orDefault(d.Value), orDefault(d.Base)))
			}
		}
	}
	if len(why) == 0 {
		return ""
	}
	return "does not apply: this run has " + strings.Join(why, "; ")
}

// CenterTitle names a center as the tables' headers do.
func CenterTitle(c Center) string {
	if c == CenterMedian {
		return "Median"
	}
	return "AMean"
}

// FormatValue renders a measured value with a precision that suits its
// magnitude.
func FormatValue(v float64) string {
	switch a := math.Abs(v); {
	case a == 0 || a >= 10:
		return fmt.Sprintf("%.2f", v)
	case a >= 0.01:
		return fmt.Sprintf("%.4f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

// FormatGot renders a simulator value of a reference check ("-" if none).
func FormatGot(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return FormatValue(v)
}

// CellText renders a table value; normalised values get three decimals.
func (tr *ThreadRender) CellText(c Cell) string {
	if math.IsNaN(c.Value) {
		return "-"
	}
	s := FormatValue(c.Value)
	if c.Normalized {
		s = fmt.Sprintf("%.3f", c.Value)
	}
	if tr.Runs > 1 {
		s += fmt.Sprintf(" ±%.1f%%", c.DevPct)
	}
	if !math.IsNaN(c.ChangePct) {
		s += fmt.Sprintf(" (%+.2f%%)", c.ChangePct)
	}
	return s
}

// Markdown renders the tables as GitHub Markdown.
func (tr *ThreadRender) Markdown() string {
	var b strings.Builder
	e := tr.Res.Exp
	fmt.Fprintf(&b, "Thread: %q (%s). Kind: %s. %d runs per cell (seeds %d..%d), %s",
		e.Thread, e.Date, e.Kind, tr.Runs, tr.Seeds[0], tr.Seeds[len(tr.Seeds)-1], CenterTitle(tr.Res.Center))
	if n := e.NormalizedText(); n != "" {
		fmt.Fprintf(&b, ", %s normalised to %q", n, e.Configs[0].Name)
	}
	b.WriteString(". Regenerate: " + codeSpan(tr.Regenerate()))
	if !tr.Prov.Exact() {
		b.WriteString(" (the scenario also differs from the preset in what no -set flag can say: give the CLI its file or share link instead of -preset)")
	}
	b.WriteString(".\n")
	if c := tr.Changed(); c != "" {
		b.WriteString("\nChanged from the preset: " + MDEscape(c) + ".\n")
	}
	if e.Explain != "" {
		b.WriteString("\nMechanism: " + e.Explain + "\n")
	}
	for ti, t := range tr.Res.Tables {
		b.WriteByte('\n')
		if t.Variant != "" {
			fmt.Fprintf(&b, "**%s** (%s)\n\n", t.Variant, tr.Labels[ti])
		} else {
			fmt.Fprintf(&b, "(%s)\n\n", tr.Labels[ti])
		}
		b.WriteString("| metric | unit | better |")
		for _, c := range t.Configs {
			b.WriteString(" " + MDEscape(c) + " |")
		}
		b.WriteString("\n|---|---|---|" + strings.Repeat("--:|", len(t.Configs)) + "\n")
		for mi, d := range t.Metrics {
			fmt.Fprintf(&b, "| %s | %s | %s |", MDEscape(d.Name), t.Unit(mi), BetterMark(d.Better))
			for _, c := range t.Cells[mi] {
				b.WriteString(" " + tr.CellText(c) + " |")
			}
			b.WriteByte('\n')
		}
	}
	if len(tr.Res.Checks) > 0 {
		b.WriteString("\n| the thread's number | thread | simulator | tolerance | result |\n|---|--:|--:|--:|---|\n")
		for _, c := range tr.Res.Checks {
			tol, verdict := c.Ref.ToleranceText(), PassText(c.Pass)
			if why := tr.NotApplying(c.Ref); why != "" {
				tol, verdict = tol+" ("+MDEscape(why)+")", "n/a"
			}
			fmt.Fprintf(&b, "| %s%s | %s | %s | %s | %s |\n", MDEscape(RefWhere(c.Ref.Variant, c.Ref.Config, c.Ref.Metric)),
				MDEscape(NoteText(c.Ref.Note)), FormatValue(c.Ref.Value), FormatGot(c.Got), tol, verdict)
		}
	}
	if tr.Build != "" {
		b.WriteString("\n" + BuildLinePrefix + codeSpan(tr.Build) + ".\n")
	}
	return b.String()
}

// Unit is the unit of row mi as the tables print it: "ratio" for a row
// normalised to the first configuration (a ratio has no time unit),
// else the metric's own.
func (t Table) Unit(mi int) string {
	for _, c := range t.Cells[mi] {
		if c.Normalized {
			return "ratio"
		}
	}
	return t.Metrics[mi].Unit
}

// Passed reports whether every published number that applies to this run
// is met (NotApplying).
func (tr *ThreadRender) Passed() bool {
	for _, c := range tr.Res.Checks {
		if !c.Pass && tr.NotApplying(c.Ref) == "" {
			return false
		}
	}
	return true
}

// codeSpan is s as a Markdown code span (a longer fence when s holds a
// backtick).
func codeSpan(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// RefWhere names the table cell a reference number is compared with.
func RefWhere(variant, config, metric string) string {
	w := metric + ", " + config
	if variant != "" {
		w = variant + ": " + w
	}
	return w
}

// PassText is a check's verdict as the tables print it.
func PassText(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

// NoteText renders a reference's note in parentheses ("" if none).
func NoteText(n string) string {
	if n == "" {
		return ""
	}
	return " (" + n + ")"
}

// BetterMark is the "better" column: lower, higher or "-".
func BetterMark(b Better) string {
	if b == None {
		return "-"
	}
	return string(b)
}

// MDEscape makes s safe inside a Markdown table cell.
func MDEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}
