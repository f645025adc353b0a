//go:build js && wasm

package main

// The worker's JavaScript side: turn the page's messages (site/worker.js
// queues them until Go is ready) into wasm/protocol requests for the
// engine runner's service (wasm/runner), and post its answers back with
// their byte buffers transferred (no copy on the way to the page).
//
// This program touches only the worker global scope (postMessage, typed
// arrays, FileReaderSync, performance.now), never the DOM, so it uses
// syscall/js directly rather than wasm/bridge, which is the page's door to
// the browser. Where the browser has no workers, the page runs this same
// binary on its own thread (site/pageworker.js): the stand-in's
// schedplayWorkerScope then replaces the worker's scope for posting,
// receiving and reading files, and the runs are paced for the page.

import (
	"errors"
	"runtime"
	"syscall/js"

	"schedplay/wasm/protocol"
	"schedplay/wasm/runner"
)

// worker is the service and the event-loop yield its loops share.
// JavaScript runs one thing at a time here (the message handler only
// between two yields of a loop).
type worker struct {
	svc  *runner.Service
	loop *loopYielder // yieldToEventLoop's channel, made on first use
}

func newWorker() *worker {
	w := &worker{}
	pace := runner.WorkerPace()
	if scope().Get("pace").Equal(js.ValueOf("page")) {
		pace = runner.PagePace() // on the page's thread: chunks below a long task
	}
	w.svc = runner.NewService(pace, now, w.yieldToEventLoop, post)
	return w
}

// scope is where the worker posts, listens and reads files: the worker's
// global scope, or on the page's thread the stand-in's
// (schedplayWorkerScope, site/pageworker.js).
func scope() js.Value {
	if s := js.Global().Get("schedplayWorkerScope"); s.Type() == js.TypeObject {
		return s
	}
	return js.Global()
}

func main() {
	setGC() // gc_js.go
	w := newWorker()
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			w.handle(args[0])
		}
		return nil
	})
	scope().Call("schedplayWorkerReady", onMessage)
	select {}
}

// handle passes one message of the page to the service (unknown types
// are ignored, as a newer page may send what this worker does not know).
func (w *worker) handle(m js.Value) {
	msg := protocol.FromFields(
		func(k string) string {
			if v := m.Get(k); v.Type() == js.TypeString {
				return v.String()
			}
			return ""
		},
		func(k string) float64 {
			if v := m.Get(k); v.Type() == js.TypeNumber {
				return v.Float()
			}
			return 0
		})
	if msg.Type == protocol.TypeOpenTrace {
		file := m.Get(protocol.KeyFile)
		w.svc.OpenTrace(msg.ID, file.Get("name").String(), file.Get("size").Float(), func() ([]byte, error) { return readFile(file) })
		return
	}
	if req, err := protocol.ParseRequest(msg); err == nil {
		w.svc.Handle(req)
	}
}

func now() float64 { return js.Global().Get("performance").Call("now").Float() }

// readFile reads a File posted by the page (FileReaderSync: workers only).
func readFile(file js.Value) ([]byte, error) {
	rd := scope().Get("FileReaderSync")
	if rd.IsUndefined() {
		return nil, errors.New("this browser cannot read files in a worker")
	}
	ab := rd.New().Call("readAsArrayBuffer", file)
	u8 := js.Global().Get("Uint8Array").New(ab)
	data := make([]byte, u8.Length())
	js.CopyBytesToGo(data, u8)
	return data, nil
}

// post sends m to the page, its Buf copied into an ArrayBuffer that is
// transferred.
func post(m protocol.Message) {
	sc := scope()
	if sc.Get("postMessage").Type() != js.TypeFunction {
		return // no page to post to (the Node tests swap it in and out)
	}
	wire := m.Wire()
	msg := js.Global().Get("Object").New()
	wire.Fields(func(k string, v any) { msg.Set(k, v) })
	var transfer []any
	if wire.Buf != nil {
		arr := js.Global().Get("Uint8Array").New(len(wire.Buf))
		js.CopyBytesToJS(arr, wire.Buf)
		ab := arr.Get("buffer")
		msg.Set(protocol.KeyBuf, ab)
		transfer = append(transfer, ab)
	}
	sc.Call("postMessage", msg, transfer)
	if ends(wire.Type) {
		post(protocol.Heap{Bytes: heapBytes()})
	}
}

// ends reports whether a message of type t ends a request: the page then
// learns the worker's memory (protocol.Heap) and may recycle a worker
// whose heap grew large (wasm/pool).
func ends(t protocol.Type) bool {
	switch t {
	case protocol.TypeDone, protocol.TypeExportFile, protocol.TypeExportError, protocol.TypeThreadDone,
		protocol.TypeSweepDone, protocol.TypeJobDone, protocol.TypeTraceError:
		return true
	}
	return false
}

// heapBytes is the memory the Go runtime holds from the system: on
// js/wasm the linear memory, which never shrinks.
func heapBytes() float64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.Sys)
}
