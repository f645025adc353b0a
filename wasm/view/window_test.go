package view

import (
	"testing"

	"schedplay/core/sched"
)

// windowTimeline: n lanes; lane c busy with task c over [c ms, c ms + 5 ms)
// (so every lane draws something, and lanes differ).
func windowTimeline(n int) (*Timeline, []RGB) {
	tl := NewTimeline(n)
	colors := make([]RGB, n)
	for c := 0; c < n; c++ {
		s := sched.Time(c) * sched.Millisecond
		tl.Lanes[c].Slices = []Slice{{Start: s, End: s + 5*sched.Millisecond, Task: sched.TaskID(c)}}
		colors[c] = RGB{uint8(40 + c), 200, uint8(255 - c)}
	}
	tl.Now = sched.Time(n+5) * sched.Millisecond
	return tl, colors
}

// TestRasterWindowPaintsVisibleLanesCountsAll: a window of 40 rows below
// a 10-row axis onto 64 lanes of 6 rows, scrolled by 100 rows, paints the
// lanes whose rows fall in the window (clipped at the axis) and nothing
// else, and still counts the drawn columns of every lane, the same as a
// full-height raster does.
func TestRasterWindowPaintsVisibleLanesCountsAll(t *testing.T) {
	const n, lh, top, w = 64, 6, 10, 200
	tl, colors := windowTimeline(n)
	vp := Viewport{0, tl.Now}
	full := Layout{Width: w, Height: top + n*lh, LaneHeight: lh, Top: top}
	fullPix := make([]byte, 4*full.Width*full.Height)
	want := Raster(fullPix, full, vp, tl, colors)

	win := Layout{Width: w, Height: top + 40, LaneHeight: lh, Top: top, Scroll: 100}
	pix := make([]byte, 4*win.Width*win.Height)
	got := Raster(pix, win, vp, tl, colors)
	for c := range want {
		if got[c] != want[c] || want[c] == 0 {
			t.Fatalf("lane %d: %d columns counted in the window, %d in the full raster", c, got[c], want[c])
		}
	}
	// Every window row below the axis is the full raster's row 100 lower;
	// the axis rows stay background.
	for y := 0; y < win.Height; y++ {
		for x := 0; x < w; x++ {
			p := pix[4*(y*w+x):]
			g := RGB{p[0], p[1], p[2]}
			if y < top {
				if g != bgColor {
					t.Fatalf("axis row %d col %d painted %v", y, x, g)
				}
				continue
			}
			q := fullPix[4*((y+win.Scroll)*w+x):]
			if f := (RGB{q[0], q[1], q[2]}); g != f {
				t.Fatalf("window row %d col %d is %v, the full raster's row %d is %v", y, x, g, y+win.Scroll, f)
			}
		}
	}
	// VisibleOnly: the same pixels, and counts for the lanes in the
	// window only (at scroll 100, lanes 17..23 have bar rows in rows 10..49).
	win.VisibleOnly = true
	vis := make([]byte, len(pix))
	part := Raster(vis, win, vp, tl, colors)
	if string(vis) != string(pix) {
		t.Fatal("VisibleOnly changed the pixels")
	}
	for c := range part {
		in := c >= 17 && c <= 23
		if in && part[c] != want[c] || !in && part[c] != -1 {
			t.Fatalf("VisibleOnly: lane %d counted %d (full raster %d)", c, part[c], want[c])
		}
	}
	// The lane under a window row accounts for the scroll.
	for y := top; y < win.Height; y++ {
		if l, want := win.LaneAt(y, n), (y-top+win.Scroll)/lh; l != want {
			t.Fatalf("LaneAt(%d) = %d, want %d", y, l, want)
		}
	}
	if l := win.LaneAt(top-1, n); l != -1 {
		t.Fatalf("LaneAt on the axis = %d, want -1", l)
	}
	if l := win.LaneAt(win.Height, n); l != -1 {
		t.Fatalf("LaneAt below the window = %d, want -1", l)
	}
}

// BenchmarkRasterWindow256 and BenchmarkRasterFull256: one redraw of 256
// busy lanes, the window the page shows (560 rows) against the whole
// timeline (1554 rows).
func BenchmarkRasterWindow256(b *testing.B) { benchRaster256(b, 560) }
func BenchmarkRasterFull256(b *testing.B)   { benchRaster256(b, 18+256*6) }

func benchRaster256(b *testing.B, h int) {
	tl, colors := windowTimeline(256)
	lo := Layout{Width: 1200, Height: h, LaneHeight: 6, Top: 18}
	pix := make([]byte, 4*lo.Width*lo.Height)
	b.ResetTimer()
	for range b.N {
		Raster(pix, lo, Viewport{0, tl.Now}, tl, colors)
	}
}
