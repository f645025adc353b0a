//go:build js && wasm

package main

// The worker's garbage collector target. Under js/wasm Go's collector runs
// on the one thread the simulation runs on: its background marking waits
// for the worker to yield between chunks, and until then every pointer
// store goes through the write barrier and allocations assist the marking.
// A pool job of seed/cluster-hybrid allocates about 7 MB (its workload's
// tasks, the metrics' per-task records and samples) over a live heap of a
// few MB, so with GOGC=100 a cycle runs during most jobs. A higher target
// (gcPercent) makes the cycles rarer; the memory limit bounds the heap
// that buys (the pool replaces a worker whose memory passes
// wasm/pool.DefaultHeapLimit, 512 MB, when it is idle): as the heap nears
// gcMemoryLimit the collector runs as often as it must to stay under it.
// A run whose live heap alone is near the limit collects more often than
// GOGC=100 would, which is the bound doing its work. Collection never
// changes a result (docs/engine.md "Speed under WASM").

import "runtime/debug"

const (
	gcPercent     = 400
	gcMemoryLimit = 384 << 20
)

// setGC sets the worker's collector target (the page's own program is
// left at Go's default).
func setGC() {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(gcMemoryLimit)
}
