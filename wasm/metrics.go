package main

// Metrics: per-task and per-CPU tables from the core's metrics report, the
// wakeup-latency histogram with its CDF, per-CPU utilisation over time, and
// the exports (ftrace text, Perfetto JSON, metrics JSON and CSV).

import (
	"fmt"
	"math"

	"schedplay/core/metrics"
	"schedplay/wasm/view"
)

// Metrics is the results panel.
type Metrics struct {
	App *App `vugu:"data"`
}

func (c *Metrics) report() *metrics.Report {
	r := c.App.Run
	if r == nil || !r.Done() {
		return nil
	}
	return r.Report()
}

func pct(part, whole int64) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

func dur(ns int64) string { return view.FormatDur(ns) }

func taskSwatch(name string) string { return "background:" + view.TaskColor(name).Hex() }

// Bar is one histogram bar with its CDF point, in SVG coordinates.
type Bar struct {
	X, Y, W, H int
	Title      string
}

const (
	histW, histH = 420, 140
	// The tables show the first rows and grow by "show more" (a full page
	// render re-sends every row: a 256-CPU table would make the render at
	// the end of a run a long task); exports have every row.
	firstRows = 24
	moreRows  = 64
)

// Derived holds the figures computed once per finished run (sorting a
// million latencies on every render would stall the page).
type Derived struct {
	run     any
	Bars    []Bar
	CDF     string
	Summary string
}

func (c *Metrics) derived() *Derived {
	r := c.App.Run
	d := &c.App.derived
	if d.run == r {
		return d
	}
	*d = Derived{run: r, Summary: "no wakeups"}
	if r == nil || !r.Done() {
		d.run = nil
		return d
	}
	bs := r.Timeline.Latency.Buckets() // folded as the run streamed in
	if len(bs) == 0 {
		return d
	}
	peak := 1
	for _, b := range bs {
		peak = max(peak, b.Count)
	}
	w := min(histW/len(bs), 40)
	for i, b := range bs {
		h := int(math.Round(float64(b.Count) / float64(peak) * (histH - 20)))
		d.Bars = append(d.Bars, Bar{X: i * w, Y: histH - 14 - h, W: max(w-2, 1), H: h,
			Title: fmt.Sprintf("%s..%s: %d wakeups (CDF %.1f%%)", dur(b.Lo), dur(b.Hi), b.Count, 100*b.CDF)})
		d.CDF += fmt.Sprintf("%d,%d ", i*w+w/2, int(float64(histH-14)-b.CDF*float64(histH-20)))
	}
	d.Summary = fmt.Sprintf("%d wakeups, %s .. %s", r.Timeline.Latency.Len(), dur(bs[0].Lo), dur(bs[len(bs)-1].Hi))
	return d
}

func (c *Metrics) bars() []Bar         { return c.derived().Bars }
func (c *Metrics) cdf() string         { return c.derived().CDF }
func (c *Metrics) histSummary() string { return c.derived().Summary }

func (c *Metrics) taskLimit() int { return firstRows + c.App.TaskRowsMore*moreRows }
func (c *Metrics) cpuLimit() int  { return firstRows + c.App.CPURowsMore*moreRows }

func (c *Metrics) taskRows() []metrics.Task {
	ts := c.report().Tasks
	return ts[:min(len(ts), c.taskLimit())]
}

func hiddenRows(total, shown int, what string) string {
	n := total - shown
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d more %s (show %d more, or export metrics for all)", n, what, min(n, moreRows))
}

func (c *Metrics) moreTasks() string {
	return hiddenRows(len(c.report().Tasks), c.taskLimit(), "tasks")
}

func (c *Metrics) moreCPUs() string {
	return hiddenRows(len(c.report().CPUs), c.cpuLimit(), "CPUs")
}

func (c *Metrics) cpuRows() []metrics.CPU {
	cs := c.report().CPUs
	return cs[:min(len(cs), c.cpuLimit())]
}
