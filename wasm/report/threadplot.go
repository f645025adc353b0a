package report

// Bar plots of a thread's table: one plot per metric and variant, one
// horizontal bar per configuration (its value, normalised when the table
// is), a whisker for the run-to-run deviation, and for each published
// number of the thread on that cell a marker with its tolerance band, so
// the simulator's bar and the thread's number are seen side by side.
// Pure geometry in SVG user units; the page draws it as SVG elements
// (numbers and escaped text only).

import (
	"fmt"

	"schedplay/core/experiment"
)

// Plot layout, in SVG user units.
const (
	PlotW      = 430 // whole plot
	plotLabelW = 120 // configuration names
	plotBarW   = 220 // the bars' full scale
	plotRowH   = 22
	plotBarH   = 14
)

// Plot is one metric's bar plot.
type Plot struct {
	Title  string
	H      int
	Bars   []PlotBar
	Refs   []PlotRef
	AxisX  int // x of the zero line
	ScaleT string
}

// PlotBar is one configuration's bar.
type PlotBar struct {
	Label, Value   string // configuration, value without deviation and change
	Title          string // the table's cell text
	Y, X, W        int
	TextY, ValueX  int
	DevX0, DevX1   int // deviation whisker (DevX0 == DevX1: none)
	WhiskerY       int
	Missing, First bool
}

// PlotRef is a published number's marker and tolerance band.
type PlotRef struct {
	X, BandX, BandW, Y, H int
	Pass                  bool
	NA                    bool // the number does not apply to this run (ThreadCheck.NotApplying)
	Title                 string
}

// ThreadPlots returns the plots of table ti.
func (r *ThreadReport) ThreadPlots(ti int) []Plot {
	t := r.Tables[ti]
	var out []Plot
	for _, row := range t.Rows {
		p := Plot{Title: row.Metric, H: plotRowH*len(row.Cells) + 6, AxisX: plotLabelW}
		var refs []ThreadCheck
		top := 0.0
		for _, c := range row.Cells {
			if c.Has {
				top = max(top, c.Value*(1+c.Dev/100))
			}
		}
		for _, ck := range r.Checks {
			if ck.Variant == t.Variant && ck.Metric == row.Metric {
				refs = append(refs, ck)
				top = max(top, ck.Hi)
			}
		}
		if top <= 0 {
			top = 1
		}
		x := func(v float64) int { return plotLabelW + int(float64(plotBarW)*max(0, min(v, top))/top+0.5) }
		p.ScaleT = fmt.Sprintf("full scale %s %s", fmtScale(top), row.Unit)
		if row.Unit == "ratio" {
			p.ScaleT = fmt.Sprintf("full scale %s (ratio to %s)", fmtScale(top), r.Configs[0])
		}
		for ci, c := range row.Cells {
			y := 3 + ci*plotRowH
			b := PlotBar{Label: r.Configs[ci], Value: r.shortValue(c), Title: c.Text, Y: y, X: plotLabelW, TextY: y + plotBarH - 3,
				WhiskerY: y + plotBarH/2, First: ci == 0, Missing: !c.Has}
			if c.Has {
				b.W = x(c.Value) - plotLabelW
				if r.Runs > 1 && c.Dev > 0 {
					d := c.Value * c.Dev / 100
					b.DevX0, b.DevX1 = x(c.Value-d), x(c.Value+d)
				}
			}
			b.ValueX = plotLabelW + plotBarW + 6
			p.Bars = append(p.Bars, b)
			for _, ck := range refs {
				if ck.Config != r.Configs[ci] {
					continue
				}
				lo, hi := x(ck.Lo), x(ck.Hi)
				p.Refs = append(p.Refs, PlotRef{X: x(ck.Thread), BandX: lo, BandW: max(1, hi-lo), Y: y - 2, H: plotBarH + 4,
					Pass: ck.Pass, NA: ck.NotApplying != "", Title: refTitle(ck, row.Unit)})
			}
		}
		out = append(out, p)
	}
	return out
}

func fmtScale(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// shortValue is a bar's label: the value alone, as precise as the table.
func (r *ThreadReport) shortValue(c ThreadCell) string {
	switch {
	case !c.Has:
		return "-"
	case c.Normalized:
		return fmt.Sprintf("%.3f", c.Value)
	}
	return experiment.FormatValue(c.Value)
}

// refTitle is a marker's tooltip: the thread's number and tolerance, and
// why it does not apply when it does not.
func refTitle(ck ThreadCheck, unit string) string {
	t := fmt.Sprintf("thread: %s %s (%s)", ck.ThreadText, unit, ck.Tolerance)
	if ck.NotApplying != "" {
		t += "; " + ck.NotApplying
	}
	return t
}
