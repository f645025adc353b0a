package view

import (
	"testing"

	"schedplay/core/sched"
)

// A hand-built lane: the column's colour is the group with the most busy
// time in it (ties to the lower group), at the column's busy fraction.
func TestDensityDominantGroupAndFraction(t *testing.T) {
	const us = sched.Microsecond
	tl := NewTimeline(1)
	tl.Lanes[0].Slices = []Slice{
		// column 0 = [0, 100us): group 0 runs 10+5, group 1 runs 25.
		{Start: 0, End: 10 * us, Task: 0}, {Start: 20 * us, End: 25 * us, Task: 1}, {Start: 30 * us, End: 55 * us, Task: 2},
		// column 1 = [100us, 200us): group 0 runs 30 (task 0 and 1), group 1 runs 30: a tie.
		{Start: 100 * us, End: 120 * us, Task: 0}, {Start: 120 * us, End: 130 * us, Task: 1}, {Start: 150 * us, End: 180 * us, Task: 2},
	}
	tl.Now, tl.Ended = 200*us, true
	pal := &Palette{Task: []RGB{{250, 0, 0}, {240, 0, 0}, {0, 250, 0}}, Group: []int32{0, 0, 1},
		GroupColor: []RGB{{200, 0, 0}, {0, 200, 0}}}
	lo := Layout{Width: 2, Height: 22, LaneHeight: 22}
	pix := make([]byte, 4*lo.Width*lo.Height)
	drawn := RasterPalette(pix, lo, Viewport{0, 200 * us}, tl, pal)
	if drawn[0] != 2 {
		t.Fatalf("%d columns drawn, want 2", drawn[0])
	}
	at := func(x int) RGB { p := pix[4*(10*lo.Width+x):]; return RGB{p[0], p[1], p[2]} }
	if got, want := at(0), shade(RGB{0, 200, 0}, 40.0/100); got != want {
		t.Errorf("column 0: %v, want group 1 at 40%% busy, %v", got, want)
	}
	if got, want := at(1), shade(RGB{200, 0, 0}, 60.0/100); got != want {
		t.Errorf("column 1: %v, want group 0 (tie) at 60%% busy, %v", got, want)
	}
	if at(0) == at(1) || shade(RGB{0, 200, 0}, 0.4) == shade(RGB{0, 200, 0}, 0.9) {
		t.Error("intensity does not follow the busy fraction")
	}
}

// The indexed column (prefix sums by group run) equals the walk over the
// slices, for every column of a real run at several zooms; and a run's
// palette groups its tasks by task group with the legend's colours.
func TestDensityIndexMatchesWalk(t *testing.T) {
	r := finishedRun(t, `{"version":1,"topology":"smp-4","duration":"30ms","seed":1,
 "tasks":[{"name":"y","instances":9,"loop":-1,"program":[{"run":"20us"},{"yield":true}]},
          {"name":"p","instances":3,"loop":-1,"program":[{"run":"70us"},{"sleep":"100us"}]}]}`)
	p := r.Palette
	if len(p.GroupColor) != 2 || p.GroupColor[0] != GroupColor("y") || p.GroupColor[1] != GroupColor("p") {
		t.Fatalf("groups %v: want y and p in the legend's colours", p.GroupColor)
	}
	tl := r.Timeline
	end := r.Duration()
	cols := 0
	for _, vp := range []Viewport{{0, end}, {end / 3, end / 2}, {end / 7, end/7 + 300*sched.Microsecond}} {
		const w = 500
		perPx := float64(vp.T1-vp.T0) / w
		for c := range tl.Lanes {
			d := p.index(tl, c)
			sl := tl.Lanes[c].Slices
			for x := 0; x < w; x++ {
				c0 := vp.T0 + sched.Time(float64(x)*perPx)
				c1 := vp.T0 + sched.Time(float64(x+1)*perPx)
				i := tl.firstEndingAfter(c, c0)
				j := gallop(sl, i, c1)
				if j-i < 2 {
					continue
				}
				cols++
				if a, b := p.column(tl, c, d, i, j, c0, c1), p.column(tl, c, nil, i, j, c0, c1); a != b {
					t.Fatalf("viewport %v cpu %d column %d (slices %d..%d): indexed %v, walk %v", vp, c, x, i, j, a, b)
				}
			}
		}
	}
	if cols < 1000 {
		t.Fatalf("only %d multi-slice columns checked", cols)
	}
}
