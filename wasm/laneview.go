package main

// laneView: one timeline canvas as a window onto its lanes. On a large
// machine (256 CPUs: 256 lanes) the whole timeline is taller than a
// screen; drawing all of it (a 1.5k-pixel-tall canvas, megabytes through
// putImageData on every streamed frame) made the page's longest tasks. So
// the canvas is at most maxViewHeight CSS pixels tall, pinned (position:
// sticky, site/style.css .tl-wrap) at the top of its host, which scrolls;
// a spacer below the canvas gives the host the timeline's full height, so
// the host's scrollbar is the lane scrollbar. Only the lanes in the window
// are painted (view.Layout.Scroll), and a scroll redraws.
//
// Nothing here reads layout during a draw: the canvas's CSS width comes
// from a ResizeObserver and the scroll offset from scroll events (reading
// clientWidth after a page render forced a layout of the whole page inside
// the timeline's draw). Only the very first draw, before the
// first observer reported, reads clientWidth. The ImageData the pixels go
// through is kept between draws (bridge.ImageBuf).

import "schedplay/wasm/bridge"

// maxViewHeight is the tallest a timeline canvas gets (CSS pixels); its
// host's max-height in site/style.css (.tl-wrap) is the same figure.
const maxViewHeight = 560

// laneScrollStep is how far Shift+Up/Down scroll the lanes (CSS pixels):
// a quarter of the window, so the lanes scrolled past stay in view.
const laneScrollStep = maxViewHeight / 4

type laneView struct {
	host, canvas, spacer string
	width                int // CSS width of the canvas (0: not known yet)
	scroll               int // host's scrollTop
	spacerH              int // spacer height set (-1: none yet)
	img                  bridge.ImageBuf
	pix                  []byte // the drawing's pixels (timeline_paint.go)
}

func newLaneView(host, canvas string) *laneView {
	return &laneView{host: host, canvas: canvas, spacer: canvas + "-spacer", spacerH: -1}
}

// ensure puts the canvas in its host (bridge.EnsureCanvas) and, for a new
// canvas, starts observing its width; onResize runs when the width
// changed. It reports whether the canvas is new. A canvas re-created in
// its place (a render moved it) keeps the width last known until its
// observer reports (which then redraws if it differs): reading the width
// from layout here would force the layout of the page the render just
// changed. A new host starts scrolled to the top.
func (lv *laneView) ensure(onResize func()) bool {
	created, err := bridge.EnsureCanvas(lv.host, lv.canvas, "", "", 300, 100)
	if err != nil || !created {
		return false
	}
	lv.spacerH = -1
	if bridge.FirstSeen(lv.host) {
		lv.scroll = 0
	}
	bridge.ObserveWidth(lv.canvas, func(w int) {
		if w != lv.width && w > 0 {
			lv.width = w
			onResize()
		}
	})
	return true
}

// cssWidth is the canvas's CSS width (read from layout only for the first
// canvas, before its observer reported).
func (lv *laneView) cssWidth() int {
	if lv.width <= 0 {
		lv.width = bridge.ClientWidth(lv.canvas)
	}
	return lv.width
}

// layout sizes the window for lanes lanes of lh pixels below the axis: the
// canvas's backing size, the spacer, and the scroll offset clamped to the
// timeline (as the browser clamps scrollTop when the content shrinks).
func (lv *laneView) layout(w, lanes, lh int) (h, scroll int) {
	full := axisHeight + lanes*lh
	h = min(full, maxViewHeight)
	scroll = max(0, min(lv.scroll, full-h))
	if sp := full - h; sp != lv.spacerH {
		if bridge.EnsureSpacer(lv.host, lv.spacer, sp) == nil {
			lv.spacerH = sp
		}
	}
	bridge.SetCanvasSize(lv.canvas, w, h)
	return h, scroll
}
