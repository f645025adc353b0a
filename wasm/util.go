package main

// The utilisation-over-time chart: one row per CPU, one column per time
// bucket, drawn once per finished run into a canvas (thousands of SVG
// elements would make the final render a long task).

import (
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

const (
	utilCols  = view.UtilBuckets
	utilWidth = 480
)

// drawUtil draws the chart of the current run. The pixels are computed
// once per run and put again after every render (a re-render may reset the
// canvas).
func (a *App) drawUtil() {
	r := a.Run
	if r == nil || !r.Done() || a.Ctl.Running {
		return
	}
	created, err := bridge.EnsureCanvas(idUtilHost, "util-canvas", "chart", "rows: CPUs, columns: time; colour: busy share", utilWidth, 10)
	if err != nil {
		return // not rendered yet
	}
	if a.utilFor == r {
		if created && bridge.SetCanvasHeight("util-canvas", a.utilH) == nil {
			bridge.PutImage("util-canvas", a.utilPix, utilWidth, a.utilH)
		}
		return
	}
	n := r.NumCPUs()
	rowH := max(2, min(14, 256/max(n, 1)))
	h := n * rowH
	if err := bridge.SetCanvasHeight("util-canvas", h); err != nil {
		return // not rendered yet
	}
	a.utilFor = r
	bridge.Publish("utilFolded", r.Timeline.UtilFolded(r.Duration(), utilCols))
	u := view.Utilisation(r.Timeline, r.Duration(), utilCols) // folded during the run (view/fold.go)
	pix := make([]byte, 4*utilWidth*h)
	colW := utilWidth / utilCols
	for cpu, row := range u {
		for k, v := range row {
			c := view.Heat(v)
			for y := cpu * rowH; y < (cpu+1)*rowH-1; y++ {
				for x := k * colW; x < (k+1)*colW; x++ {
					i := 4 * (y*utilWidth + x)
					pix[i], pix[i+1], pix[i+2], pix[i+3] = c.R, c.G, c.B, 255
				}
			}
		}
	}
	a.utilPix, a.utilH = pix, h
	bridge.PutImage("util-canvas", pix, utilWidth, h)
}
