//go:build js && wasm

package bridge

// Browser tasks and Go's scheduler on js/wasm. The Go runtime returns to
// the browser only when every goroutine is blocked: a JS callback entering
// Go runs the callback, then every goroutine that is runnable by then (a
// sleeper whose timer expired, a goroutine woken by a lock the callback
// released), then, in a GC mark phase, the idle mark worker, which drains
// the whole mark work (on js/wasm pollWork never sees pending browser
// events). time.Sleep is therefore no yield to a task of one's own: the
// sleeper wakes in whatever callback enters Go next (an animation frame,
// a worker message) and its work lengthens that task. Yield waits for a
// setTimeout callback of its own instead: each waiter gets its own task,
// and heavy page work (the page render, batch ingestion) starts a task
// rather than joining one.

import (
	"time"

	"github.com/hack-pad/safejs"
)

var (
	taskFn      safejs.Func
	taskInit    bool
	taskWaiters []chan struct{}
)

// Yield blocks the calling goroutine until a browser task of its own (a
// setTimeout(0) callback; one per caller, in the order asked). Without
// setTimeout it sleeps a millisecond, as the page did before.
func Yield() {
	if !taskInit {
		f, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
			if len(taskWaiters) > 0 {
				ch := taskWaiters[0]
				taskWaiters = taskWaiters[1:]
				close(ch)
			}
			return nil
		})
		if err != nil {
			time.Sleep(time.Millisecond)
			return
		}
		taskFn, taskInit = f, true
	}
	ch := make(chan struct{})
	taskWaiters = append(taskWaiters, ch)
	if _, err := global().Call("setTimeout", taskFn.Value(), 0); err != nil {
		taskWaiters = taskWaiters[:len(taskWaiters)-1]
		time.Sleep(time.Millisecond)
		return
	}
	<-ch
}
