//go:build js && wasm

package bridge

// The page's side of the simulation worker (site/worker.js running
// wasm/worker) and animation-frame scheduling. Messages cross in
// wasm/protocol's wire form: requests are built from protocol messages,
// answers converted to protocol.Msg in the JS callback and handed to a Go
// function that must not block (the UI queues them; see wasm/runloop.go).

import (
	"errors"
	"syscall/js"

	"github.com/hack-pad/safejs"

	"schedplay/wasm/protocol"
)

// Worker is a running Web Worker.
type Worker struct {
	w      safejs.Value
	onMsg  safejs.Func
	onErr  safejs.Func
	closed bool
}

// StartWorker starts a Web Worker from url; onMsg receives its messages
// (and a protocol.Fatal if the worker fails to load or throws).
//
// The page's loader (site/loader.js, schedplayNewWorker) starts it when
// it can, so that the workers share one compiled worker.wasm.
func StartWorker(url string, onMsg func(protocol.Msg)) (*Worker, error) {
	cls, err := global().Get("Worker")
	if err != nil || cls.IsUndefined() {
		return nil, errors.New("Web Workers are not available")
	}
	var wv safejs.Value
	if nw, err := global().Get("schedplayNewWorker"); err == nil && nw.Type() == safejs.TypeFunction {
		wv, err = nw.Invoke(url)
		if err != nil {
			return nil, err
		}
	} else if wv, err = cls.New(url); err != nil {
		return nil, err
	}
	return attach(wv, onMsg)
}

// attach listens to the worker (or its stand-in) wv.
func attach(wv safejs.Value, onMsg func(protocol.Msg)) (*Worker, error) {
	w := &Worker{w: wv}
	var err error
	w.onMsg, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) > 0 {
			if d, err := args[0].Get("data"); err == nil {
				onMsg(decodeMsg(d))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	w.onErr, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		m := protocol.Fatal{Error: "worker error"}
		if len(args) > 0 {
			args[0].Call("preventDefault") // reported in the page, not as a console error
			if s, err := args[0].Get("message"); err == nil && s.Type() == safejs.TypeString {
				m.Error, _ = s.String()
			}
		}
		onMsg(m.Wire())
		return nil
	})
	if err != nil {
		return nil, err
	}
	wv.Set("onmessage", w.onMsg.Value())
	wv.Set("onerror", w.onErr.Value())
	return w, nil
}

func decodeMsg(d safejs.Value) protocol.Msg {
	m := protocol.FromFields(
		func(k string) string {
			v, err := d.Get(k)
			if err != nil || v.Type() != safejs.TypeString {
				return ""
			}
			s, _ := v.String()
			return s
		},
		func(k string) float64 {
			v, err := d.Get(k)
			if err != nil || v.Type() != safejs.TypeNumber {
				return 0
			}
			f, _ := v.Float()
			return f
		})
	if ab, err := d.Get(protocol.KeyBuf); err == nil && !ab.IsUndefined() && !ab.IsNull() {
		u8, _ := global().Get("Uint8Array")
		if arr, err := u8.New(ab); err == nil {
			n, _ := arr.Get("length")
			size, _ := n.Int()
			m.Buf = make([]byte, size)
			safejs.CopyBytesToGo(m.Buf, arr)
		}
	}
	return m
}

// wireObject is m as a JS object of strings and numbers (no buffer: the
// page sends none).
func wireObject(m protocol.Message) js.Value {
	fields := map[string]any{}
	m.Wire().Fields(func(k string, v any) { fields[k] = v })
	return js.ValueOf(fields)
}

// Post sends a message to the worker.
func (w *Worker) Post(m protocol.Message) error {
	if w == nil || w.closed {
		return errors.New("worker closed")
	}
	_, err := w.w.Call("postMessage", wireObject(m))
	return err
}

// PostFile sends m with the first file chosen in the file input inputID
// (as "file": a File is structured-cloned, not read, here) and returns its
// name and size; the input is cleared so choosing the same file again
// fires a change.
func (w *Worker) PostFile(m protocol.OpenTrace, inputID string) (string, float64, error) {
	if w == nil || w.closed {
		return "", 0, errors.New("worker closed")
	}
	file, err := firstFile(inputID)
	if err != nil {
		return "", 0, err
	}
	name, size := fileMeta(file)
	msg := wireObject(m)
	msg.Set(protocol.KeyFile, safejs.Unsafe(file))
	if _, err := w.w.Call("postMessage", msg); err != nil {
		return "", 0, err
	}
	clearInput(inputID)
	return name, size, nil
}

// Terminate stops the worker at once.
func (w *Worker) Terminate() {
	if w == nil || w.closed {
		return
	}
	w.closed = true
	w.w.Call("terminate")
	w.onMsg.Release()
	w.onErr.Release()
}

var (
	frameFn    safejs.Func
	frameInit  bool
	frameCBs   []func()
	frameAsked bool
)

// RequestFrame calls fn (in a new goroutine, so it may take locks) before
// the browser's next paint. Every fn asked for before the frame runs, in
// the order asked (the run loop's frame and the after-render drawing).
func RequestFrame(fn func()) error {
	if !frameInit {
		f, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
			cbs := frameCBs
			frameCBs, frameAsked = nil, false
			go func() {
				for _, cb := range cbs {
					cb()
				}
			}()
			return nil
		})
		if err != nil {
			return err
		}
		frameFn, frameInit = f, true
	}
	frameCBs = append(frameCBs, fn)
	if frameAsked {
		return nil
	}
	frameAsked = true
	_, err := global().Call("requestAnimationFrame", frameFn.Value())
	return err
}

// SetAttr sets an attribute of element id (a value, never parsed as HTML).
func SetAttr(id, name, val string) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	_, err = el.Call("setAttribute", name, val)
	return err
}
