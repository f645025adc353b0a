// Command worker is the simulation engine of the browser playground, built
// on its own (GOOS=js GOARCH=wasm, core only: no Vugu, no DOM, no view
// models) and run in a Web Worker (site/worker.js), so that a long
// simulation never blocks the page's main thread.
//
// The messages are wasm/protocol's (its doc.go has the table); the work
// is wasm/runner's Service. Where the browser has no workers the page runs
// this same binary on its own thread (site/pageworker.js, loaded only
// then), so the page links no engine of its own. main_js.go is the only part that touches
// JavaScript: it converts messages, reads trace files, posts answers with
// their buffers transferred, and yields to the worker's event loop between
// two chunks (yield_js.go), which is when a cancel or a newer request is
// seen (the older loop then stops).
//
// After each request it posts its heap (protocol.Heap) so that the page's
// worker pool (wasm/pool) can replace a worker whose memory grew; if its
// Go program exits (a panic, out of memory) site/worker.js posts a fatal
// message naming it and closes the worker.
//
// `go list -deps ./wasm/worker` names no page package (wasm/view, the
// bridge, Vugu): the worker's binary holds the engine and its runner only.
//
// On the host, main only explains how to build.
package main
