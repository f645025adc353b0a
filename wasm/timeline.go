package main

// TimelineCtl: the per-CPU timeline canvases (the current run and, for A/B,
// the pinned run A above it, sharing one viewport so they stay aligned).
//
// Drawing: view.Raster fills a pixel buffer (with level of detail), one
// putImageData copies it, then a few fillText calls add the time axis and
// lane labels; a big drawing takes several steps, a browser task each
// (timeline_paint.go). A canvas shows a window of its lanes at most maxViewHeight
// tall, its host scrolling the rest (laneView, laneview.go): a 256-CPU
// timeline paints the lanes on screen, not all 256. Input (wheel zoom around the pointer, drag to pan, hover
// tooltip, click to place the time cursor, keyboard) is handled from native
// listeners without re-rendering the DOM (the runqueue list at the cursor
// is written by the bridge too: runqueues.go). The canvases live outside
// Vugu's tree (bridge.EnsureCanvas), so a page render leaves them drawn;
// after a render they are redrawn in the next animation frame only if what
// they show changed (DrawChanged).

import (
	"fmt"
	"math"
	"strings"

	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

const (
	laneHeight = 22
	axisHeight = 18
	minSpan    = 2 * sched.Microsecond
	canvasMain = "tl-canvas"
	canvasA    = "tl-a-canvas"
)

// TimelineCtl holds the timeline's viewport, cursor and drawing buffers.
type TimelineCtl struct {
	app       *App
	VP        view.Viewport
	Total     sched.Time
	Cursor    sched.Time // -1: none
	wired     bool
	dragX     float64
	drag      bool
	moved     bool
	views     [2]*laneView   // main, A
	paints    []*canvasPaint // the drawing in progress (timeline_paint.go)
	stepping  bool           // a goroutine continues it in tasks of its own
	passMs    float64        // the drawing's time so far, over its steps
	stepMax   int            // most work of one drawing step since the run started
	drawn     []int          // coloured columns per lane of the main canvas (read by tests)
	draws     int            // Draw calls so far
	drawsSent int            // draws when drawn was last published
	lo        view.Layout
	groupGen  int        // lane-group collapses so far (lanegroups.go)
	DrawMs    float64    // duration of the last main-canvas redraw
	breakdown [3]float64 // raster, putImageData, labels (ms)
	fresh     bool       // a canvas was (re)created since the last draw
	last      drawKey    // what the canvases show
	rqShown   rqKey      // what the runqueue list shows (runqueues.go)
	rqLines   int
}

// drawKey is what a drawing of the canvases depends on: a page render that
// changed none of it needs no redraw (the canvases are not Vugu's).
type drawKey struct {
	run, a *view.Run
	done   bool
	slices int
	vp     view.Viewport
	cursor sched.Time
	groups int    // lane-group collapses so far (lanegroups.go)
	width  [2]int // the canvases' CSS widths (the window was resized)
	scroll [2]int // their hosts' scroll offsets
}

func (tc *TimelineCtl) key() drawKey {
	k := drawKey{run: tc.app.Run, a: tc.app.A, vp: tc.VP, cursor: tc.Cursor, groups: tc.groupGen}
	for i, lv := range tc.views {
		k.width[i], k.scroll[i] = lv.width, lv.scroll
	}
	if r := tc.app.Run; r != nil {
		k.done, k.slices = r.Done(), r.Timeline.NumSlices()
	}
	return k
}

// DrawChanged redraws the canvases if a canvas is new or what they show
// changed since the last Draw.
func (tc *TimelineCtl) DrawChanged() {
	if !tc.fresh && tc.key() == tc.last {
		return
	}
	tc.Draw()
}

// NewTimelineCtl returns a controller for app.
func NewTimelineCtl(app *App) *TimelineCtl {
	return &TimelineCtl{app: app, Cursor: -1,
		views: [2]*laneView{newLaneView(idTLHost, canvasMain), newLaneView(idTLAHost, canvasA)}}
}

// Reset shows the whole of a new run.
func (tc *TimelineCtl) Reset(total sched.Time) {
	tc.Total, tc.VP, tc.Cursor = total, view.Viewport{T0: 0, T1: total}, -1
}

// AfterRender puts the canvases in their hosts (outside Vugu's tree:
// bridge.EnsureCanvas) and wires the listeners once the canvas exists. The
// drawing follows in the next animation frame (App.afterFrame).
func (tc *TimelineCtl) AfterRender() {
	if tc.views[0].ensure(tc.onResize) {
		tc.fresh = true
	}
	if tc.app.A != nil && tc.views[1].ensure(tc.onResize) {
		tc.fresh = true
	}
	if !tc.wired {
		// Listeners live on the document (filtered by target) because a
		// re-render may replace the canvas element.
		if err := bridge.OnTarget("wheel", canvasMain, tc.onWheel); err == nil {
			bridge.OnTarget("mousemove", canvasMain, tc.onMove)
			bridge.OnTarget("mousedown", canvasMain, tc.onDown)
			bridge.OnTarget("mouseup", canvasMain, tc.onUp)
			bridge.OnTarget("mouseout", canvasMain, func(bridge.Event) {
				tc.drag = false
				bridge.SetStyle("tl-tip", "display", "none")
			})
			bridge.On("document", "keydown", tc.onKey)
			for _, lv := range tc.views {
				bridge.OnScroll(lv.host, func(top int) { tc.onScroll(lv, top) })
			}
			tc.wired = true
		}
	}
}

func (tc *TimelineCtl) xOf(t sched.Time, w int) float64 {
	return float64(t-tc.VP.T0) / float64(tc.VP.T1-tc.VP.T0) * float64(w)
}

// axisMarks labels about six round instants of the viewport.
func (tc *TimelineCtl) axisMarks(w int) []bridge.Mark {
	span := float64(tc.VP.T1 - tc.VP.T0)
	if span <= 0 {
		return nil
	}
	raw := span / 6
	step := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{2, 5, 10} {
		if step*m > raw {
			break
		}
		if step*2 <= raw {
			step *= 2
		}
	}
	first := math.Ceil(float64(tc.VP.T0)/step) * step
	var marks []bridge.Mark
	for t := first; t < float64(tc.VP.T1); t += step {
		x := tc.xOf(sched.Time(t), w)
		marks = append(marks, bridge.Mark{X: x + 2, Y: 12, Text: view.FormatDur(int64(t)), Color: "#9aa4b2"},
			bridge.Mark{X: x, Color: "rgba(255,255,255,0.08)"})
	}
	return marks
}

// zoom scales the viewport by f around time at.
func (tc *TimelineCtl) zoom(f float64, at sched.Time) {
	span := float64(tc.VP.T1-tc.VP.T0) * f
	span = math.Max(float64(minSpan), math.Min(span, float64(tc.Total)))
	frac := float64(at-tc.VP.T0) / float64(tc.VP.T1-tc.VP.T0)
	t0 := float64(at) - frac*span
	tc.setVP(sched.Time(t0), sched.Time(t0+span))
}

// pan moves the viewport by d, clamped to the run.
func (tc *TimelineCtl) pan(d sched.Time) { tc.setVP(tc.VP.T0+d, tc.VP.T1+d) }

func (tc *TimelineCtl) setVP(t0, t1 sched.Time) {
	span := t1 - t0
	if t0 < 0 {
		t0, t1 = 0, span
	}
	if t1 > tc.Total {
		t0, t1 = max(0, tc.Total-span), tc.Total
	}
	tc.VP = view.Viewport{T0: t0, T1: t1}
}

func (tc *TimelineCtl) width() int { return max(tc.lo.Width, 1) }

// onWheel zooms around the pointer; with Shift held it scrolls the lanes
// instead (the host's scroll event then redraws, onScroll).
func (tc *TimelineCtl) onWheel(e bridge.Event) {
	if e.Shift {
		d := e.DeltaY
		if d == 0 {
			d = e.DeltaX // Chromium reports Shift+wheel as horizontal
		}
		bridge.ScrollBy(tc.views[0].host, d)
		return
	}
	a := tc.app
	a.env.Lock()
	defer a.env.UnlockOnly()
	tc.zoom(math.Exp(e.DeltaY*0.0015), tc.VP.TimeAt(e.X, tc.width()))
	tc.Draw()
	tc.publish()
}

// onResize redraws after a canvas's CSS width changed (the window or the
// layout around it): a ResizeObserver callback, between layout and paint.
func (tc *TimelineCtl) onResize() {
	a := tc.app
	a.env.Lock()
	defer a.env.UnlockOnly()
	tc.DrawChanged()
}

// onScroll redraws the lanes a host's scroll brought into view.
func (tc *TimelineCtl) onScroll(lv *laneView, top int) {
	a := tc.app
	a.env.Lock()
	defer a.env.UnlockOnly()
	if top == lv.scroll {
		return
	}
	lv.scroll = top
	// A pinned A run is drawn beside the current one lane for lane: its
	// lanes follow this scroll (the browser clamps the offset and fires
	// its scroll event, which then finds the offset already recorded).
	if tc.app.A != nil {
		for _, o := range tc.views {
			if o != lv && o.scroll != top {
				o.scroll = top
				bridge.SetScrollTop(o.host, top)
			}
		}
	}
	tc.DrawChanged()
	tc.publish()
}

func (tc *TimelineCtl) onDown(e bridge.Event) { tc.drag, tc.moved, tc.dragX = true, false, e.X }

func (tc *TimelineCtl) onUp(e bridge.Event) {
	a := tc.app
	was, moved := tc.drag, tc.moved
	tc.drag = false
	if !was {
		return
	}
	if moved { // the end of a drag: publish the panned viewport
		a.env.Lock()
		tc.publish()
		a.env.UnlockOnly()
		return
	}
	a.env.Lock()
	tc.Cursor = tc.VP.TimeAt(e.X, tc.width())
	tc.Draw() // the runqueue list follows the cursor (runqueues.go): no page render
	tc.publish()
	a.env.UnlockOnly()
}

func (tc *TimelineCtl) onMove(e bridge.Event) {
	a := tc.app
	a.env.Lock()
	defer a.env.UnlockOnly()
	if tc.drag && e.Buttons&1 != 0 {
		dx := e.X - tc.dragX
		if math.Abs(dx) >= 1 {
			tc.moved = true
			tc.dragX = e.X
			tc.pan(-sched.Time(dx / float64(tc.width()) * float64(tc.VP.T1-tc.VP.T0)))
			tc.Draw()
		}
		return
	}
	tc.tooltip(e)
}

// tooltip shows the task under the pointer and why it got and left the CPU.
func (tc *TimelineCtl) tooltip(e bridge.Event) {
	r := tc.app.Run
	if r == nil {
		return
	}
	lane := tc.lo.CPUAt(int(e.Y), r.NumCPUs())
	t := tc.VP.TimeAt(e.X, tc.width())
	s, ok := r.Timeline.SliceAt(lane, t)
	thr := r.Timeline.ThrottledAt(lane, t)
	if lane < 0 || (!ok && len(thr) == 0) {
		bridge.SetStyle("tl-tip", "display", "none")
		return
	}
	var b strings.Builder
	if ok {
		sliceTip(&b, r, s, lane)
	} else {
		fmt.Fprintf(&b, "CPU%d at %s\n", lane, preciseMs(t))
	}
	for _, k := range thr {
		// The group's cfs_rq on this CPU is out of runtime: its tasks
		// queued here wait for the next period (or for runtime handed back).
		fmt.Fprintf(&b, "\nthrottled: cgroup %s (cpu.max)", r.CgroupPath(k))
	}
	bridge.SetText("tl-tip", b.String())
	// The tooltip lives outside the Vugu mount (site/*.html) so renders
	// never reset its text; it is positioned in viewport coordinates.
	bridge.SetStyle("tl-tip", "left", fmt.Sprintf("%dpx", int(e.ClientX)+14))
	bridge.SetStyle("tl-tip", "top", fmt.Sprintf("%dpx", int(e.ClientY)+14))
	bridge.SetStyle("tl-tip", "display", "block")
}

// sliceTip writes the tooltip of slice s on CPU lane: the task, its times
// and the rules that put it on and took it off the CPU.
func sliceTip(b *strings.Builder, r *view.Run, s view.Slice, lane int) {
	info := r.TaskInfo(s.Task)
	end := s.End
	if end == view.Open {
		end = r.Timeline.Now
	}
	fmt.Fprintf(b, "%s (pid %d) on CPU%d\n", info.Name, info.PID, lane)
	fmt.Fprintf(b, "%s → %s (%s)\n", preciseMs(s.Start), preciseMs(end), view.FormatDur(int64(end-s.Start)))
	fmt.Fprintf(b, "in: %s, picked by %s\n", orNone(s.InReason.String()), orNone(s.Pick.String()))
	if s.End != view.Open {
		fmt.Fprintf(b, "out: %s (state %c)", orNone(s.OutReason.String()), max(s.OutState, '-'))
	}
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// onKey: + / - zoom, arrows pan, Shift+Up/Down scroll the lanes, 0 shows
// everything, r runs, Escape cancels.
func (tc *TimelineCtl) onKey(e bridge.Event) {
	if e.TargetIsInput || e.Ctrl {
		return
	}
	if e.Shift && (e.Key == "ArrowUp" || e.Key == "ArrowDown") {
		// As Shift+wheel: the host's scroll event redraws (onScroll).
		d := float64(laneScrollStep)
		if e.Key == "ArrowUp" {
			d = -d
		}
		bridge.ScrollBy(tc.views[0].host, d)
		return
	}
	a := tc.app
	a.env.Lock()
	span := tc.VP.T1 - tc.VP.T0
	mid := tc.VP.T0 + span/2
	render := false
	switch e.Key {
	case "+", "=":
		tc.zoom(0.5, mid)
	case "-":
		tc.zoom(2, mid)
	case "ArrowLeft":
		tc.pan(-span / 5)
	case "ArrowRight":
		tc.pan(span / 5)
	case "0":
		tc.VP = view.Viewport{T0: 0, T1: tc.Total}
	case "r":
		if a.Trace != nil {
			break // trace mode: nothing to run ("Back to simulation" leaves it)
		}
		a.StartRun()
		render = true
	case "Escape":
		a.CancelRun()
		render = true
	default:
		a.env.UnlockOnly()
		return
	}
	tc.Draw()
	tc.publish()
	if render {
		a.env.UnlockRender()
	} else {
		a.env.UnlockOnly()
	}
}

// RunqueueRow is one line of the cursor panel.
type RunqueueRow struct {
	CPU     int
	Running string
	Queued  []string
}

// Runqueues lists, at the cursor, what each non-idle CPU runs and queues.
func (tc *TimelineCtl) Runqueues() []RunqueueRow {
	r := tc.app.Run
	if r == nil || tc.Cursor < 0 {
		return nil
	}
	var out []RunqueueRow
	for c := 0; c < r.NumCPUs(); c++ {
		row := RunqueueRow{CPU: c, Running: "idle"}
		if s, ok := r.Timeline.SliceAt(c, tc.Cursor); ok {
			row.Running = r.TaskInfo(s.Task).Name
		}
		for _, id := range r.Timeline.Runqueue(c, tc.Cursor) {
			row.Queued = append(row.Queued, r.TaskInfo(id).Name)
		}
		if row.Running != "idle" || len(row.Queued) > 0 {
			out = append(out, row)
		}
	}
	return out
}

// publish exposes the timeline's state; "drawn" is -1 for a lane scrolled
// out of view while the run streams in (view.Layout.VisibleOnly).
func (tc *TimelineCtl) publish() {
	if tc.draws != tc.drawsSent {
		// Only after a draw: publish runs on every animation frame of
		// a run, and at 256 CPUs this is 256 values into JS.
		tc.drawsSent = tc.draws
		drawn := make([]any, len(tc.drawn))
		for i, d := range tc.drawn {
			drawn[i] = d
		}
		bridge.Publish("drawn", drawn)
		tc.publishRows()
	}
	bridge.Publish("viewport", []any{float64(tc.VP.T0), float64(tc.VP.T1)})
	// The main canvas's lane geometry (first lane's top row, pixels per
	// lane), so a test can read the canvas's real pixels per lane.
	// With the lanes scrolled, the first lane's top is above the canvas
	// (negative); "laneWindow" is the canvas's height and scroll offset.
	bridge.Publish("lanes", []any{float64(tc.lo.LaneTop(0)), float64(tc.lo.LaneHeight)})
	bridge.Publish("laneWindow", []any{float64(tc.lo.Height), float64(tc.lo.Scroll)})
	bridge.Publish("drawMs", tc.DrawMs)
	bridge.Publish("painting", tc.Painting()) // a drawing in steps is in progress (timeline_paint.go)
	// The most work one step of the drawing spent since the run started,
	// and a step's budget (timeline_paint.go): the browser tests' count of
	// work per task.
	bridge.Publish("drawStepMax", tc.stepMax)
	bridge.Publish("drawStepWork", drawStepWork)
	m := tc.app.Probe.runMarks
	bridge.Publish("runMarks", []any{m[0], m[1], m[2], m[3]})
	bridge.Publish("drawBreakdown", []any{tc.breakdown[0], tc.breakdown[1], tc.breakdown[2]})
}

// preciseMs renders an instant in milliseconds to the microsecond.
func preciseMs(t sched.Time) string { return fmt.Sprintf("%.3fms", float64(t)/1e6) }
