package report

// Line plots of a sweep: a metric's centre against the first key's
// values, one line per value of the second key (one line with one key),
// a dot per point with the table's cell as its tooltip. When every value
// of the first key is a number or a duration the x axis is linear in it;
// otherwise the values are spaced evenly in their order. The y axis starts
// at zero (or below it for negative values). Pure geometry in SVG user
// units: the page draws numbers and escaped text only.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
)

// Sweep plot layout, in SVG user units.
const (
	SweepPlotW = 440
	SweepPlotH = 230
	spLeft     = 62
	spRight    = 12
	spTop      = 12
	spBottom   = 44
)

// sweepPalette colours the lines (the second key's values, in order).
var sweepPalette = []string{"#58a6ff", "#f2c66d", "#7ee787", "#ff7b72", "#d2a8ff", "#79c0ff", "#ffa657", "#a5d6ff"}

// SweepPlot is one metric's line plot.
type SweepPlot struct {
	Title  string // metric (unit)
	XLabel string // the first key
	Lines  []SweepLine
	XTicks []SweepTick
	YTicks []SweepTick
	X0, X1 int // plot area
	Y0, Y1 int
	H      int // the SVG's height (the legend band grows it)
}

// SweepLine is one value of the second key (or the only line).
type SweepLine struct {
	Label   string // "KEY2=value", or "" with one key
	Color   string // #rrggbb
	Points  string // SVG polyline points
	Dots    []SweepDot
	LegendY int
}

// SweepDot is one point.
type SweepDot struct {
	X, Y  float64
	Title string
}

// SweepTick is an axis label.
type SweepTick struct {
	Pos   float64
	Label string
}

// numericAxis returns the values as numbers when all of them are numbers
// or durations (ns), else nil.
func numericAxis(vals []string) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			out[i] = f
			continue
		}
		d, err := scenario.ParseDuration("", v)
		if err != nil {
			return nil
		}
		out[i] = float64(d)
	}
	return out
}

func sweepPlot(sw *experiment.Sweep, metric, unit string) SweepPlot {
	nl := 1
	if len(sw.Axes) == 2 {
		nl = len(sw.Axes[1].Values)
	}
	// With two keys the legend is a band above the plot area, one line
	// per value, so it never covers a line.
	top := spTop
	if nl > 1 {
		top += 14 * nl
	}
	p := SweepPlot{Title: metric + " (" + unit + ")", XLabel: sw.Axes[0].Key,
		X0: spLeft, X1: SweepPlotW - spRight, Y0: top, Y1: SweepPlotH + top - spTop - spBottom}
	xs := sw.Axes[0].Values
	pos := make([]float64, len(xs))
	w := float64(p.X1 - p.X0)
	if num := numericAxis(xs); num != nil {
		lo, hi := num[0], num[0]
		for _, v := range num {
			lo, hi = min(lo, v), max(hi, v)
		}
		for i, v := range num {
			pos[i] = float64(p.X0) + w/2
			if hi > lo {
				pos[i] = float64(p.X0) + w*(v-lo)/(hi-lo)
			}
		}
	} else {
		for i := range xs {
			pos[i] = float64(p.X0) + w/2
			if len(xs) > 1 {
				pos[i] = float64(p.X0) + w*float64(i)/float64(len(xs)-1)
			}
		}
	}
	p.H = p.Y1 + spBottom
	for i, v := range xs {
		p.XTicks = append(p.XTicks, SweepTick{Pos: round1(pos[i]), Label: v})
	}
	c := centres(sw, metric)
	lo, hi := 0.0, 0.0
	for _, v := range c {
		if !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	h := float64(p.Y1 - p.Y0)
	ypos := func(v float64) float64 { return float64(p.Y1) - h*(v-lo)/(hi-lo) }
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		p.YTicks = append(p.YTicks, SweepTick{Pos: round1(ypos(v)), Label: experiment.FormatValue(v)})
	}
	for li := range nl {
		ln := SweepLine{Color: sweepPalette[li%len(sweepPalette)], LegendY: spTop + 14*li}
		if len(sw.Axes) == 2 {
			ln.Label = sw.Axes[1].Key + "=" + sw.Axes[1].Values[li]
		}
		var pts []string
		for xi := range xs {
			pt := xi*nl + li
			if math.IsNaN(c[pt]) {
				continue
			}
			x, y := round1(pos[xi]), round1(ypos(c[pt]))
			pts = append(pts, fmt.Sprintf("%g,%g", x, y))
			title := sw.Axes[0].Key + "=" + xs[xi]
			if ln.Label != "" {
				title += " " + ln.Label
			}
			ln.Dots = append(ln.Dots, SweepDot{X: x, Y: y, Title: title + ": " + sw.Cell(metric, pt)})
		}
		ln.Points = strings.Join(pts, " ")
		p.Lines = append(p.Lines, ln)
	}
	return p
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
