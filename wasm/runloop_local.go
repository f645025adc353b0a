package main

// The run loop: a simulation advanced in chunks on a goroutine. Each chunk
// takes the event-env lock, processes an event budget sized to about
// chunkMs of wall time, releases the lock and sleeps a moment, which hands
// the browser its event loop back (input, painting, the Cancel button). The
// budget adapts to the measured speed, so no main-thread task grows past a
// few tens of milliseconds however heavy the scenario. The timeline canvas
// is redrawn as the run streams in; the DOM is re-rendered less often.

import (
	"runtime"
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

// StartRun starts the current scenario (called with the lock held).
func (a *App) StartRun() {
	sc, err := scenario.Decode(a.Sc.Encode()) // a private copy: edits don't reach the running sim
	if err != nil {
		a.RunErr = err.Error()
		a.JSONErr = asPathError(err)
		return
	}
	r, err := view.NewRun(sc)
	if err != nil {
		a.RunErr = err.Error()
		return
	}
	a.gen++
	gen := a.gen
	a.Run, a.Running, a.Progress, a.RunErr = r, true, 0, ""
	a.maxChunkMs, a.maxRenderMs = 0, 0
	a.TL.Reset(sc.Duration)
	go a.loop(r, gen)
}

// CancelRun stops the current run; what ran so far stays on screen.
func (a *App) CancelRun() {
	if a.Running {
		a.gen++
		a.Running = false
		a.Notice = "Run cancelled."
	}
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
			if err := r.Sim.Err(); err != nil {
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
		time.Sleep(time.Millisecond) // yield to the browser
	}
}

// publish exposes the page state to the browser tests (window.schedplay).
func (a *App) publish() {
	if !a.published {
		a.published = true
		bridge.Publish("firstRenderMs", bridge.Now()) // performance.now(): since navigation start
	}
	bridge.Publish("ready", true)
	bridge.Publish("running", a.Running)
	bridge.Publish("progress", a.Progress)
	bridge.Publish("preset", a.PresetName)
	bridge.Publish("runMs", a.RunMs)
	bridge.Publish("maxChunkMs", a.maxChunkMs)
	bridge.Publish("maxRenderMs", a.maxRenderMs)
	if a.Run != nil && a.Run.Sim.Done() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		var worst uint64
		for _, p := range ms.PauseNs {
			worst = max(worst, p)
		}
		bridge.Publish("gcMaxPauseMs", float64(worst)/1e6)
		bridge.Publish("heapMB", float64(ms.HeapAlloc)/1e6)
	}
	done := a.Run != nil && a.Run.Sim.Done() && !a.Running
	bridge.Publish("done", done)
	bridge.Publish("runError", a.RunErr)
	if a.JSONErr != nil {
		bridge.Publish("jsonError", map[string]any{"path": a.JSONErr.Path, "msg": a.JSONErr.Msg})
	} else {
		bridge.Publish("jsonError", nil)
	}
	if a.Run != nil {
		bridge.Publish("slices", a.Run.Timeline.NumSlices())
		bridge.Publish("events", float64(a.Run.Sim.EventsProcessed()))
		if done && a.tasksFor != a.Run {
			a.tasksFor = a.Run
			rep := a.Run.Report()
			tasks := map[string]any{}
			for _, t := range rep.Tasks {
				tasks[t.Name] = map[string]any{"runtime_ns": float64(t.RuntimeNs), "switches": float64(t.Switches),
					"lat_p99_ns": float64(t.WakeupLatencyNs.P99)}
			}
			bridge.Publish("tasks", tasks)
		}
	}
	a.TL.publish()
}

// noteRender records the longest DOM render of the current run.
func (a *App) noteRender(ms float64) { a.maxRenderMs = max(a.maxRenderMs, ms) }
