//go:build js && wasm

package main

// yieldToEventLoop lets the worker's event loop run between two chunks of
// a run (that is when a cancel or a newer run message is delivered) and
// resumes at once.
//
// A time.Sleep alone is a setTimeout started from the previous chunk's
// timer callback, and the HTML timer rules clamp a timeout nested more
// than five deep to 4 ms: idle worker after every chunk (docs/engine.md
// "Speed under WASM"). So the yield first posts a message to itself
// through a MessageChannel and waits for it (a plain task, no clamp), and
// sleeps from that task: the timer nests one deep and waits its 1 ms. The
// sleep stays because a self-posted message alone does
// not always let other tasks in: Node delivers up to a thousand port
// messages in one go, and a browser may favour one task queue over the
// timers for a while. Where there is no MessageChannel, only the sleep.

import (
	"syscall/js"
	"time"
)

// loopYielder is the MessageChannel of yieldToEventLoop, made on first use
// (worker.loop).
// Runs, exports and experiments may yield at the same time: each yield
// queues its own wake channel and posts one message, and each message
// delivered wakes the oldest waiter, so none is lost.
type loopYielder struct {
	port    js.Value           // port2: posting to it delivers to port1
	waiters chan chan struct{} // yields waiting for their message, oldest first
	fn      js.Func            // port1's handler (kept for the worker's lifetime)
}

func (wk *worker) yieldToEventLoop() {
	if wk.loop == nil {
		mc := js.Global().Get("MessageChannel")
		if mc.Type() != js.TypeFunction {
			time.Sleep(time.Millisecond)
			return
		}
		ch := mc.New()
		y := &loopYielder{port: ch.Get("port2"), waiters: make(chan chan struct{}, 64)}
		y.fn = js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case w := <-y.waiters:
				w <- struct{}{} // buffered: never blocks the handler
			default:
			}
			return nil
		})
		ch.Get("port1").Set("onmessage", y.fn)
		wk.loop = y
	}
	w := make(chan struct{}, 1)
	wk.loop.waiters <- w
	wk.loop.port.Call("postMessage", nil)
	<-w
	time.Sleep(time.Millisecond) // from the message's task: not clamped
}
