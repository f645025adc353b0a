package main

// The page's link to the engine: the simulation worker, or without one
// (no Worker support, or the worker failed) the engine on the page's own
// thread (pageEngine: worker.wasm behind a Worker's interface in the
// browser, enginelink_js.go; wasm/runner's Service on the host,
// enginelink_other.go). Both answer with wasm/protocol messages into one
// queue, which the pump (runloop.go) ingests under the lock. The page
// itself links no engine (wasm/deps_test.go).

import (
	"sync"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/codec"
	"schedplay/wasm/pool"
	"schedplay/wasm/protocol"
)

// pageEngine is the engine run on the page's thread where no worker runs:
// it takes the worker's requests and answers as the worker does (onMsg).
type pageEngine interface {
	Post(protocol.Message) error
	// PostFile sends an open-trace request with the file chosen in the
	// input inputID; it returns the file's name and size.
	PostFile(m protocol.OpenTrace, inputID string) (string, float64, error)
	Terminate()
}

// engineLink is the page's connection to the engine: the worker (w) or
// the service on the page (svc).
type engineLink struct {
	w    *bridge.Worker
	svc  pageEngine // the engine on the page (nil with a worker)
	pool *pool.Pool // batches' workers, slot 0 being w (poolrun.go); nil without workers
	// slot0Gen is w's generation in the pool: its messages carry it.
	slot0Gen int
	mu       sync.Mutex // guards inbox and chunkMs (filled from callbacks and the page engine's goroutines)
	inbox    []queued
	wake     chan struct{}
	frame    bool    // an animation frame is requested
	heatAt   float64 // last heat-map update (performance.now)
	drawAt   float64 // last timeline redraw while running
	start    float64 // run start (performance.now)
	// chunkMs is the longest chunk of the page engine since takeChunkMs
	// (its batches' ChunkMs: the fallback's chunks block the page).
	chunkMs float64
}

// startEngine launches the worker, or on failure the engine on the page.
func (a *App) startEngine() {
	l := &engineLink{wake: make(chan struct{}, 1)}
	a.Ctl.link = l
	w, err := bridge.StartWorker(workerFile, func(m protocol.Msg) { l.onSlotMsg(0, 1, m) })
	if err != nil {
		a.runOnPage()
	} else {
		l.w, a.Ctl.engine = w, "worker"
		a.startPool(l, w) // slot 0, generation 1
	}
	go a.pump(l)
}

// runOnPage replaces the worker with the engine on the page (its answers
// are queued as the worker's are); if even that cannot start, runs fail
// with the reason.
func (a *App) runOnPage() {
	l := a.Ctl.link
	l.w = nil
	if l.pool != nil {
		l.pool.Cancel()
	}
	svc, err := l.startPageEngine()
	if err != nil {
		l.svc, a.Ctl.engine = failedEngine{err}, "none"
		a.Ctl.Err = "Could not start the simulator: " + err.Error()
		return
	}
	l.svc, a.Ctl.engine = svc, "main"
}

// failedEngine is the page engine that could not start: every request
// fails with why.
type failedEngine struct{ err error }

func (f failedEngine) Post(protocol.Message) error { return f.err }
func (f failedEngine) PostFile(protocol.OpenTrace, string) (string, float64, error) {
	return "", 0, f.err
}
func (f failedEngine) Terminate() {}

// post sends a request to the engine.
func (l *engineLink) post(m protocol.Message) error {
	if l.svc != nil {
		return l.svc.Post(m)
	}
	return l.w.Post(m)
}

// takeChunkMs returns the longest chunk of the page engine since the last
// call (0 with a worker: its chunks block no page).
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
	slot, gen int // the pool slot and worker generation it came from (slot -1: the page engine)
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

// onMsg queues a message of the page engine.
func (l *engineLink) onMsg(m protocol.Msg) { l.onSlotMsg(-1, 0, m) }

// onSlotMsg runs in a JS callback (or a goroutine of the page engine): queue
// (large batches split into pieces) and signal, never block.
func (l *engineLink) onSlotMsg(slot, gen int, m protocol.Msg) {
	l.mu.Lock()
	if slot < 0 && m.Type == protocol.TypeBatch {
		l.chunkMs = max(l.chunkMs, m.ChunkMs)
	}
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
