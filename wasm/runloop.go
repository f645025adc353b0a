package main

// Runs: the engine runs in a Web Worker (site/worker.js + wasm/worker), so
// the page's main thread only folds streamed event batches into the
// timeline model and draws.
//
//   - StartRun posts the scenario JSON with a new run id; a newer run or
//     Cancel makes older batches stale (dropped here) and stops the worker
//     loop at its next yield.
//   - The worker's messages arrive in a JS callback that must not block:
//     it only queues them (onWorkerMsg). pump, a goroutine, takes the
//     event-env lock and ingests queued batches for at most ingestMs, then
//     yields (bridge.Yield: a browser task of its own, not a timer that
//     would wake inside the next animation frame's drawing), so catching
//     up after a stall is spread over several tasks.
//   - Drawing is throttled to animation frames (frame), the timeline to
//     one redraw per drawEvery ms (it fills in; redrawing every frame spent
//     main-thread time the folding needs): the timeline
//     canvas, the progress bar and the heat map are updated directly, not
//     through a Vugu re-render, which costs tens of milliseconds for the
//     whole page. Vugu renders the page when a run starts and when it ends.
//
// Without Worker support (or when the worker fails to load) runs fall back
// to the main-thread loop of runloop_local.go.

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

const (
	ingestMs   = 16  // longest stretch of batch folding per browser task (GC and a frame may follow)
	heatEvery  = 250 // ms between heat-map updates while running
	drawEvery  = 100 // ms between timeline redraws while running (a fill-in, not an animation)
	workerFile = "worker.js"
)

// workerLink is the page's connection to the simulation worker.
type workerLink struct {
	w      *bridge.Worker
	mu     sync.Mutex // guards inbox (filled from JS callbacks)
	inbox  []queued
	wake   chan struct{}
	frame  bool    // an animation frame is requested
	heatAt float64 // last heat-map update (performance.now)
	drawAt float64 // last timeline redraw while running
	start  float64 // run start (performance.now)
}

// startWorker launches the worker; on failure the app runs on the main
// thread.
func (a *App) startWorker() {
	l := &workerLink{wake: make(chan struct{}, 1)}
	w, err := bridge.StartWorker(workerFile, l.onMsg)
	if err != nil {
		a.engine = "main"
		return
	}
	l.w, a.link, a.engine = w, l, "worker"
	go a.pump(l)
}

// queued is a worker message waiting for the pump, with its task list and
// report once decoded (decode_pieces.go).
type queued struct {
	bridge.WorkerMsg
	parsed bool
	infos  []sched.TaskInfo
	report *metrics.Report
	err    error
}

// parse decodes the message's task list and report, in pieces that yield
// to the browser (called without the event-env lock).
func (q *queued) parse() {
	if q.parsed {
		return
	}
	q.parsed = true
	p := &pieces{budgetMs: decodeMs, now: bridge.Now, yield: bridge.Yield}
	if q.Type == "batch" && q.Tasks != "" {
		q.infos, q.err = decodeTaskInfos(q.Tasks, p)
	}
	if q.Type == "done" && q.Report != "" {
		q.report, q.err = decodeReport(q.Report, p)
	}
}

// maxRecords bounds the records ingested as one piece, so that the time
// bound of pump holds even when the worker sends a large batch.
const maxRecords = 4096

// onMsg runs in a JS callback: queue (large batches split into pieces)
// and signal, never block.
func (l *workerLink) onMsg(m bridge.WorkerMsg) {
	l.mu.Lock()
	for m.Type == "batch" && len(m.Buf) > maxRecords*view.RecordSize {
		piece := m
		piece.Buf = m.Buf[:maxRecords*view.RecordSize]
		l.inbox = append(l.inbox, queued{WorkerMsg: piece})
		m.Buf, m.Tasks = m.Buf[maxRecords*view.RecordSize:], ""
	}
	l.inbox = append(l.inbox, queued{WorkerMsg: m})
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// StartRun starts the current scenario (called with the lock held); it
// leaves trace mode.
func (a *App) StartRun() {
	defer a.publishUnfinished() // before the render, which waits for a task of its own
	a.Trace, a.TraceErr = nil, ""
	text := a.Sc.Encode()
	sc, err := scenario.Decode(text) // a private copy: edits don't reach the running sim
	if err != nil {
		a.RunErr = err.Error()
		a.JSONErr = asPathError(err)
		return
	}
	if a.link == nil {
		a.startLocal(sc)
		return
	}
	r, err := view.NewRemoteRun(sc)
	if err != nil {
		a.RunErr = err.Error()
		return
	}
	a.gen++
	a.Run, a.Running, a.Progress, a.RunErr = r, true, 0, ""
	a.maxChunkMs, a.maxRenderMs, a.maxIngestMs = 0, 0, 0
	a.spans.reset()
	a.resetRows()
	a.TL.Reset(sc.Duration)
	a.link.start = bridge.Now()
	// The worker decodes the same text (one encoding, not two: at 1024
	// tasks each is a few ms of the apply click's task under js/wasm).
	if err := a.link.w.Post(map[string]any{"type": "run", "id": a.gen, "scenario": string(text)}); err != nil {
		a.workerFailed(err.Error())
		return
	}
	go a.collectAtStart(a.gen)
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
	if gen != a.gen {
		return // a newer run: its own collection follows
	}
	t0, gc0 := a.spans.start()
	runtime.GC()
	a.spans.end("gc:start", t0, gc0)
}

// CancelRun stops the current run; what ran so far stays on screen.
func (a *App) CancelRun() {
	if !a.Running {
		return
	}
	if a.link != nil {
		a.link.w.Post(map[string]any{"type": "cancel", "id": a.gen})
	}
	a.gen++
	a.Running = false
	a.Notice = "Run cancelled."
}

// workerFailed drops the worker and reruns on the main thread.
func (a *App) workerFailed(why string) {
	a.link.w.Terminate()
	a.link, a.engine = nil, "main"
	a.Notice = "The simulation worker failed (" + why + "); running on the page instead."
	a.StartRun()
}

// pump ingests queued worker messages under the lock, in bounded slices.
func (a *App) pump(l *workerLink) {
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
			t0, gc0 := a.spans.start()
			render := false
			for i := range msgs {
				if bridge.Now()-t0 > ingestMs { // put the rest back, yield, continue
					l.mu.Lock()
					l.inbox = append(msgs[i:len(msgs):len(msgs)], l.inbox...)
					l.mu.Unlock()
					break
				}
				render = a.handle(&msgs[i]) || render
			}
			a.maxIngestMs = max(a.maxIngestMs, a.spans.end("ingest", t0, gc0))
			if render {
				a.env.UnlockRender()
			} else {
				a.requestFrame()
				a.env.UnlockOnly()
			}
			bridge.Yield() // the next slice in a browser task of its own (bridge/task_js.go)
		}
	}
}

// handle applies one worker message and reports whether the page needs a
// full re-render (the run ended).
func (a *App) handle(q *queued) bool {
	m := q.WorkerMsg
	if m.Type == "fatal" {
		if a.link != nil {
			a.workerFailed(m.Error)
		}
		return true
	}
	if m.Type == "threadprogress" || m.Type == "threaddone" {
		return a.handleThread(m) // threadexp.go
	}
	if m.Type == "sweepprogress" || m.Type == "sweepdone" {
		return a.handleSweep(m) // sweep_run.go
	}
	if m.Type == "trace" || m.Type == "traceerror" {
		return a.handleTrace(m)
	}
	if m.Type == "export" || m.Type == "exportprogress" || m.Type == "exporterror" {
		return a.handleExport(m)
	}
	r := a.Run
	if m.ID != a.gen || r == nil || !r.Remote() || r.Done() {
		return false // a cancelled or superseded run
	}
	switch m.Type {
	case "batch":
		if q.err != nil {
			return a.fail(r, q.err)
		}
		if err := r.Ingest(m.Buf, sched.Time(m.Now), int64(m.Events), q.infos); err != nil {
			return a.fail(r, err)
		}
		a.Progress = r.Fraction()
		return false
	case "done":
		var err error
		if m.Error != "" {
			err = errors.New(m.Error)
		}
		rep := q.report
		if q.err != nil {
			rep, err = nil, q.err
		}
		if err != nil && a.RunErr == "" {
			a.RunErr = err.Error()
		}
		r.Finish(rep, err)
		a.Running, a.Progress = false, 1
		a.RunMs = bridge.Now() - a.link.start
		return true
	}
	return false
}

func (a *App) fail(r *view.Run, err error) bool {
	r.Finish(nil, err)
	a.RunErr, a.Running = err.Error(), false
	if a.link != nil {
		a.link.w.Post(map[string]any{"type": "cancel", "id": a.gen})
	}
	return true
}

// requestFrame schedules one frame update (called with the lock held).
func (a *App) requestFrame() {
	if a.link == nil || a.link.frame {
		return
	}
	a.link.frame = true
	bridge.RequestFrame(a.frame)
}

// frame draws what streamed in since the last frame: the timeline canvas,
// the progress bar and text, and (every heatEvery ms) the heat map.
func (a *App) frame() {
	a.env.Lock()
	defer a.env.UnlockOnly()
	if a.link == nil {
		return
	}
	a.link.frame = false
	if !a.Running {
		return // the final render draws everything
	}
	t0, gc0 := a.spans.start()
	defer func() { a.spans.end("frame", t0, gc0) }()
	// After a page render (a run's start) the browser lays out what the
	// render changed in this frame's task, after this callback; the
	// canvases wait for the after-render drawing two frames on
	// (App.AfterRender), so that layout and a drawing of every lane are
	// not one task (at 256 CPUs 10 ms of layout and 20 ms of drawing).
	drawNow := !a.afterAsked
	if drawNow && t0-a.link.drawAt >= drawEvery {
		a.link.drawAt = t0
		a.TL.Draw()
	}
	bridge.SetStyle("progress-bar", "width", fmt.Sprintf("%.1f%%", 100*a.Progress))
	bridge.SetText("progress-text", progressText(a))
	if now := bridge.Now(); drawNow && now-a.link.heatAt > heatEvery {
		a.link.heatAt = now
		a.recolourMachine(false)
	}
	a.publish()
}
