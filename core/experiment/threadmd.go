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
)

// ThreadRender is an evaluated experiment with what produced it.
type ThreadRender struct {
	Name   string   // scenario or preset name
	Runs   int      // seeds per cell
	Seeds  []uint64 // the seeds, in order
	Labels []string // "topology T, kernel K" per variant
	Res    ThreadResult
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
	b.WriteString(". Regenerate: `schedplay compare -preset " + tr.Name + "`.\n")
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
			fmt.Fprintf(&b, "| %s | %s | %s |", MDEscape(d.Name), d.Unit, BetterMark(d.Better))
			for _, c := range t.Cells[mi] {
				b.WriteString(" " + tr.CellText(c) + " |")
			}
			b.WriteByte('\n')
		}
	}
	if len(tr.Res.Checks) > 0 {
		b.WriteString("\n| the thread's number | thread | simulator | tolerance | result |\n|---|--:|--:|--:|---|\n")
		for _, c := range tr.Res.Checks {
			fmt.Fprintf(&b, "| %s%s | %s | %s | %s | %s |\n", MDEscape(RefWhere(c.Ref.Variant, c.Ref.Config, c.Ref.Metric)),
				MDEscape(NoteText(c.Ref.Note)), FormatValue(c.Ref.Value), FormatGot(c.Got), c.Ref.ToleranceText(), PassText(c.Pass))
		}
	}
	return b.String()
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
