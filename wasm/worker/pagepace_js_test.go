//go:build js && wasm

package main

// On the page's thread (site/pageworker.js's schedplayWorkerScope, pace
// "page") the worker paces its chunks for the page (runner.PagePace) and
// says in each batch how long its chunk took, which the page publishes as
// window.schedplay.maxChunkMs.

import (
	"slices"
	"syscall/js"
	"testing"

	"schedplay/wasm/runner"
)

func TestPagePaceChunks(t *testing.T) {
	var chunks []float64
	done := make(chan struct{}, 1)
	post := js.FuncOf(func(_ js.Value, args []js.Value) any {
		switch m := args[0]; m.Get("type").String() {
		case "batch":
			chunks = append(chunks, m.Get("chunkms").Float())
		case "done":
			done <- struct{}{}
		}
		return nil
	})
	defer post.Release()
	scope := object(map[string]any{"pace": "page", "postMessage": post})
	js.Global().Set("schedplayWorkerScope", scope)
	defer js.Global().Delete("schedplayWorkerScope")

	w := newWorker()
	w.handle(object(map[string]any{"type": "run", "id": 1, "scenario": string(scenarioJSON("400ms"))}))
	<-done
	if len(chunks) < 3 {
		t.Fatalf("%d batches, want a run long enough for several chunks", len(chunks))
	}
	budget := runner.PagePace().ChunkMs
	full := slices.Clone(chunks[:len(chunks)-1]) // the last chunk ends with the run
	slices.Sort(full)
	if med := full[len(full)/2]; med <= 0 || med > 1.5*budget {
		t.Errorf("median chunk %.1f ms on the page's thread, want within 1.5x the page pace's %.0f ms (chunks %v)", med, budget, chunks)
	}
	// The page's main-thread budget for its longest task (docs/budgets.md).
	if longest := slices.Max(chunks); longest >= 100 {
		t.Errorf("longest chunk %.1f ms on the page's thread, over the 100 ms main-thread budget", longest)
	}
}
