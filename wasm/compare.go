package main

// Compare: the A/B panel, run A (pinned) against run B (current), task by
// task (or group by group on a large workload) and for the machine, with
// the relative change, in the spirit of the tables of scheduler patch
// threads. The rows are view.CompareRuns; the table is built outside
// Vugu's tree (bridge.Fill, as results.go does for the metrics tables)
// once per pair of runs, so later page renders do not re-send it.

import (
	"fmt"
	"strconv"

	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// Compare is the A/B panel.
type Compare struct {
	App *App `vugu:"data"`
}

// ready reports whether the table can be shown (B finished).
func (c *Compare) ready() bool { return c.App.Run != nil && c.App.Run.Done() }

// compareState names the pair of runs the table shows.
type compareState struct {
	a, b *view.Run
	gen  int
}

// fillCompare builds the A/B table when its pair of runs changed, and
// empties it while B runs.
func (a *App) fillCompare() {
	if a.A == nil || a.Embed {
		return // the panel is not in the page
	}
	st := &a.compare
	if st.a != a.A || st.b != a.Run {
		st.a, st.b, st.gen = a.A, a.Run, st.gen+1
	}
	key := ""
	if a.Run != nil && a.Run.Done() {
		key = strconv.Itoa(st.gen)
	}
	bridge.Fill(idCompareHost, key, func(b *bridge.Markup) {
		rows := view.CompareRuns(a.A, a.Run)
		tableHead(b, "compare-table", []string{"metric", "A", "B", "change"})
		for _, r := range rows {
			b.Open("tr").El("td", r.Metric).El("td", r.A).El("td", r.B).El("td", r.Change).Close("tr")
		}
		b.Close("tbody").Close("table")
	})
}

func (c *Compare) seedsClass() string {
	if c.App.ABSeedsStale() != "" {
		return "stale"
	}
	return ""
}

func (c *Compare) seedsHead() string {
	st := &c.App.ABS
	return fmt.Sprintf("%d runs per side (%s), AMean; %s", st.N, st.Seeds, c.App.ABWhat())
}

// abUnitTitle explains a unit on hover (a share's definition).
func abUnitTitle(r ABRow) string {
	if r.Unit == "%" {
		return "percent: " + r.Help
	}
	return ""
}
