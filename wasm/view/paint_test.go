package view

import (
	"bytes"
	"slices"
	"testing"

	"schedplay/core/sched"
)

// paintRun is a finished run of an 8-CPU machine with two task
// groups: lanes dense enough for the density index at a 300-pixel width.
func paintRun(t *testing.T) *Run {
	t.Helper()
	return finishedRun(t, `{"version":1,"topology":"smp-8","duration":"60ms","seed":3,
 "tasks":[{"name":"y","instances":12,"loop":-1,"program":[{"run":"5us"},{"yield":true}]},
          {"name":"p","instances":3,"loop":-1,"program":[{"run":"70us"},{"sleep":"100us"}]}]}`)
}

// A drawing in steps of any budget is the same bytes and counts as the
// drawing in one call, with a fresh palette (its density index built
// over the steps) and with one whose index is already built; every step
// but those that end a row stays within its budget plus one row's work.
func TestPaintStepsMatchOneDraw(t *testing.T) {
	r := paintRun(t)
	tl := r.Timeline
	gs := []LaneGroup{{LLC: 0, CPUs: []int{0, 1, 2, 3}}, {LLC: 1, CPUs: []int{4, 5, 6, 7}}}
	layouts := map[string]Layout{
		"all":       {Width: 300, Height: 18 + 8*8, LaneHeight: 8, Top: 18},
		"scrolled":  {Width: 300, Height: 18 + 4*8, LaneHeight: 8, Top: 18, Scroll: 3 * 8},
		"streaming": {Width: 300, Height: 18 + 4*8, LaneHeight: 8, Top: 18, Scroll: 8, VisibleOnly: true},
		"collapsed": {Width: 300, Height: 18 + 5*8, LaneHeight: 8, Top: 18, Rows: Rows(gs, 8, func(k int) bool { return k == 1 }), Groups: gs},
	}
	end := r.Duration()
	for _, name := range []string{"all", "scrolled", "streaming", "collapsed"} {
		lo := layouts[name]
		for _, vp := range []Viewport{{0, end}, {end / 3, end/3 + 2*sched.Millisecond}, {end / 2, end / 2}} {
			want := make([]byte, 4*lo.Width*lo.Height)
			wantDrawn := RasterPalette(want, lo, vp, tl, freshPalette(r.Palette))
			ref := make([]byte, len(want))
			if refDrawn := rasterOneCall(ref, lo, vp, tl, freshPalette(r.Palette)); !bytes.Equal(ref, want) || !slices.Equal(refDrawn, wantDrawn) {
				t.Fatalf("%s vp %v: RasterPalette differs from the drawing in one loop", name, vp)
			}
			for _, budget := range []int{1, 700, 5000, 1 << 30} {
				for _, pal := range []*Palette{freshPalette(r.Palette), r.Palette} {
					got := make([]byte, len(want))
					p := NewPaint(got, lo, vp, tl, pal)
					steps, prevY := 0, 0
					for first := true; first || !p.Done(); first = false {
						y0, y1 := p.Step(budget)
						if y0 != prevY || y1 < y0 {
							t.Fatalf("%s budget %d: step %d made rows [%d, %d) final after %d", name, budget, steps, y0, y1, prevY)
						}
						prevY = y1
						steps++
						if steps > 100000 {
							t.Fatalf("%s budget %d: no end", name, budget)
						}
					}
					if prevY != lo.Height {
						t.Errorf("%s budget %d: rows final up to %d of %d", name, budget, prevY, lo.Height)
					}
					if !bytes.Equal(got, want) || !slices.Equal(p.Drawn, wantDrawn) {
						t.Fatalf("%s vp %v budget %d: the drawing in %d steps differs from the drawing in one", name, vp, budget, steps)
					}
					if budget == 1 && lo.Rows != nil && vp.T1 > vp.T0 && steps < len(lo.Rows) {
						t.Errorf("%s: budget 1 took %d steps for %d rows", name, steps, len(lo.Rows))
					}
				}
			}
		}
	}
}

// A long lane's density index is built over several steps, each within
// the budget, before its row is painted; the drawing is the same.
func TestPaintBuildsIndexInPieces(t *testing.T) {
	tl := NewTimeline(2)
	for c := range 2 {
		sl := make([]Slice, 200_000)
		for i := range sl {
			sl[i] = Slice{Start: sched.Time(i) * 5000, End: sched.Time(i)*5000 + 4000, Task: sched.TaskID((i / 3) % 4)}
		}
		tl.Lanes[c].Slices = sl
	}
	tl.Now, tl.Ended = 200_000*5000, true
	pal := func() *Palette {
		return &Palette{Task: []RGB{{250, 0, 0}, {0, 250, 0}, {0, 0, 250}, {250, 250, 0}}, Group: []int32{0, 0, 1, 1},
			GroupColor: []RGB{{200, 0, 0}, {0, 200, 0}}}
	}
	lo := Layout{Width: 400, Height: 18 + 2*10, LaneHeight: 10, Top: 18}
	vp := Viewport{0, tl.Now}
	want := make([]byte, 4*lo.Width*lo.Height)
	wantDrawn := RasterPalette(want, lo, vp, tl, pal())
	const budget = 30_000
	got := make([]byte, len(want))
	p := NewPaint(got, lo, vp, tl, pal())
	steps := 0
	for !p.Done() {
		p.Step(budget)
		steps++
	}
	if !bytes.Equal(got, want) || !slices.Equal(p.Drawn, wantDrawn) {
		t.Fatal("the drawing in steps differs from the drawing in one")
	}
	// 400k slices indexed in pieces of the budget, then two rows of a few
	// terms per column.
	if steps < 2*200_000/budget || p.MaxStep > 2*budget {
		t.Errorf("%d steps, the largest %d work units (budget %d, total %d): the index was not built in pieces", steps, p.MaxStep, budget, p.Work)
	}
}

// freshPalette is p without its density index.
func freshPalette(p *Palette) *Palette {
	return &Palette{Task: p.Task, Group: p.Group, GroupColor: p.GroupColor}
}

// rasterOneCall is the drawing in one loop over the rows, as RasterPalette
// was before the steps: the reference the steps are checked against.
func rasterOneCall(pix []byte, lo Layout, vp Viewport, tl *Timeline, pal *Palette) []int {
	w, h := lo.Width, lo.Height
	drawn := make([]int, len(tl.Lanes))
	fill(pix, w, 0, 0, w, h, bgColor)
	if vp.T1 <= vp.T0 || w <= 0 {
		return drawn
	}
	bar := lo.LaneHeight - 2
	row := make([]byte, 4*w)
	var mask []bool
	rows := lo.Rows
	if rows == nil {
		rows = Rows(nil, len(tl.Lanes), nil)
	} else {
		for c := range drawn {
			drawn[c] = -1
		}
	}
	for r, rw := range rows {
		y0 := lo.LaneTop(r)
		ya, yb := max(y0, lo.Top), min(y0+bar, h)
		if rw.CPU < 0 {
			if ya < yb && rw.Group >= 0 && rw.Group < len(lo.Groups) {
				summaryRow(row, vp, tl, lo.Groups[rw.Group].CPUs, pal)
				for y := ya; y < yb; y++ {
					copy(pix[4*y*w:4*(y+1)*w], row)
				}
			}
			continue
		}
		c := rw.CPU
		if ya >= yb && lo.VisibleOnly {
			drawn[c] = -1
			continue
		}
		if ya >= yb {
			drawn[c], _ = rasterRow(row, vp, tl, c, nil)
			continue
		}
		drawn[c], _ = rasterRow(row, vp, tl, c, pal)
		if len(tl.Lanes[c].Throttled) > 0 {
			if mask == nil {
				mask = make([]bool, w)
			}
			if tl.ThrottledColumns(mask, vp, c) {
				shadeThrottled(pix, row, mask, w, ya, yb, y0+bar)
				drawMarks(pix, lo, vp, tl.Lanes[c].Marks, y0, ya, yb, bar)
				continue
			}
		}
		for y := ya; y < yb; y++ {
			copy(pix[4*y*w:4*(y+1)*w], row)
		}
		drawMarks(pix, lo, vp, tl.Lanes[c].Marks, y0, ya, yb, bar)
	}
	return drawn
}
