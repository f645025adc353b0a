package main

// The main-thread fallback, used only when no Web Worker is available (or
// the worker failed to load): a simulation advanced in chunks on a
// goroutine of the page itself (runloop.go has the worker path). Each chunk
// takes the event-env lock, processes an event budget sized to about
// chunkMs of wall time, releases the lock and sleeps a moment, which hands
// the browser its event loop back (input, painting, the Cancel button). The
// budget adapts to the measured speed, so no main-thread task grows past a
// few tens of milliseconds however heavy the scenario. The timeline canvas
// is redrawn as the run streams in; the DOM is re-rendered less often.

import (
	"time"

	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

const (
	chunkMs     = 20  // target wall time of one chunk (a long task is > 50 ms)
	drawEveryMs = 100 // redraw the streaming timeline this often
	domEveryMs  = 250 // re-render the DOM (progress bar, heat map) this often
	firstBudget = 20000
)

// startLocal runs sc on the main thread (called with the lock held).
func (a *App) startLocal(sc *scenario.Scenario) {
	r, err := view.NewRun(sc)
	if err != nil {
		a.RunErr = err.Error()
		return
	}
	a.gen++
	gen := a.gen
	a.Run, a.Running, a.Progress, a.RunErr = r, true, 0, ""
	a.maxChunkMs, a.maxRenderMs = 0, 0
	a.spans.reset()
	a.resetRows()
	a.TL.Reset(sc.Duration)
	go a.loop(r, gen)
}

func (a *App) loop(r *view.Run, gen int) {
	budget := firstBudget
	start := time.Now()
	lastDOM, lastDraw := start, start
	for {
		a.env.Lock()
		if a.gen != gen {
			a.env.UnlockOnly()
			return
		}
		t0 := time.Now()
		w0 := bridge.Now()
		deadline := t0.Add(chunkMs * time.Millisecond)
		done := r.AdvanceUntil(budget, func() bool { return time.Now().After(deadline) })
		el := time.Since(t0)
		a.maxChunkMs = max(a.maxChunkMs, bridge.Now()-w0)
		if ms := float64(el.Microseconds()) / 1000; ms > 0 {
			// Grow at most 2x per chunk; the deadline bounds the chunk anyway.
			budget = int(float64(budget) * min(2, chunkMs/ms))
			budget = max(1000, min(budget, 2_000_000))
		}
		a.Progress = r.Fraction()
		if done {
			a.Running = false
			a.RunMs = float64(time.Since(start).Microseconds()) / 1000
			if err := r.Err(); err != nil {
				a.RunErr = err.Error()
			}
		}
		// A DOM render redraws the timeline itself (AfterRender), and runs
		// in the same browser task as this chunk: never add a second draw.
		if done || time.Since(lastDOM) > domEveryMs*time.Millisecond {
			lastDOM, lastDraw = time.Now(), time.Now()
			a.env.UnlockRender()
		} else {
			if time.Since(lastDraw) > drawEveryMs*time.Millisecond {
				lastDraw = time.Now()
				a.TL.Draw()
			}
			a.publish()
			a.env.UnlockOnly()
		}
		if done {
			return
		}
		bridge.Yield() // the next chunk in a browser task of its own
	}
}
