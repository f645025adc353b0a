package view

// Raster: the timeline drawn into an RGBA pixel buffer, which the bridge
// copies to the canvas with one putImageData call (one crossing into JS per
// frame instead of one per rectangle).
//
// Level of detail: for each lane and pixel column the renderer finds, by
// binary search, the slices overlapping the column's time range. One slice
// covering the column: its task's colour. Several, or one covering part of
// the column (the column is coarser than the schedule): the dominant task
// group's colour at the column's busy fraction (density.go). Cost is
// O(lanes x width x log slices) whatever the zoom or run length, plus one
// term per run of a group within a column, which keeps a redraw of a
// million-slice run within a frame.
//
// Wakeup ticks take the top quarter of a thin lane's bar (at most 4 rows):
// on a 144-CPU machine the bar is 4 pixels, and full-height ticks at every
// column made the lanes white stripes.
//
// Throttled cgroups (throttle.go): the columns where a group's cfs_rq on
// the lane's CPU was throttled are tinted when idle and underlined.
//
// Visible lanes only: on a large machine the canvas is a window onto the
// lanes (Layout.Scroll pixels of them scrolled off above it, the time axis
// pinned at the top), and only the lanes in that window are painted: the
// pixel buffer, the row copies and the putImageData are proportional to
// the window, not to the machine. The per-lane column counts (which the
// browser tests and the machine drawing's checks read back) are still
// computed for every lane, from the one-row raster alone, except with
// Layout.VisibleOnly (the frames of a streaming run).
//
// RasterPalette draws every row in one call; the page draws the same rows
// in steps of bounded work, a browser task each (paint.go).

import (
	"sort"

	"schedplay/core/sched"
)

// Viewport is the visible time range.
type Viewport struct {
	T0, T1 sched.Time
}

// Layout is the geometry of the drawing.
type Layout struct {
	Width, Height int // pixels
	LaneHeight    int // pixels per lane, including a 2px gap
	Top           int // pixels above the first lane (time axis)
	Scroll        int // pixels of lanes scrolled off above Top (0: lane 0 first)
	// VisibleOnly: lanes scrolled out of the window are not counted either
	// (their count is -1), for the redraws of a streaming run, whose cost
	// is then proportional to the window alone.
	VisibleOnly bool
	// Rows are the lanes top to bottom (lanegroups.go), Groups the lane
	// groups their summary rows stand for; nil Rows: one row per CPU in
	// order. A CPU in no row (its group collapsed) counts -1.
	Rows   []Row
	Groups []LaneGroup
}

// LaneTop is the pixel row of row c's top (above Top or below Height when
// the lane is scrolled out of the window).
func (lo Layout) LaneTop(c int) int { return lo.Top + c*lo.LaneHeight - lo.Scroll }

// CPUAt is the CPU of the row under pixel row y, or -1 (no row, or a
// group's summary row).
func (lo Layout) CPUAt(y, ncpu int) int {
	if lo.Rows == nil {
		return lo.LaneAt(y, ncpu)
	}
	if r := lo.LaneAt(y, len(lo.Rows)); r >= 0 {
		return lo.Rows[r].CPU
	}
	return -1
}

// LaneAt returns the lane under pixel row y, or -1.
func (lo Layout) LaneAt(y, lanes int) int {
	if y < lo.Top || lo.LaneHeight <= 0 || (lo.Height > 0 && y >= lo.Height) {
		return -1
	}
	l := (y - lo.Top + lo.Scroll) / lo.LaneHeight
	if l >= lanes {
		return -1
	}
	return l
}

// TimeAt converts a pixel column to a time.
func (v Viewport) TimeAt(x float64, width int) sched.Time {
	return v.T0 + sched.Time(x/float64(width)*float64(v.T1-v.T0))
}

var (
	bgColor   = RGB{0x16, 0x1b, 0x22}
	laneColor = RGB{0x22, 0x29, 0x33}
	markColor = RGB{0xff, 0xff, 0xff}
)

// Raster draws lanes of tl within vp into pix (RGBA, len = 4*w*h). colors
// gives each task's colour (indexed by TaskID). It returns the number of
// coloured columns drawn per lane, a figure the browser tests read back
// (-1 for a lane out of the window with lo.VisibleOnly).
//
// Each lane is rendered once into a one-pixel-high row (one colour per
// column), which is then copied to the lane's rows: the per-column work is
// a search and four byte stores, not a rectangle fill per column.
func Raster(pix []byte, lo Layout, vp Viewport, tl *Timeline, colors []RGB) []int {
	return RasterPalette(pix, lo, vp, tl, &Palette{Task: colors})
}

// RasterPalette is Raster with task groups: sub-pixel columns take the
// dominant group's colour (density.go). The palette keeps its density
// index between calls: pass the same palette for the same timeline.
func RasterPalette(pix []byte, lo Layout, vp Viewport, tl *Timeline, pal *Palette) []int {
	return NewPaint(pix, lo, vp, tl, pal).Finish() // every row in one step (paint.go)
}

// rasterRow colours one pixel row of lane c: per column, the slices
// overlapping the column's time range are found by binary search (gallop)
// from the previous column's; one slice covering the column gives its
// task's colour, anything less the density colour (density.go). With a
// nil palette it only counts the columns (a lane scrolled out of the
// window): no colour is worked out. It also returns the work done
// (paint.go): the columns visited, the slices passed and the palette's.
func rasterRow(row []byte, vp Viewport, tl *Timeline, c int, pal *Palette) (n, work int) {
	w := len(row) / 4
	count := pal == nil
	if count {
		pal = &Palette{}
	}
	work0 := pal.work
	put := func(x int, col RGB) {
		p := row[4*x : 4*x+4 : 4*x+4]
		p[0], p[1], p[2], p[3] = col.R, col.G, col.B, 255
	}
	fill(row, w, 0, 0, w, 1, laneColor)
	span := float64(vp.T1 - vp.T0)
	perPx := span / float64(w)
	sl := tl.Lanes[c].Slices
	var li *laneIndex
	if tl.lod != nil {
		li = &tl.lod.lanes[c]
		li.extend(sl, tl.lod.shift)
	}
	var dens *laneDens
	i := tl.firstEndingAfter(c, vp.T0)
	x, passed := 0, 0
	defer func() { work = x + passed + pal.work - work0 }()
	for ; x < w && i < len(sl); x++ {
		c0 := vp.T0 + sched.Time(float64(x)*perPx)
		c1 := vp.T0 + sched.Time(float64(x+1)*perPx)
		if c1 <= c0 {
			c1 = c0 + 1
		}
		for i < len(sl) && tl.end(&sl[i]) <= c0 {
			i++
			passed++
		}
		if i >= len(sl) {
			break
		}
		s := &sl[i]
		if s.Start >= c1 {
			// Idle column; jump ahead to the next slice's column.
			nx := int(float64(s.Start-vp.T0)/perPx) - 1
			if nx > x {
				x = nx
			}
			continue
		}
		if e := tl.end(s); e >= c1 {
			// One slice covers the rest of this column and maybe more:
			// paint every column it fully covers at once (the first at
			// its busy fraction if the slice starts inside it).
			col := colorOf(pal.Task, s.Task)
			last := min(w-1, int(float64(e-vp.T0)/perPx)-1)
			if s.Start > c0 {
				put(x, shade(col, float64(c1-s.Start)/float64(c1-c0)))
				n++
				if x >= last {
					continue // the next column is the loop's
				}
				x++
			}
			for ; x < last; x++ {
				put(x, col)
				n++
			}
			put(x, col)
			n++
			continue
		}
		// j: first slice starting at or after c1.
		var j int
		if li != nil {
			j = tl.lod.firstStartingAt(li, sl, i+1, c1)
		} else {
			j = gallop(sl, i+1, c1)
		}
		if count {
			// Counted only: no colour.
		} else if !tl.Ended && j-i > walkMax {
			// While the run streams in, a dense column is previewed by
			// its middle slice, darkened (no density index is built
			// frame by frame; the finished run's drawing is exact).
			col := colorOf(pal.Task, sl[i+(j-i)/2].Task)
			put(x, RGB{col.R * 3 / 4, col.G * 3 / 4, col.B * 3 / 4})
		} else if j-i == 1 {
			// One slice inside the column: its task's colour, at its share.
			put(x, shade(colorOf(pal.Task, s.Task), float64(tl.end(s)-max(s.Start, c0))/float64(c1-c0)))
		} else {
			if dens == nil && j-i > walkMax {
				dens = pal.index(tl, c)
			}
			put(x, pal.column(tl, c, dens, i, j, c0, c1))
		}
		n++
		if j-1 > i {
			i = j - 1
		}
	}
	return n, 0 // work: set by the deferred count
}

// drawMarks draws wakeups as short white ticks at the top of the lane (top
// row y0, bar rows tall), at most one per pixel column, clipped to rows
// [ya, yb).
func drawMarks(pix []byte, lo Layout, vp Viewport, ms []Mark, y0, ya, yb, bar int) {
	ta, tb := max(y0, ya), min(y0+min(4, max(1, bar/4)), yb)
	if ta >= tb {
		return
	}
	w := lo.Width
	span := float64(vp.T1 - vp.T0)
	i := sort.Search(len(ms), func(k int) bool { return ms[k].Time >= vp.T0 })
	last := -1
	for ; i < len(ms) && ms[i].Time < vp.T1; i++ {
		x := int(float64(ms[i].Time-vp.T0) / span * float64(w))
		if x == last {
			// Skip to the first mark of the next column.
			next := vp.T0 + sched.Time(float64(x+1)*span/float64(w))
			k := sort.Search(len(ms)-i, func(k int) bool { return ms[i+k].Time >= next })
			i += max(k, 1) - 1 // always progress, whatever the float rounding
			continue
		}
		last = x
		fill(pix, w, x, ta, 1, tb-ta, markColor)
	}
}

func colorOf(colors []RGB, id sched.TaskID) RGB {
	if int(id) >= 0 && int(id) < len(colors) {
		return colors[id]
	}
	return RGB{0x88, 0x88, 0x88}
}

// fill paints a rectangle, clipped to the buffer: the first row pixel by
// doubling copies, then each further row as one copy.
func fill(pix []byte, stride, x, y, w, h int, c RGB) {
	height := len(pix) / 4 / max(stride, 1)
	x0, y0 := max(x, 0), max(y, 0)
	x1, y1 := min(x+w, stride), min(y+h, height)
	if x1 <= x0 || y1 <= y0 {
		return
	}
	first := pix[4*(y0*stride+x0) : 4*(y0*stride+x1)]
	first[0], first[1], first[2], first[3] = c.R, c.G, c.B, 255
	for n := 4; n < len(first); n *= 2 {
		copy(first[n:], first[:n])
	}
	for yy := y0 + 1; yy < y1; yy++ {
		copy(pix[4*(yy*stride+x0):4*(yy*stride+x1)], first)
	}
}

// gallop returns the first index >= from whose slice starts at or after t,
// searching exponentially from `from` so that the cost grows with the log
// of the distance, not of the lane.
func gallop(sl []Slice, from int, t sched.Time) int {
	if from >= len(sl) || sl[from].Start >= t {
		return from
	}
	step := 1
	for from+step < len(sl) && sl[from+step].Start < t {
		step *= 2
	}
	lo, hi := from+step/2+1, min(from+step, len(sl))
	return lo + sort.Search(hi-lo, func(k int) bool { return sl[lo+k].Start >= t })
}
