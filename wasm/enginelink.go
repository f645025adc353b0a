package main

// The page's link to the engine: the simulation worker, or without one
// (no Worker support, or the worker failed) wasm/runner's Service on
// goroutines of the page. Both answer with wasm/protocol messages into
// one queue, which the pump (runloop.go) ingests under the lock.

import (
	"sync"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/codec"
	"schedplay/wasm/pool"
	"schedplay/wasm/protocol"
	"schedplay/wasm/runner"
)

// engineLink is the page's connection to the engine: the worker (w) or
// the service on the page (svc).
type engineLink struct {
	w    *bridge.Worker
	svc  *runner.Service
	pool *pool.Pool // batches' workers, slot 0 being w (poolrun.go); nil without workers
	// slot0Gen is w's generation in the pool: its messages carry it.
	slot0Gen int
	mu       sync.Mutex // guards inbox and chunkMs (filled from callbacks and the service's goroutines)
	inbox    []queued
	wake     chan struct{}
	frame    bool    // an animation frame is requested
	heatAt   float64 // last heat-map update (performance.now)
	drawAt   float64 // last timeline redraw while running
	start    float64 // run start (performance.now)
	// chunkMs is the longest chunk of the page's own service since
	// takeChunkMs (the fallback's main-thread budget).
	chunkMs float64
}

// startEngine launches the worker, or on failure the service on the page.
func (a *App) startEngine() {
	l := &engineLink{wake: make(chan struct{}, 1)}
	a.Ctl.link = l
	w, err := bridge.StartWorker(workerFile, func(m protocol.Msg) { l.onSlotMsg(0, 1, m) })
	if err != nil {
		l.runOnPage()
		a.Ctl.engine = "main"
	} else {
		l.w, a.Ctl.engine = w, "worker"
		a.startPool(l, w) // slot 0, generation 1
	}
	go a.pump(l)
}

// runOnPage replaces the worker with the runner's service on the page: its
// answers are queued as the worker's are (buffers copied, as the worker's
// post copies them: the service reuses its batch buffers).
func (l *engineLink) runOnPage() {
	l.w = nil
	if l.pool != nil {
		l.pool.Cancel()
	}
	l.svc = runner.NewService(runner.PagePace(), bridge.Now, bridge.Yield, func(m protocol.Message) {
		w := m.Wire()
		if w.Buf != nil {
			w.Buf = append([]byte(nil), w.Buf...)
		}
		l.onMsg(w)
	})
	l.svc.OnChunk = func(ms float64) {
		l.mu.Lock()
		l.chunkMs = max(l.chunkMs, ms)
		l.mu.Unlock()
	}
}

// post sends a request to the engine.
func (l *engineLink) post(m protocol.Message) error {
	if l.svc != nil {
		l.svc.Handle(m)
		return nil
	}
	return l.w.Post(m)
}

// takeChunkMs returns the longest chunk of the page's service since the
// last call (0 with a worker: its chunks block no page).
func (l *engineLink) takeChunkMs() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	ms := l.chunkMs
	l.chunkMs = 0
	return ms
}

// queued is an engine message waiting for the pump, with its task list
// and report once decoded (decode_pieces.go).
type queued struct {
	protocol.Msg
	slot, gen int // the pool slot and worker generation it came from (slot -1: the page's runner)
	parsed    bool
	infos     []sched.TaskInfo
	report    *metrics.Report
	err       error
}

// parse decodes the message's task list and report, in pieces that yield
// to the browser (called without the event-env lock).
func (q *queued) parse() {
	if q.parsed {
		return
	}
	q.parsed = true
	p := &pieces{budgetMs: decodeMs, now: bridge.Now, yield: bridge.Yield}
	if q.Type == protocol.TypeBatch && q.Tasks != "" {
		q.infos, q.err = decodeTaskInfos(q.Tasks, p)
	}
	if q.Type == protocol.TypeDone && q.Report != "" {
		q.report, q.err = decodeReport(q.Report, p)
	}
}

// maxRecords bounds the records ingested as one piece, so that the time
// bound of pump holds even when the engine sends a large batch.
const maxRecords = 4096

// onMsg queues a message of the page's own runner.
func (l *engineLink) onMsg(m protocol.Msg) { l.onSlotMsg(-1, 0, m) }

// onSlotMsg runs in a JS callback (or a goroutine of the service): queue
// (large batches split into pieces) and signal, never block.
func (l *engineLink) onSlotMsg(slot, gen int, m protocol.Msg) {
	l.mu.Lock()
	for m.Type == protocol.TypeBatch && len(m.Buf) > maxRecords*codec.RecordSize {
		piece := m
		piece.Buf = m.Buf[:maxRecords*codec.RecordSize]
		l.inbox = append(l.inbox, queued{Msg: piece, slot: slot, gen: gen})
		m.Buf, m.Tasks = m.Buf[maxRecords*codec.RecordSize:], ""
	}
	l.inbox = append(l.inbox, queued{Msg: m, slot: slot, gen: gen})
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}
