package view

// Paint: one drawing of the timeline done in steps of bounded work, so
// that no browser task of the page draws for long. RasterPalette draws
// every row at once; a Paint draws the same rows into the same buffer in
// the same order, a step at a time: each Step paints rows until it has
// spent a work budget (at least one row per step), and reports which pixel
// rows of the buffer are final. The finished drawing is the same bytes as
// RasterPalette's (the rows are independent: each is rasterRow or
// summaryRow over the same timeline and palette).
//
// Work is counted, not timed, so that a step's size does not depend on
// the machine's load: a unit is a pixel column visited, a slice walked or
// added to the density index, or a group run summed (density.go). A long
// lane's density index (a finished run's first drawing of a million-slice
// lane) is built over several steps before its row is painted
// (Palette.indexUpTo): its content is the same however it was built.
//
// A streaming run's lanes keep growing between steps; the rows painted in
// a step show the timeline as it was then. The finished run's drawing is
// exact once its last step is done.

import "math"

// Paint is a drawing of a timeline in progress.
type Paint struct {
	pix  []byte
	lo   Layout
	vp   Viewport
	tl   *Timeline
	pal  *Palette
	rows []Row
	row  []byte
	mask []bool
	next int // the next row to paint
	y    int // pixel rows [0, y) of pix are final
	// Drawn is the number of coloured columns per lane (RasterPalette's
	// result), complete when the paint is Done.
	Drawn []int
	// Work is the work spent so far, MaxStep the most spent by one Step.
	Work, MaxStep int
}

// NewPaint starts a drawing of lanes of tl within vp into pix (RGBA, len
// = 4*lo.Width*lo.Height) with pal (see RasterPalette): it paints the
// background; Step paints the rows.
func NewPaint(pix []byte, lo Layout, vp Viewport, tl *Timeline, pal *Palette) *Paint {
	if pal == nil {
		pal = &Palette{} // no task known yet
	}
	p := &Paint{pix: pix, lo: lo, vp: vp, tl: tl, pal: pal, Drawn: make([]int, len(tl.Lanes))}
	fill(pix, lo.Width, 0, 0, lo.Width, lo.Height, bgColor)
	if vp.T1 <= vp.T0 || lo.Width <= 0 {
		return p // nothing to draw: no rows
	}
	p.rows = lo.Rows
	if p.rows == nil {
		p.rows = Rows(nil, len(tl.Lanes), nil)
	} else {
		for c := range p.Drawn {
			p.Drawn[c] = -1
		}
	}
	p.row = make([]byte, 4*lo.Width)
	return p
}

// Done reports whether every row is painted.
func (p *Paint) Done() bool { return p.next >= len(p.rows) }

// Step paints rows until it has spent budget work units (at least one
// row, or a piece of a long lane's density index) and returns the pixel
// rows [y0, y1) of the buffer that it made final: the rows to copy to the
// canvas. The last step's range ends at the buffer's height.
func (p *Paint) Step(budget int) (y0, y1 int) {
	y0 = p.y
	spent := 0
	for !p.Done() && (spent == 0 || spent < budget) {
		c := p.rows[p.next].CPU
		if c >= 0 && p.tl.Ended && p.visible(p.next) {
			// A long lane's index is built in pieces, a step each.
			if n := p.pal.unindexed(p.tl, c); n > budget-spent && n > walkMax*p.lo.Width {
				w0 := p.pal.work
				p.pal.indexUpTo(p.tl, c, max(budget-spent, budget/4))
				spent += p.pal.work - w0
				break
			}
		}
		spent += p.paintRow(p.next)
		p.next++
	}
	p.Work += spent
	p.MaxStep = max(p.MaxStep, spent)
	p.y = min(max(p.lo.LaneTop(p.next), p.y), p.lo.Height)
	if p.Done() {
		p.y = p.lo.Height
	}
	return y0, p.y
}

// visible reports whether row r's bar is in the window (painted, not only
// counted).
func (p *Paint) visible(r int) bool {
	y0 := p.lo.LaneTop(r)
	return max(y0, p.lo.Top) < min(y0+p.lo.LaneHeight-2, p.lo.Height)
}

// paintRow paints (or, scrolled out of the window, counts) row r and
// returns the work it took.
func (p *Paint) paintRow(r int) int {
	lo, pix, row, w, h := p.lo, p.pix, p.row, p.lo.Width, p.lo.Height
	bar := lo.LaneHeight - 2
	rw := p.rows[r]
	y0 := lo.LaneTop(r)
	ya, yb := max(y0, lo.Top), min(y0+bar, h)
	if rw.CPU < 0 {
		if ya < yb && rw.Group >= 0 && rw.Group < len(lo.Groups) {
			_, work := summaryRow(row, p.vp, p.tl, lo.Groups[rw.Group].CPUs, p.pal)
			for y := ya; y < yb; y++ {
				copy(pix[4*y*w:4*(y+1)*w], row)
			}
			return work
		}
		return 1
	}
	c := rw.CPU
	if ya >= yb && lo.VisibleOnly {
		p.Drawn[c] = -1
		return 1
	}
	if ya >= yb {
		n, work := rasterRow(row, p.vp, p.tl, c, nil) // scrolled out: counted, not painted
		p.Drawn[c] = n
		return work
	}
	n, work := rasterRow(row, p.vp, p.tl, c, p.pal)
	p.Drawn[c] = n
	if len(p.tl.Lanes[c].Throttled) > 0 {
		if p.mask == nil {
			p.mask = make([]bool, w)
		}
		if p.tl.ThrottledColumns(p.mask, p.vp, c) {
			shadeThrottled(pix, row, p.mask, w, ya, yb, y0+bar)
			drawMarks(pix, lo, p.vp, p.tl.Lanes[c].Marks, y0, ya, yb, bar)
			return work
		}
	}
	for y := ya; y < yb; y++ {
		copy(pix[4*y*w:4*(y+1)*w], row)
	}
	drawMarks(pix, lo, p.vp, p.tl.Lanes[c].Marks, y0, ya, yb, bar)
	return work
}

// Finish paints the rows left in one step and returns the drawn counts.
func (p *Paint) Finish() []int {
	for !p.Done() {
		p.Step(math.MaxInt)
	}
	return p.Drawn
}
