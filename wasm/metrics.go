package main

// Metrics: per-task and per-CPU tables from the core's metrics report, the
// wakeup-latency histogram with its CDF, per-CPU utilisation over time, and
// the exports (ftrace text, Perfetto JSON, metrics JSON and CSV). The
// tables and the histogram are built outside the template (results.go);
// the component has their host elements, captions and row buttons.

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
	// The tables show the first rows and grow by "show N more" or, up to
	// allRows rows, "show all" (results.go builds them outside the
	// template, so rows shown cost no later page render). The browser's
	// own style and layout of a table grow with it: all 256 CPU rows cost
	// ~70 ms of main-thread CPU once, 1024 task rows ~580 ms, so bigger
	// tables grow by pages on request; exports have every row.
	firstRows = 24
	moreRows  = 64
	allRows   = 256
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

func (c *Metrics) histSummary() string { return c.derived().Summary }

// rowLimit is how many rows a table shows: the first rows, "show more"
// pages of more, or all.
func rowLimit(more int, all bool) int {
	if all {
		return math.MaxInt
	}
	return firstRows + more*moreRows
}

func (c *Metrics) taskLimit() int { return rowLimit(c.App.TaskRowsMore, c.App.TaskRowsAll) }
func (c *Metrics) cpuLimit() int  { return rowLimit(c.App.CPURowsMore, c.App.CPURowsAll) }

func hiddenRows(total, shown int, what string) string {
	n := total - shown
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d more %s (or export metrics.json):", n, what)
}

// moreLabel and allLabel are the row buttons' captions.
func (c *Metrics) moreLabel(total, shown int) string {
	return fmt.Sprintf("show %d more", min(total-shown, moreRows))
}

func (c *Metrics) allLabel(total int) string { return fmt.Sprintf("show all %d", total) }

// canShowAll reports whether a table of total rows offers "show all".
func canShowAll(total int) bool { return total <= allRows }

func (c *Metrics) moreTasks() string {
	return hiddenRows(len(c.report().Tasks), c.taskLimit(), "tasks")
}

func (c *Metrics) moreCPUs() string {
	return hiddenRows(len(c.report().CPUs), c.cpuLimit(), "CPUs")
}
