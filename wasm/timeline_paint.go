package main

// The timeline's drawing in steps: no browser task of the page draws for
// long. A 144-CPU run's lanes in the window, or a finished million-slice
// run's first drawing (which builds each lane's density index,
// wasm/view/density.go), is more work than one task should hold, so Draw
// starts a view.Paint per canvas and paints rows until it has spent
// drawStepWork units of work (counted, not timed: view/paint.go); the
// rest is painted in browser tasks of their own (bridge.Yield), each
// putting the pixel rows it finished (putImageData's dirty rectangle)
// while the rows below still show the previous drawing. The axis, labels
// and cursor go on top when the last row is painted. A newer Draw (a
// zoom, a scroll) replaces a drawing in progress; a streaming run's frame
// lets it finish first (runloop.go), and the finished run is published as
// done once its drawing is complete (publish.go), so a reader of
// window.schedplay sees the drawn run. The drawing complete is the same
// bytes as one made in a single task.

import (
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// drawStepWork is the work one step of the timeline's drawing spends:
// about 10 ms of the page's WASM on the 2-vCPU development machine
// (docs/playground-perf.md), a tenth of the long-task budget.
const drawStepWork = 100_000

// canvasPaint is one canvas's drawing in progress.
type canvasPaint struct {
	lv   *laneView
	r    *view.Run
	p    *view.Paint
	pix  []byte
	lo   view.Layout
	rows []view.Row
	main bool
	// finished: the last rows are put and the overlay drawn.
	finished bool
}

// Draw redraws the canvases (called with the lock held): the first step
// now, the others in tasks of their own.
func (tc *TimelineCtl) Draw() {
	tc.fresh, tc.last = false, tc.key()
	tc.paints, tc.passMs, tc.breakdown = tc.paints[:0], 0, [3]float64{}
	if tc.app.Run != nil {
		if cp := tc.startPaint(tc.views[0], tc.app.Run, true); cp != nil {
			tc.paints = append(tc.paints, cp)
		} else {
			tc.drawn = nil
		}
	}
	if tc.app.A != nil {
		if cp := tc.startPaint(tc.views[1], tc.app.A, false); cp != nil {
			tc.paints = append(tc.paints, cp)
		}
	}
	tc.stepPaints()
	tc.showRunqueues()
}

// Painting reports whether a drawing is in progress.
func (tc *TimelineCtl) Painting() bool { return len(tc.paints) > 0 }

// startPaint sizes canvas lv for run r and starts its drawing (nil: the
// canvas has no width yet).
func (tc *TimelineCtl) startPaint(lv *laneView, r *view.Run, main bool) *canvasPaint {
	w := lv.cssWidth()
	if w <= 0 {
		return nil
	}
	rows := tc.app.laneRows(r)
	lh := laneHeight
	if r.NumCPUs() > 16 {
		lh = max(6, 360/r.NumCPUs()) // as high with a group collapsed: the lanes stay put
	}
	h, scroll := lv.layout(w, len(rows), lh)
	// While a run streams in, only the lanes in view are counted too;
	// the finished run's drawing counts every lane (published "drawn").
	lo := view.Layout{Width: w, Height: h, LaneHeight: lh, Top: axisHeight, Scroll: scroll, VisibleOnly: !r.Done()}
	if r.Groups != nil {
		lo.Rows, lo.Groups = rows, r.Groups
	}
	if main {
		tc.lo = lo
	}
	if len(lv.pix) < 4*w*h {
		lv.pix = make([]byte, 4*w*h)
	}
	pix := lv.pix[:4*w*h]
	return &canvasPaint{lv: lv, r: r, p: view.NewPaint(pix, lo, tc.VP, r.Timeline, r.Palette), pix: pix, lo: lo, rows: rows, main: main}
}

// stepPaints spends one step's work on the drawings in progress, puts
// the rows they finished, and finishes the canvases whose last row is
// painted; what is left continues in a task of its own.
func (tc *TimelineCtl) stepPaints() {
	t0 := bridge.Now()
	budget := drawStepWork
	for _, cp := range tc.paints {
		if budget <= 0 && !cp.p.Done() {
			continue // the next step's (an empty drawing is put and finished at once)
		}
		w0 := cp.p.Work
		ta := bridge.Now()
		y0, y1 := cp.p.Step(budget)
		budget -= cp.p.Work - w0
		tb := bridge.Now()
		cp.lv.img.PutRows(cp.lv.canvas, cp.pix, cp.lo.Width, cp.lo.Height, y0, y1)
		if cp.main {
			tc.breakdown[0] += tb - ta
			tc.breakdown[1] += bridge.Now() - tb
		}
		if cp.p.Done() {
			tc.finishPaint(cp)
			cp.finished = true
		}
	}
	tc.stepMax = max(tc.stepMax, drawStepWork-budget)
	tc.passMs += bridge.Now() - t0
	left := tc.paints[:0]
	for _, cp := range tc.paints {
		if !cp.finished {
			left = append(left, cp)
		}
	}
	tc.paints = left
	if len(left) == 0 {
		tc.draws++
		tc.DrawMs = tc.passMs
		return
	}
	if !tc.stepping {
		tc.stepping = true
		go tc.continuePaint()
	}
}

// continuePaint paints the rest of the drawing, a step per browser task,
// and publishes the page state when it is complete.
func (tc *TimelineCtl) continuePaint() {
	a := tc.app
	for {
		bridge.Yield()
		a.env.Lock()
		if !tc.Painting() {
			tc.stepping = false
			a.env.UnlockOnly()
			return
		}
		t, gc := a.Probe.spans.start()
		tc.stepPaints()
		a.Probe.spans.end("draw-step", t, gc)
		if !tc.Painting() {
			a.publish() // done, with the run drawn (publish.go)
		}
		a.env.UnlockOnly()
	}
}

// finishPaint draws the axis, the lane labels and the cursor over a
// complete drawing.
func (tc *TimelineCtl) finishPaint(cp *canvasPaint) {
	t := bridge.Now()
	w, h, lo := cp.lo.Width, cp.lo.Height, cp.lo
	marks := tc.axisMarks(w)
	if lo.LaneHeight >= 14 {
		for c, row := range cp.rows {
			if y := lo.LaneTop(c) + lo.LaneHeight/2 + 4; y-9 >= axisHeight && y <= h {
				marks = append(marks, bridge.Mark{X: 4, Y: float64(y), Text: rowLabel(cp.r, row), Color: "rgba(255,255,255,0.55)"})
			}
		}
	}
	if tc.Cursor >= tc.VP.T0 && tc.Cursor <= tc.VP.T1 {
		marks = append(marks, bridge.Mark{X: tc.xOf(tc.Cursor, w), Color: "#ffd34d"})
	}
	bridge.Overlay(cp.lv.canvas, marks)
	if cp.main {
		if cp.r.Timeline.NumSlices() > 0 {
			tc.app.Probe.markRun(3)
		}
		tc.drawn = cp.p.Drawn
		tc.breakdown[2] = bridge.Now() - t
	}
}
