//go:build js && wasm

package bridge

// What the page's worker pool (wasm/pool, wasm/poolrun.go) needs of the
// browser beyond starting workers: the number of logical CPUs, and a
// handle on each pool worker for the browser tests, which terminate one
// behind the pool's back to test its recovery.

import "github.com/hack-pad/safejs"

// HardwareConcurrency is navigator.hardwareConcurrency (0 if unknown).
func HardwareConcurrency() int {
	v, err := get(global(), "navigator", "hardwareConcurrency")
	if err != nil || v.Type() != safejs.TypeNumber {
		return 0
	}
	n, _ := v.Int()
	return n
}

// Expose sets window.schedplayWorkers[name] to the worker (the tests'
// handle; the page never reads it).
func (w *Worker) Expose(name string) {
	if w == nil || w.closed {
		return
	}
	g := global()
	reg, err := g.Get("schedplayWorkers")
	if err != nil || reg.IsUndefined() {
		obj, err := g.Get("Object")
		if err != nil {
			return
		}
		if reg, err = obj.New(); err != nil {
			return
		}
		g.Set("schedplayWorkers", reg)
	}
	reg.Set(name, w.w)
}
