package main

// Probe: what the page measures of itself for the browser tests and
// budgets (window.schedplay, published by publish.go): slow spans, load
// marks, render and rebuild counters, the longest chunk, ingestion and
// render of the current run, and what was last published (so large
// values are sent only when they change).

import (
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// Probe holds the published measurements of the App.
type Probe struct {
	poolNotes     []string       // the worker pool's failure reports (poolrun.go)
	poolMsgs      int            // pool workers' messages handled in the batch in progress or last (runloop.go)
	poolMsgMs     float64        // the page's time handling them (the pump's, between bridge.Now marks)
	poolJobs      []int          // the pool's slots' jobs as last published (poolrun.go)
	poolSpoke     []bool         // and whether their workers had answered
	published     bool           // first page state published (first-render budget)
	marks         map[string]any // first-render load marks (main_wasm.go), nil after it
	spans         spanLog        // slow main-thread work of the current run (spans.go)
	maxChunkMs    float64        // longest simulation chunk of the current run (page fallback)
	maxRenderMs   float64        // longest DOM render of the current run
	maxIngestMs   float64        // longest batch ingestion of the current run
	machBuilds    int            // times the machine drawing's nodes were built
	machSends     int            // heat-map updates sent to the page
	memFor        *view.Run      // the run whose memory statistics were published
	tasksFor      *view.Run      // the run whose task table was published
	publishedJSON string         // JSONText as last published

	// runMarks: when the current run started (the click's task), was
	// posted to the engine, had its first batch folded and its timeline
	// first drawn with slices (performance.now(), 0: not yet), the phases
	// of opening a preset to its first drawn timeline (docs/budgets.md).
	runMarks [4]float64

	threadMaxMsgMs float64 // longest handling of one experiment message (main thread)
	threadRenders  int     // page renders so far (the tests count those during an experiment)
}

// resetRun clears the per-run maxima (a run or an import starts).
func (p *Probe) resetRun() {
	p.maxChunkMs, p.maxRenderMs, p.maxIngestMs = 0, 0, 0
	p.runMarks = [4]float64{}
}

// markRun records run mark k (runMarks) the first time it is reached.
func (p *Probe) markRun(k int) {
	if p.runMarks[k] == 0 {
		p.runMarks[k] = bridge.Now()
	}
}
