package view

import (
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// epyc-milan-2s64c: 16 LLCs of 16 CPUs, each an 8-core CCX with its SMT
// siblings 128 apart, in package order.
func TestLaneGroupsByLLC(t *testing.T) {
	m, err := topology.Preset("epyc-milan-2s64c")
	if err != nil {
		t.Fatal(err)
	}
	gs := LaneGroups(&m)
	if len(gs) != 16 {
		t.Fatalf("%d groups, want 16", len(gs))
	}
	if got := gs[0].Label(); got != "LLC 0 (package 0): CPUs 0-7,128-135" {
		t.Errorf("group 0: %q", got)
	}
	if g := gs[15]; g.Package != 1 || len(g.CPUs) != 16 || g.CPUs[0] != 120 || g.CPUs[15] != 255 {
		t.Errorf("group 15: %+v", g)
	}
	rows := Rows(gs, 256, func(k int) bool { return k == 1 })
	if len(rows) != 256-16+1 || rows[16] != (Row{CPU: -1, Group: 1}) || rows[17] != (Row{CPU: 16, Group: 2}) || rows[8] != (Row{CPU: 128, Group: 0}) {
		t.Fatalf("rows with LLC 1 collapsed: %d rows, [8] %v, [16] %v, [17] %v", len(rows), rows[8], rows[16], rows[17])
	}
	one, _ := topology.Preset("smp-8")
	if LaneGroups(&one) != nil {
		t.Error("a machine of one LLC has groups")
	}
}

// A collapsed group draws one summary lane: the busy fraction of all its
// CPUs and the dominant task group; its CPUs count -1, the others draw as
// before.
func TestRasterCollapsedGroup(t *testing.T) {
	const us = sched.Microsecond
	tl := NewTimeline(4)
	tl.Lanes[0].Slices = []Slice{{Start: 0, End: 100 * us, Task: 0}}
	tl.Lanes[2].Slices = []Slice{{Start: 0, End: 30 * us, Task: 1}, {Start: 40 * us, End: 60 * us, Task: 2}}
	tl.Lanes[3].Slices = []Slice{{Start: 50 * us, End: 60 * us, Task: 1}}
	tl.Now, tl.Ended = 100*us, true
	pal := &Palette{Task: []RGB{{250, 0, 0}, {0, 250, 0}, {0, 0, 250}}, Group: []int32{0, 1, 2},
		GroupColor: []RGB{{200, 0, 0}, {0, 200, 0}, {0, 0, 200}}}
	gs := []LaneGroup{{LLC: 0, CPUs: []int{0, 1}}, {LLC: 1, CPUs: []int{2, 3}}}
	lo := Layout{Width: 1, Height: 3 * 22, LaneHeight: 22, Rows: Rows(gs, 4, func(k int) bool { return k == 1 }), Groups: gs}
	pix := make([]byte, 4*lo.Width*lo.Height)
	drawn := RasterPalette(pix, lo, Viewport{0, 100 * us}, tl, pal)
	if drawn[0] != 1 || drawn[1] != 0 || drawn[2] != -1 || drawn[3] != -1 {
		t.Fatalf("drawn %v: want CPU 0 one column, CPU 1 none, the collapsed CPUs -1", drawn)
	}
	at := func(row int) RGB { p := pix[4*(lo.LaneTop(row)+10)*lo.Width:]; return RGB{p[0], p[1], p[2]} }
	if at(0) != pal.Task[0] || at(1) != laneColor {
		t.Errorf("CPU rows: %v %v", at(0), at(1))
	}
	// Group 1 ran 30+10 us and group 2 20 us of 2 x 100 us.
	if got, want := at(2), shade(RGB{0, 200, 0}, 60.0/200); got != want {
		t.Errorf("summary lane %v, want group 1 at 30%% busy, %v", got, want)
	}
	if lo.CPUAt(lo.LaneTop(2)+3, 4) != -1 || lo.CPUAt(lo.LaneTop(1)+3, 4) != 1 {
		t.Error("CPUAt does not follow the rows")
	}
}
