//go:build js && wasm

package main

// The page engine in the browser: the worker's own binary (worker.wasm)
// run on the page's thread by site/pageworker.js behind a Worker's
// interface, loaded only when no worker can start, so neither it nor a
// copy of the engine is part of the page's first load.

import "schedplay/wasm/bridge"

// pageWorkerFile is the stand-in's script (site/pageworker.js).
const pageWorkerFile = "pageworker.js"

// startPageEngine loads the stand-in and starts worker.wasm in it.
func (l *engineLink) startPageEngine() (pageEngine, error) {
	w, err := bridge.StartPageWorker(pageWorkerFile, l.onMsg)
	if err != nil {
		return nil, err
	}
	w.Expose("page")
	return w, nil
}
