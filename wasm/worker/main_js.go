//go:build js && wasm

package main

// The worker's JavaScript side: receive run/cancel messages (site/worker.js
// queues them until Go is ready), run the engine in chunks, post batches
// with their record buffer transferred (no copy on the way to the page).
//
// This program touches only the worker global scope (postMessage, typed
// arrays, performance.now), never the DOM, so it uses syscall/js directly
// rather than wasm/bridge, which is the page's door to the browser.

import (
	"fmt"
	"syscall/js"

	"schedplay/wasm/view"
)

const (
	chunkMs     = 50      // wall time of one chunk: one batch, then a yield
	firstBudget = 50_000  // events of the first chunk (the deadline bounds it anyway)
	maxBudget   = 4 << 20 // cap of the adaptive event budget
)

// worker is the state the message handler and the runs share. JavaScript
// runs one thing at a time here (the handler only between two yields of a
// run), so the fields need no lock.
type worker struct {
	// current is the id of the run that may proceed; a newer run or a
	// cancel changes it, and the older loop stops at its next yield.
	current int
	// exportCurrent is the export that may proceed (exports have their own
	// ids and run beside simulations).
	exportCurrent int
	loop          *loopYielder // yieldToEventLoop's channel, made on first use
}

func newWorker() *worker { return &worker{current: -1, exportCurrent: -1} }

func main() {
	w := newWorker()
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		m := args[0]
		id := m.Get("id").Int()
		switch m.Get("type").String() {
		case "run":
			w.current = id
			go w.run(id, m.Get("scenario").String())
		case "trace":
			w.current = id
			file := m.Get("file")
			go w.openTrace(id, file)
		case "export":
			w.exportCurrent = id
			go w.runExport(id, m.Get("kind").String(), m.Get("scenario").String())
		case "cancel-export":
			if w.exportCurrent == id {
				w.exportCurrent = -1
			}
		case "cancel":
			if w.current == id {
				w.current = -1
			}
		case "thread": // a thread's experiment (thread.go)
			w.current = id
			go w.runThreadMsg(id, m)
		case "sweep": // a sweep (sweep.go)
			w.current = id
			go w.runSweepMsg(id, m)
		}
		return nil
	})
	js.Global().Call("schedplayWorkerReady", onMessage)
	select {}
}

func now() float64 { return js.Global().Get("performance").Call("now").Float() }

func (w *worker) run(id int, scenarioJSON string) {
	eng, err := NewEngine([]byte(scenarioJSON))
	if err != nil {
		post(id, "done", map[string]any{"error": err.Error()}, nil)
		return
	}
	budget := firstBudget
	for w.current == id {
		t0 := now()
		deadline := t0 + chunkMs
		done := eng.Advance(budget, func() bool { return now() > deadline })
		if ms := now() - t0; ms > 0 {
			budget = max(10_000, min(maxBudget, int(float64(budget)*min(2, chunkMs/ms))))
		}
		t, _ := eng.Sim.Progress()
		buf := eng.Rec.Take()
		post(id, "batch", map[string]any{"now": float64(t), "events": float64(eng.Sim.EventsProcessed()),
			"tasks": eng.NewTasks()}, buf)
		eng.Rec.Recycle(buf) // post copied it

		if done {
			fields := map[string]any{"report": eng.ReportJSON()}
			if err := eng.Sim.Err(); err != nil {
				fields["error"] = err.Error()
			}
			post(id, "done", fields, nil)
			return
		}
		// Yield to the worker's event loop: messages (cancel, a newer
		// run) are delivered only while Go waits (yield_js.go).
		w.yieldToEventLoop()
	}
}

// runExport re-runs a scenario with a trace writer (export.go), posting
// {type: "exportprogress", id, now: fraction} after each chunk and finally
// {type: "export", id, info: kind, buf} or {type: "exporterror", id, error}.
func (w *worker) runExport(id int, kind, scenarioJSON string) {
	x, err := NewExport([]byte(scenarioJSON), kind)
	if err != nil {
		post(id, "exporterror", map[string]any{"error": err.Error()}, nil)
		return
	}
	for w.exportCurrent == id {
		deadline := now() + chunkMs
		if x.Advance(maxBudget, func() bool { return now() > deadline }) {
			data, err := x.Bytes()
			if err != nil {
				post(id, "exporterror", map[string]any{"error": err.Error()}, nil)
				return
			}
			post(id, "export", map[string]any{"info": kind}, data)
			return
		}
		post(id, "exportprogress", map[string]any{"now": x.Fraction()}, nil)
		w.yieldToEventLoop() // let a cancel or a newer export in
	}
}

// openTrace reads a File posted by the page and imports it (trace.go).
func (w *worker) openTrace(id int, file js.Value) {
	fail := func(msg string) { post(id, "traceerror", map[string]any{"error": msg}, nil) }
	name := file.Get("name").String()
	if size := file.Get("size").Float(); size > view.MaxTraceBytes {
		fail(fmt.Sprintf("%s is %.1f MB; the playground opens traces up to %d MB", name, size/1e6, view.MaxTraceBytes>>20))
		return
	}
	rd := js.Global().Get("FileReaderSync")
	if rd.IsUndefined() {
		fail("this browser cannot read files in a worker")
		return
	}
	ab := rd.New().Call("readAsArrayBuffer", file)
	u8 := js.Global().Get("Uint8Array").New(ab)
	data := make([]byte, u8.Length())
	js.CopyBytesToGo(data, u8)
	res, err := ImportTrace(name, data)
	if err != nil {
		fail(name + ": " + err.Error())
		return
	}
	if w.current != id {
		return // superseded while importing
	}
	post(id, "trace", map[string]any{"cpus": res.NumCPUs, "now": float64(res.Duration), "events": float64(res.Events),
		"info": res.Summary}, nil)
	post(id, "batch", map[string]any{"now": float64(res.Duration), "events": float64(res.Events), "tasks": res.Tasks}, res.Records)
	post(id, "done", map[string]any{"report": res.Report}, nil)
}

// post sends {type, id, ...fields, buf} with buf's ArrayBuffer transferred.
func post(id int, typ string, fields map[string]any, buf []byte) {
	msg := js.Global().Get("Object").New()
	msg.Set("type", typ)
	msg.Set("id", id)
	for k, v := range fields {
		msg.Set(k, v)
	}
	var transfer []any
	if buf != nil {
		arr := js.Global().Get("Uint8Array").New(len(buf))
		js.CopyBytesToJS(arr, buf)
		ab := arr.Get("buffer")
		msg.Set("buf", ab)
		transfer = append(transfer, ab)
	}
	js.Global().Call("postMessage", msg, transfer)
}
