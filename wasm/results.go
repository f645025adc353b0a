package main

// Results: the metrics panel's per-task and per-CPU tables and the
// wakeup-latency histogram, built outside Vugu's tree (bridge.Fill) into
// host elements of metrics.vugu, once per finished run and row count.
//
// They were template elements, so every page render re-sent them: Vugu
// v0.4.0's renderer sets every attribute again and each vg-content as an
// innerHTML the browser parses anew, and with 24 rows of each table the
// results were ~600 of the ~720 elements of a 256-CPU page, the bulk of
// the final render of a run (a long task at issue 3's 100 ms) and of every
// tab switch or click after it. Now a render that leaves the report and
// the rows asked for unchanged leaves the tables alone (Fill's key), so
// the tables can also offer "show all" rows at no cost to later renders.
//
// The markup is escaped by bridge.Markup (task names are user input).

import (
	"strconv"

	"schedplay/core/metrics"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// resultsState names the report the tables show: a new Run or a new row
// limit makes a new key.
type resultsState struct {
	run *view.Run
	gen int // bumped for each new run shown
}

// fillResults builds the tables and the histogram when what they show
// changed (called after each page render, in its task: the report's
// arrival renders the page once; the tables are one parse of ~600
// elements then, instead of a template walk of them at every render).
//
// With split set (a render that is followed by the after-render frames,
// App.AfterRender), a new run's results are filled later, in two steps
// (fillResultsPart, from App.afterFrame, which waits a frame after each):
// the per-task table, then the per-CPU table and the histogram, so that
// the results of a 256-CPU run are laid out in three frames instead of one
// long task (docs/playground-perf.md, "The 256-CPU run by phase").
// resultsDue counts the steps left.
func (a *App) fillResults(split bool) {
	m := &Metrics{App: a}
	rep := m.report()
	if rep == nil {
		a.resultsDue = 0
		return // the hosts are not in the page
	}
	st := &a.results
	if st.run != a.Run {
		st.run, st.gen = a.Run, st.gen+1
		if split {
			a.resultsDue = 2
			return
		}
	}
	a.resultsDue = 0
	a.fillTasks(m, rep)
	a.fillRest(m, rep)
}

// fillResultsPart fills the next step of a new run's results.
func (a *App) fillResultsPart() {
	m := &Metrics{App: a}
	rep := m.report()
	switch {
	case rep == nil:
		a.resultsDue = 0
	case a.resultsDue == 2:
		a.resultsDue = 1
		a.fillTasks(m, rep)
	default:
		a.resultsDue = 0
		a.fillRest(m, rep)
	}
}

func (a *App) resultsKey(limit int) string {
	return strconv.Itoa(a.results.gen) + "/" + strconv.Itoa(limit)
}

// fillTasks fills the per-task table.
func (a *App) fillTasks(m *Metrics, rep *metrics.Report) {
	tl := m.taskLimit()
	bridge.Fill(idTaskHost, a.resultsKey(tl), func(b *bridge.Markup) { taskTable(b, rep, tl) })
}

// fillRest fills the per-CPU table, the per-cgroup table (when the run
// has cgroups: its host is in the page only then) and the histogram.
func (a *App) fillRest(m *Metrics, rep *metrics.Report) {
	cl := m.cpuLimit()
	bridge.Fill(idCPUHost, a.resultsKey(cl), func(b *bridge.Markup) { cpuTable(b, rep, cl) })
	if len(rep.Cgroups) > 0 {
		bridge.Fill(idCgroupHost, a.resultsKey(0), func(b *bridge.Markup) { cgroupTable(b, rep) })
	}
	d := m.derived()
	bridge.Fill(idHist, a.resultsKey(0), func(b *bridge.Markup) { histogram(b, d) })
}

// resetRows shows the first rows of each table again (a new run).
func (a *App) resetRows() {
	a.TaskRowsMore, a.CPURowsMore, a.TaskRowsAll, a.CPURowsAll = 0, 0, false, false
}

var taskHead = []string{"task", "pid", "policy", "nice", "cpu", "runtime", "wait", "switches", "invol", "wakeups", "lat p50", "lat p99", "lat max"}

// taskTable writes the per-task table's first limit rows.
func taskTable(b *bridge.Markup, rep *metrics.Report, limit int) {
	tableHead(b, "task-table", taskHead)
	for _, t := range rep.Tasks[:min(len(rep.Tasks), limit)] {
		b.Open("tr").Open("td").El("span", "", "class", "swatch", "style", taskSwatch(t.Name)).El("span", t.Name).Close("td")
		for _, s := range []string{strconv.Itoa(t.PID), t.Policy, strconv.Itoa(t.Nice), pct(t.RuntimeNs, rep.DurationNs),
			dur(t.RuntimeNs), dur(t.WaitNs), i64(t.Switches), i64(t.InvoluntarySwitches), i64(t.Wakeups),
			dur(t.WakeupLatencyNs.P50), dur(t.WakeupLatencyNs.P99), dur(t.WakeupLatencyNs.Max)} {
			b.El("td", s)
		}
		b.Close("tr")
	}
	b.Close("tbody").Close("table")
}

var cpuHead = []string{"cpu", "busy", "busy time", "idle time", "switches"}

// cpuTable writes the per-CPU table's first limit rows.
func cpuTable(b *bridge.Markup, rep *metrics.Report, limit int) {
	tableHead(b, "cpu-table", cpuHead)
	for _, c := range rep.CPUs[:min(len(rep.CPUs), limit)] {
		b.Open("tr")
		for _, s := range []string{strconv.Itoa(c.ID), pct(c.BusyNs, rep.DurationNs), dur(c.BusyNs), dur(c.IdleNs), i64(c.Switches)} {
			b.El("td", s)
		}
		b.Close("tr")
	}
	b.Close("tbody").Close("table")
}

// cgroupTable writes the per-cgroup table: every group (a scenario has
// few; the decoder limits them), the cells the CLI summary prints
// (metrics.Report.CgroupCells), so the page and the CLI show the same
// digits.
func cgroupTable(b *bridge.Markup, rep *metrics.Report) {
	tableHead(b, "cgroup-table", metrics.CgroupHead)
	for _, g := range rep.Cgroups {
		b.Open("tr")
		for _, s := range rep.CgroupCells(g) {
			b.El("td", s)
		}
		b.Close("tr")
	}
	b.Close("tbody").Close("table")
}

// tableHead opens a data table and its body after the header row.
func tableHead(b *bridge.Markup, id string, head []string) {
	b.Open("table", "class", "data", "id", id).Open("thead").Open("tr")
	for _, h := range head {
		b.El("th", h)
	}
	b.Close("tr").Close("thead").Open("tbody")
}

// histogram writes the latency histogram's bars (each with its tooltip)
// and the CDF line, in one <g> (Fill keeps one root node).
func histogram(b *bridge.Markup, d *Derived) {
	b.Open("g")
	for _, bar := range d.Bars {
		b.Open("rect", "x", strconv.Itoa(bar.X), "y", strconv.Itoa(bar.Y), "width", strconv.Itoa(bar.W), "height", strconv.Itoa(bar.H), "class", "hbar").
			El("title", bar.Title).Close("rect")
	}
	b.El("polyline", "", "points", d.CDF, "class", "cdf")
	b.Close("g")
}

func i64(v int64) string { return strconv.FormatInt(v, 10) }
