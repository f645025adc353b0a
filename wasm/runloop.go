package main

// Runs: the engine runs in a Web Worker (site/worker.js + wasm/worker),
// so the page's main thread only folds streamed event batches into the
// timeline model and draws. Without Worker support (or when the worker
// fails) the same engine runner (wasm/runner's Service) runs on goroutines
// of the page, in shorter chunks, and answers through the same queue: the
// page has one run path whichever engine it talks to (enginelink.go).
//
//   - StartRun posts the scenario JSON with a new run id; a newer run or
//     Cancel makes older batches stale (dropped here) and stops the
//     engine's loop at its next yield.
//   - The engine's messages arrive in a callback that must not block: it
//     only queues them (onMsg). pump, a goroutine, takes the event-env
//     lock and ingests queued batches for at most ingestMs, then yields
//     (bridge.Yield: a browser task of its own, not a timer that would
//     wake inside the next animation frame's drawing), so catching up
//     after a stall is spread over several tasks.
//   - Drawing is throttled to animation frames (frame), the timeline to
//     one redraw per drawEvery ms (it fills in; redrawing every frame spent
//     main-thread time the folding needs): the timeline
//     canvas, the progress bar and the heat map are updated directly, not
//     through a Vugu re-render, which costs tens of milliseconds for the
//     whole page. Vugu renders the page when a run starts and when it ends.

import (
	"errors"
	"fmt"
	"runtime"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
	"schedplay/wasm/view"
)

const (
	ingestMs   = 16  // longest stretch of batch folding per browser task (GC and a frame may follow)
	heatEvery  = 250 // ms between heat-map updates while running
	drawEvery  = 100 // ms between timeline redraws while running (a fill-in, not an animation)
	workerFile = "worker.js"
)

// StartRun starts the current scenario (called with the lock held); it
// leaves trace mode.
func (a *App) StartRun() {
	defer a.publishUnfinished() // before the render, which waits for a task of its own
	t0 := bridge.Now()
	a.Trace, a.TraceErr = nil, ""
	text := a.Sc.Encode()
	sc, err := scenario.Decode(text) // a private copy: edits don't reach the running sim
	if err != nil {
		a.Ctl.Err = err.Error()
		a.JSONErr = asPathError(err)
		return
	}
	r, err := view.NewRun(sc)
	if err != nil {
		a.Ctl.Err = err.Error()
		return
	}
	a.remember()
	a.pruneWarnings() // a warning the edit resolved goes (rtapp.go)
	a.cancelPool()    // a run supersedes a batch, on every worker (poolrun.go)
	a.Ctl.gen++
	a.Run, a.Ctl.Running, a.Ctl.Progress, a.Ctl.Err = r, true, 0, ""
	a.origin = &runOrigin{Sc: sc, Prov: a.Mem.cmp.provenanceOf(sc)} // newOrigin, with remember's comparison kept
	a.Probe.resetRun()
	a.Probe.runMarks[0] = t0
	a.Ctl.link.takeChunkMs()
	a.Probe.spans.reset()
	a.resetRows()
	a.TL.Reset(sc.Duration)
	a.TL.stepMax = 0
	a.Ctl.link.start = bridge.Now()
	// The engine decodes the same text (one encoding, not two: at 1024
	// tasks each is a few ms of the apply click's task under js/wasm).
	if err := a.Ctl.link.post(protocol.Run{ID: a.Ctl.gen, Scenario: string(text)}); err != nil {
		a.workerFailed(err.Error())
		return
	}
	a.Probe.markRun(1)
	go a.collectAtStart(a.Ctl.gen)
}

// collectAtStart runs a garbage collection in a browser task of its own
// when a run starts. The previous run's timeline has just become garbage;
// left to the pacer, the cycle that frees it starts at whatever allocation
// crosses the heap goal (often the after-render drawing of the run start)
// and, on js/wasm, its whole mark phase runs at the end of that task
// (bridge/task_js.go): on the first run after a page load, a 60-90 ms
// task of drawing and GC. Here the cycle gets a task alone, while the
// live heap is small (the old run is unreachable), and the next cycle is
// paced from that small heap. It is the span "gc:start".
func (a *App) collectAtStart(gen int) {
	bridge.Yield()
	a.env.Lock()
	defer a.env.UnlockOnly()
	if gen != a.Ctl.gen {
		return // a newer run: its own collection follows
	}
	t0, gc0 := a.Probe.spans.start()
	runtime.GC()
	a.Probe.spans.end("gc:start", t0, gc0)
}

// CancelRun stops the current run; what ran so far stays on screen.
func (a *App) CancelRun() {
	if !a.Ctl.Running {
		return
	}
	a.Ctl.link.post(protocol.Cancel{ID: a.Ctl.gen})
	a.Ctl.gen++
	a.Ctl.Running = false
	a.Notice = "Run cancelled."
}

// workerFailed drops the worker and reruns on the main thread; an
// experiment or a sweep it was running ends (nothing of it is shown). If
// the engine on the page failed, the run ends with the reason.
func (a *App) workerFailed(why string) {
	if a.G != nil {
		a.G.batch.Running = false
	}
	if a.SW != nil {
		a.SW.batch.Running = false
	}
	if a.Ctl.link.w == nil { // the page engine itself: nothing left to fall back on
		a.Ctl.Running, a.Ctl.Err = false, "The simulator stopped: "+why
		return
	}
	a.Ctl.link.w.Terminate()
	a.runOnPage()
	a.Notice = "The simulation worker failed (" + why + "); running on the page instead."
	a.StartRun()
}

// pump ingests queued worker messages under the lock, in bounded slices.
func (a *App) pump(l *engineLink) {
	for range l.wake {
		for {
			l.mu.Lock()
			msgs := l.inbox
			l.inbox = nil
			l.mu.Unlock()
			if len(msgs) == 0 {
				break
			}
			for i := range msgs {
				msgs[i].parse() // may yield: no lock held
			}
			a.env.Lock()
			t0, gc0 := a.Probe.spans.start()
			render := false
			for i := range msgs {
				if bridge.Now()-t0 > ingestMs { // put the rest back, yield, continue
					l.mu.Lock()
					l.inbox = append(msgs[i:len(msgs):len(msgs)], l.inbox...)
					l.mu.Unlock()
					break
				}
				h0 := bridge.Now()
				render = a.handle(&msgs[i]) || render
				if msgs[i].slot >= 0 && a.Ctl.link.pool != nil && a.Ctl.link.pool.Active() != nil {
					a.Probe.poolMsgs++
					a.Probe.poolMsgMs += bridge.Now() - h0
				}
			}
			a.Probe.maxIngestMs = max(a.Probe.maxIngestMs, a.Probe.spans.end("ingest", t0, gc0))
			if render {
				a.env.UnlockRender()
			} else {
				if a.Ctl.Running {
					a.requestFrame() // a frame draws only a timeline run's progress: none for a batch's messages
				}
				a.env.UnlockOnly()
			}
			bridge.Yield() // the next slice in a browser task of its own (bridge/task_js.go)
		}
	}
}

// handle applies one engine message and reports whether the page needs
// a full re-render (the run ended).
func (a *App) handle(q *queued) bool {
	msg, err := protocol.ParseReply(q.Msg)
	if err != nil {
		return false // not for the page (a newer worker's message)
	}
	if a.Ctl.link.pool != nil && q.slot >= 0 {
		if render, handled := a.handlePool(q, msg); handled { // poolrun.go
			return render
		}
	}
	switch m := msg.(type) {
	case protocol.Fatal:
		if a.Ctl.link.w != nil || a.Ctl.Running {
			a.workerFailed(m.Error)
		}
		return true
	case protocol.ThreadProgress, protocol.ThreadDone:
		return a.handleThread(m) // threadexp.go
	case protocol.SweepProgress, protocol.SweepDone:
		return a.handleSweep(m) // sweep_run.go
	case protocol.TraceHeader, protocol.TraceError:
		return a.handleTrace(m) // trace.go
	case protocol.ExportFile, protocol.ExportProgress, protocol.ExportError:
		return a.handleExport(m) // export.go
	case protocol.Batch:
		r := a.current(m.ID)
		if r == nil {
			return false
		}
		if q.err != nil {
			return a.fail(r, q.err)
		}
		_, wasCut := r.Cut()
		if err := r.Ingest(m.Buf, sched.Time(m.Now), m.Events, q.infos); err != nil {
			return a.fail(r, err)
		}
		a.Probe.markRun(2)
		a.Ctl.Progress = r.Fraction()
		if _, cut := r.Cut(); cut && !wasCut {
			a.Notice = r.CutNotice()
			return true
		}
		return false
	case protocol.Done:
		r := a.current(m.ID)
		if r == nil {
			return false
		}
		var err error
		if m.Error != "" {
			err = errors.New(m.Error)
		}
		rep := q.report
		if q.err != nil {
			rep, err = nil, q.err
		}
		if err != nil && a.Ctl.Err == "" {
			a.Ctl.Err = err.Error()
		}
		r.Finish(rep, err)
		a.Ctl.Running, a.Ctl.Progress = false, 1
		a.Ctl.RunMs = bridge.Now() - a.Ctl.link.start
		if a.usePool() {
			a.warmPool() // the batch workers start and warm up while the user reads and edits (poolrun.go)
		}
		return true
	}
	return false
}

// current is the run that answers to request id belong to, nil if they
// are stale (a cancelled or superseded run, or one already finished).
func (a *App) current(id int) *view.Run {
	if r := a.Run; id == a.Ctl.gen && r != nil && !r.Done() {
		return r
	}
	return nil
}

func (a *App) fail(r *view.Run, err error) bool {
	r.Finish(nil, err)
	a.Ctl.Err, a.Ctl.Running = err.Error(), false
	a.Ctl.link.post(protocol.Cancel{ID: a.Ctl.gen})
	return true
}

// requestFrame schedules one frame update (called with the lock held).
func (a *App) requestFrame() {
	if a.Ctl.link.frame {
		return
	}
	a.Ctl.link.frame = true
	bridge.RequestFrame(a.frame)
}

// frame draws what streamed in since the last frame: the timeline canvas,
// the progress bar and text, and (every heatEvery ms) the heat map.
func (a *App) frame() {
	a.env.Lock()
	defer a.env.UnlockOnly()
	a.Ctl.link.frame = false
	if !a.Ctl.Running {
		return // the final render draws everything
	}
	t0, gc0 := a.Probe.spans.start()
	defer func() { a.Probe.spans.end("frame", t0, gc0) }()
	// After a page render (a run's start) the browser lays out what the
	// render changed in this frame's task, after this callback; the
	// canvases wait for the after-render drawing two frames on
	// (App.AfterRender), so that layout and a drawing of every lane are
	// not one task (at 256 CPUs 10 ms of layout and 20 ms of drawing).
	// A drawing still in progress (its steps: timeline_paint.go) is left
	// to finish: a new one would start over from the top lane.
	drawNow := !a.afterAsked
	if drawNow && !a.TL.Painting() && t0-a.Ctl.link.drawAt >= drawEvery {
		a.Ctl.link.drawAt = t0
		a.TL.Draw()
	}
	bridge.SetStyle("progress-bar", "width", fmt.Sprintf("%.1f%%", 100*a.Ctl.Progress))
	bridge.SetText("progress-text", progressText(a))
	if now := bridge.Now(); drawNow && now-a.Ctl.link.heatAt > heatEvery {
		a.Ctl.link.heatAt = now
		a.recolourMachine(false)
	}
	a.publish()
}
