package view

import (
	"bytes"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// The level-of-detail index changes the cost of a redraw, never its
// pixels: drawing with it equals drawing by galloping, at several zooms,
// including mid-run (the index extended lazily between redraws).
func TestLODRasterMatchesGallop(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"smp-4","duration":"30ms","seed":1,
 "tasks":[{"name":"y","instances":9,"loop":-1,"program":[{"run":"20us"},{"yield":true}]},
          {"name":"p","instances":3,"loop":-1,"program":[{"run":"700us"},{"sleep":"1ms"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := newTestRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	lo := Layout{Width: 700, Height: 4 * 22, LaneHeight: 22}
	a, b := make([]byte, 4*lo.Width*lo.Height), make([]byte, 4*lo.Width*lo.Height)
	check := func(vp Viewport) {
		t.Helper()
		na := Raster(a, lo, vp, r.Timeline, r.Colors)
		saved := r.Timeline.lod
		r.Timeline.lod = nil
		nb := Raster(b, lo, vp, r.Timeline, r.Colors)
		r.Timeline.lod = saved
		if !bytes.Equal(a, b) {
			t.Fatalf("viewport %v: pixels differ with the index", vp)
		}
		for c := range na {
			if na[c] != nb[c] {
				t.Fatalf("viewport %v cpu %d: %d vs %d columns", vp, c, na[c], nb[c])
			}
		}
	}
	if r.Timeline.lod == nil {
		t.Fatal("no level-of-detail index")
	}
	for step := 0; !r.Advance(20_000); step++ {
		check(Viewport{0, r.Now()}) // streaming: the index grows between redraws
	}
	end := r.Duration()
	if r.Timeline.NumSlices() < 1000 {
		t.Fatalf("only %d slices", r.Timeline.NumSlices())
	}
	for _, vp := range []Viewport{{0, end}, {end / 3, end / 2}, {end / 7, end/7 + 50*sched.Microsecond}, {1, end - 1}} {
		check(vp)
	}
}
