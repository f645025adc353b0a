package main

import (
	"testing"

	"schedplay/core/scenario"
	"schedplay/wasm/view"
)

// A collapsed LLC group stays collapsed for the next run of the same
// topology (a view setting, not the run's), and not on another topology.
func TestLaneGroupCollapseKept(t *testing.T) {
	run := func(topo string) *view.Run {
		sc, err := scenario.Decode([]byte(`{"version":1,"topology":"` + topo + `","duration":"10ms","tasks":[{"name":"hog","program":[{"run":-1}]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		r, err := view.NewRun(sc)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a := &App{}
	a.TL = NewTimelineCtl(a)
	a.Run = run("epyc-milan-2s64c")
	if n := len(a.laneRows(a.Run)); n != 256 {
		t.Fatalf("%d rows before collapsing, want 256", n)
	}
	a.ToggleLaneGroup(1)
	if a.TL.groupGen != 1 {
		t.Error("a collapse does not ask for a redraw")
	}
	a.Run = run("epyc-milan-2s64c") // a rerun
	rows := a.laneRows(a.Run)
	if len(rows) != 241 || rows[16] != (view.Row{CPU: -1, Group: 1}) {
		t.Fatalf("rerun: %d rows, [16] %v: want LLC 1 still collapsed", len(rows), rows[16])
	}
	if n := len(a.laneRows(run("xeon-4s18c"))); n != 144 {
		t.Fatalf("another topology: %d rows, want all 144", n)
	}
	a.ToggleLaneGroup(1)
	if n := len(a.laneRows(a.Run)); n != 256 {
		t.Fatalf("%d rows after expanding again", n)
	}
}
