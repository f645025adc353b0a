package main

// Host elements: the parts of the page the bridge fills (canvases, the
// runqueue and warning lists, the metrics tables and histogram) sit in
// elements of the templates that Vugu must leave alone. Each is bound
// with a dynamic id, `:id='idTLHost'`, never a static `id="tl-host"`:
//
// vugugen compacts a static element (no vg- or : attributes) into an
// innerHTML of its children, "" for an empty one, and the DOM renderer
// sets that innerHTML on every page render: a static host would be
// emptied by each render, its canvases re-created and fully redrawn after
// every click, tab switch and run start (docs/playground-perf.md, "Hosts
// that stay"). A host with a dynamic attribute and no children is synced
// by its attributes only; its children stay.
//
// TestRenderKeepsHosts (scripts/browsertest/render_test.go) checks that
// the elements in these hosts survive a page render.

const (
	idTLHost      = "tl-host"      // the timeline's canvas and spacer (timeline.go)
	idTLAHost     = "tl-a-host"    // the pinned run's timeline
	idRQTitle     = "rq-title"     // the runqueues at the cursor (runqueues.go)
	idRQList      = "rq-list"      //
	idWarningList = "warning-list" // the rt-app warnings (rtapp.go)
	idUtilHost    = "util-host"    // the utilisation chart (util.go)
	idTaskHost    = "task-host"    // the per-task table (results.go)
	idCPUHost     = "cpu-host"     // the per-CPU table
	idCgroupHost  = "cgroup-host"  // the per-cgroup table (cgroups when the scenario has them)
	idHist        = "hist"         // the latency histogram's <svg>
	idCompareHost = "compare-host" // the A/B table (compare.go)
	idPreset      = "preset"       // the header's preset <select>: its options (presetlist.go)
)
