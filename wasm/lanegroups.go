package main

// Lane groups on the page: the timeline's lanes by LLC (view.LaneGroups),
// each group collapsible into one summary lane from the buttons above the
// timeline. Which groups are collapsed is a view setting beside the side
// panel's open sections (App.open, tabs.go), per topology and LLC, so it
// survives reruns and edits; the pinned A run is drawn with the same rows.

import (
	"fmt"

	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// laneGroupKey is the open-sections entry of a collapsed group.
func laneGroupKey(topo string, llc int) string { return fmt.Sprintf("lanes:%s:llc%d", topo, llc) }

// topoOf is the topology a run's lane groups belong to.
func topoOf(r *view.Run) string {
	if r.Scenario == nil {
		return ""
	}
	return r.Scenario.Topology
}

// laneRows are run r's timeline rows with the collapsed groups folded.
func (a *App) laneRows(r *view.Run) []view.Row {
	topo := topoOf(r)
	return view.Rows(r.Groups, r.NumCPUs(), func(k int) bool {
		return a.SectionOpen(laneGroupKey(topo, r.Groups[k].LLC))
	})
}

// ToggleLaneGroup collapses or expands group k of the current run.
func (a *App) ToggleLaneGroup(k int) {
	r := a.Run
	if r == nil || k < 0 || k >= len(r.Groups) {
		return
	}
	a.ToggleSection(laneGroupKey(topoOf(r), r.Groups[k].LLC))
	a.TL.groupGen++ // the canvases redraw after the render (DrawChanged)
}

// LaneGroupButton is one group's button above the timeline.
type LaneGroupButton struct {
	K               int
	ID, Text, Title string
	Collapsed       bool
}

// laneGroupButtons lists the current run's groups (none for one LLC).
func (c *Root) laneGroupButtons() []LaneGroupButton {
	r := c.App.Run
	if r == nil || c.App.Trace != nil {
		return nil
	}
	var out []LaneGroupButton
	for k, g := range r.Groups {
		shut := c.App.SectionOpen(laneGroupKey(topoOf(r), g.LLC))
		b := LaneGroupButton{K: k, ID: fmt.Sprintf("llc-%d", g.LLC), Title: g.Label(), Collapsed: shut}
		if shut {
			b.Text = fmt.Sprintf("▸ LLC %d", g.LLC)
			b.Title += " (collapsed: one lane of the group's busy share; click to expand)"
		} else {
			b.Text = fmt.Sprintf("▾ LLC %d", g.LLC)
			b.Title += " (click to collapse into one lane)"
		}
		out = append(out, b)
	}
	return out
}

// rowLabel names a timeline row: its CPU, or its group.
func rowLabel(r *view.Run, row view.Row) string {
	if row.CPU >= 0 {
		return fmt.Sprintf("CPU%d", row.CPU)
	}
	return fmt.Sprintf("LLC %d", r.Groups[row.Group].LLC)
}

// publishRows exposes the main canvas's rows, top to bottom: a CPU number,
// or -1 - k for the summary lane of group k (window.schedplay.laneRows),
// so a test reads a row's pixels for the lane it shows.
func (tc *TimelineCtl) publishRows() {
	if tc.lo.Rows == nil {
		bridge.Publish("laneRows", nil)
		return
	}
	rows := make([]any, len(tc.lo.Rows))
	for i, r := range tc.lo.Rows {
		v := r.CPU
		if v < 0 {
			v = -1 - r.Group
		}
		rows[i] = float64(v)
	}
	bridge.Publish("laneRows", rows)
}
