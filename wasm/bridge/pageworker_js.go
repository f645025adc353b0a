//go:build js && wasm

package bridge

// The engine on the page's own thread, for browsers without Web Workers
// (or where none starts): site/pageworker.js, loaded here on first use,
// runs the worker's binary (worker.wasm) on this thread behind a Worker's
// interface (postMessage, onmessage, onerror, terminate), so the page
// talks to it exactly as to a worker and links no engine of its own.

import (
	"errors"

	"github.com/hack-pad/safejs"

	"schedplay/wasm/protocol"
)

// StartPageWorker loads script (once) and starts its stand-in worker;
// onMsg receives its messages. It blocks the calling goroutine until the
// script has loaded (never the browser: Go yields to it meanwhile).
func StartPageWorker(script string, onMsg func(protocol.Msg)) (*Worker, error) {
	if err := loadScript(script); err != nil {
		return nil, err
	}
	cls, err := global().Get("SchedplayPageWorker")
	if err != nil || cls.Type() != safejs.TypeFunction {
		return nil, errors.New(script + " did not define SchedplayPageWorker")
	}
	wv, err := cls.New()
	if err != nil {
		return nil, err
	}
	return attach(wv, onMsg)
}

// loadScript adds a <script> for src to the document's head and waits
// for it to load or fail.
func loadScript(src string) error {
	doc, err := global().Get("document")
	if err != nil {
		return err
	}
	el, err := doc.Call("createElement", "script")
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	onLoad, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { done <- nil; return nil })
	if err != nil {
		return err
	}
	defer onLoad.Release()
	onErr, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		done <- errors.New("could not load " + src)
		return nil
	})
	if err != nil {
		return err
	}
	defer onErr.Release()
	el.Set("onload", onLoad.Value())
	el.Set("onerror", onErr.Value())
	el.Set("src", src)
	head, err := doc.Get("head")
	if err != nil {
		return err
	}
	if _, err := head.Call("appendChild", el); err != nil {
		return err
	}
	return <-done
}
