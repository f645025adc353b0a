// Package browsertest drives the built playground (dist/) in Debian's
// Chromium with chromedp, and in Debian's firefox-esr over WebDriver BiDi
// (firefox_test.go, with the small client in bidi_test.go): page state is
// read back from window.schedplay (published by wasm/bridge), not inferred
// from the absence of errors, and every test fails on any console error or
// uncaught exception.
//
// The tests carry the build tag `browser` so that `go test ./...` stays
// browser-free; `make test-browser` runs them after `make site`. Without a
// chromium (firefox) binary the Chromium (Firefox) tests skip with a
// message, unless CI is set, where that is a failure. `make bench-browser`
// runs the budget measurements (TestBudgets, TestFirefoxBudgets; the table
// goes to docs/budgets.md, the history is docs/playground-perf.md) and
// writes the screenshots of docs/screenshots/.
//
// # What the tests check
//
// Tests of the playground: `wasm/view` (timeline model, level-of-detail
// raster, chunking equivalence, histograms) on the host and under Node;
// `wasm/bridge` under Node against fake browser objects; browser tests in
// `scripts/browsertest` (chromedp v0.23.1, Debian's Chromium, fresh
// profile): first visit runs; a preset draws slices on exactly the CPUs it
// uses (read back from `window.schedplay`); a feature toggle changes the
// metrics; the share URL restores the same run in a fresh tab; the embed
// page runs inside an iframe of another local page; a broken scenario shows
// its path; a pasted rt-app file (thread S5, docs/VALIDATION.md) runs with
// rt-app's thread names and its warnings, and exports back; a real 6.18
// trace opened through the file input draws CPU 1 and lists both loops, and
// a broken one names its line; a long run executes in the worker while a
// Long Tasks observer and a page timer watch the main thread; the gallery
// lists the seed presets first, opens `seed/sched-idle-wakeup`, runs its
// experiment with 1 run per cell and finds the table with both
// configurations and the thread's numbers with pass/FAIL; the A/B toggles
// run B and A into the A/B view; hostile names in a pasted experiment block
// stay text; an experiment with a 144-CPU variant shows time left, cancels,
// and progresses without page renders; a 2x2 sweep (hackbench groups x HZ, 2
// seeds) gives the table and CSV that the real CLI prints for the page's own
// share link, a line per HZ value, the CSV download, a bad value at its
// field, and the form back from the link in a fresh tab; a hackbench
// generator added through the form previews its expansion, changes it with a
// parameter, keeps the short form in the JSON, shows an out-of-range value
// at its field without applying it and is removed; a cpu.max scenario
// (cgroup/throttled-within-quota with a 5 ms quota) shows the per-cgroup
// table with the digits the CLI prints for it, the throttled band on a lane
// and a tooltip there naming the group; the cgroup tree adds and nests
// groups, shows a bad weight and a hostile name at the row without applying
// them, writes weight, quota, burst, idle and cpuset, puts a task group and
// a generator in groups, renames a group with its children and tasks,
// refuses to remove a busy one, and its share link restores the tree in a
// fresh tab (cgroup_test.go); an edit survives a reload through the address
// bar, a page opened without a fragment offers the stored scenario and
// restores it when accepted, an edited preset says "(modified)" and lists
// and undoes the key, a corrupt stored entry is ignored with a message,
// a hostile stored name stays text in the offer (remember_test.go); HZ
// 250 -> 1000 on seed/sched-idle-wakeup then the thread's experiment gives
// a header "(modified)", a metrics and a thread regenerate command with
// `-set kernel.hz=1000` whose run by the real CLI prints the page's
// Markdown, the one-tick tolerance as n/a, and an out-of-date banner after
// HZ 300; Pin as A, a feature on, Share, the link in a fresh tab: the A/B
// view with "B: features.X=on", and its table over 3 seeds per side equal
// to the printed `schedplay compare` command's rows; seed/nohz-pipe's
// normalised completion is a ratio (no ms in its plot) and its sys_share
// above 100 % is explained with the definition as title; the rt-app
// import warning names the Machine select, not -topology, and goes when
// the machine changes; a sweep's regenerate command (the CLI on its own
// link) prints the page's table and the sweep goes out of date after a
// knob; a hostile scenario name in the provenance lines and
// a hostile key in a link's `ab` stay text (provenance_test.go); any
// console error fails the test. Zoomed
// out, seed/newidle-rt-latency's 144-CPU lanes are drawn in several task
// group colours with almost no white (wakeup ticks), ordered by LLC, and
// collapsing LLC 1 replaces its 36 lanes by one drawn summary lane; its
// Workload table shows the hackbench and kbuild families as one row each,
// opens a family on a click and scrolls within its 340 px box
// (bigmach_test.go). The
// worker pool (pool_test.go): a thread experiment's table and Markdown are
// the real CLI's at pool sizes 1 and 2 and a sweep's CSV at 2, a cancel
// frees every worker for the next batch, a worker whose Go program panics
// with a job in flight and one terminated behind the page's back
// (`window.schedplayWorkers`) are reported and their jobs retried with the
// CLI's result, the panel says the runs and about how long before a batch
// starts and shows no figure of another preset, and the runs fields show
// their largest value whole; any console error fails the test. The
// timeline drawn in steps (mainthread_test.go): a finished 144-CPU run's
// canvas, drawn over several tasks, is the bytes view.RasterPalette draws
// in one call for the same run run natively, but for the grid lines
// (TestSteppedDrawingIsOneDrawing).
//
// Exports and the editor (export_prov_test.go, editor_test.go): from a
// preset with HZ changed, the metrics download, the ftrace export and the
// sweep CSV's provenance sidecar name kernel.hz=1000 and carry the object
// the real CLI writes for the command they print (but for the build); the
// thread Markdown comparisons leave out its build line (each binary names
// its own). The JSON tab applies the largest preset's JSON (past Vugu's
// 16 KiB render instruction), shows it again after a tab switch, and
// refuses a paste over scenario.MaxInput with the decoder's message while
// the page goes on. The tasks.csv sidecar carries metrics.json's object.
// Long strings (longnames_test.go): a link whose scenario name or task
// name is 40 KB gets the decoder's bounded message; 40 KB thread text,
// explanation, notes and description show bounded with an ellipsis and
// more in the title, break no character, and share a link longer than
// Vugu's 16 KiB buffer; each time the page then reruns an edit.
//
// Firefox (`TestFirefox`, Debian's firefox-esr, headless, fresh profile) is
// driven over WebDriver BiDi, which Firefox serves itself
// (`--remote-debugging-port`; no geckodriver): a small BiDi client in
// `scripts/browsertest/bidi_test.go` over gobwas/ws. Against the same local
// server and the same `window.schedplay` probes: the first visit runs the
// default scenario in the Web Worker (`engine == "worker"`) with slices on
// its CPU, and the canvas's own pixels (`getImageData`, per lane, with the
// geometry the page publishes as `window.schedplay.lanes`) agree with the
// columns the page says it drew; with real (trusted) input, the mouse wheel
// and the `+`/`0` keys zoom the timeline, the pointer shows a slice's
// tooltip, a click sets the cursor and its runqueue panel, and a drag pans;
// the rt-app export downloads a file with the page's bytes; a preset opened
// from the gallery draws slices on exactly CPU 2 of 8; a feature toggle
// changes the run and its share URL restores it in a fresh tab; the embed
// page runs in another page's iframe. Console errors, uncaught exceptions
// (page and worker), unhandled rejections, HTTP errors and failed downloads
// fail it; a first subtest proves the capture sees each of those. Run it
// alone after `make site` (~30-40 s, most of it Firefox's start-up):
//
//	go test -tags browser -run TestFirefox ./scripts/browsertest/ -dist $PWD/dist
//
// Without Web Workers (`window.Worker` removed, noworker_test.go) the page
// runs worker.wasm on its own thread (`engine == "main"`): a preset gives
// the worker's task list and slices on its CPU, its chunks measured
// (`maxChunkMs`, under the 100 ms main-thread budget), and a real trace opens; a
// page with workers never loads pageworker.js. The first load's brotli
// size is under its 3 MB budget (TestFirstLoadBudget, firstload_test.go).
//
// # Measurements (not part of make test)
//
// TestBudgetsThreads (budgets_pool_test.go) times each seed preset's
// thread table on 1 and 2 pool workers beside the single-core CLI (every
// seed preset, seed/cluster-hybrid's 900 runs included: most of `make
// bench-browser`'s time; -thread-presets picks some), with the pool's
// accounting of where the time went (wasm/pool/stats.go), and a 144-CPU
// preset's first drawn timeline.
// TestBudgetsMainThread (mainthread_test.go) fails if, during and after
// the million-slice smp-8 run and seed/newidle-rt-latency (144 CPUs), a
// main-thread task takes more than the 100 ms budget of CPU (Chrome
// trace) or a step of the timeline's drawing more than 1.5x its work
// budget, and logs where the time from opening that preset (from the list
// and as a fresh load) to its first drawn timeline goes.
// TestBudgets, TestBudgetsRows, TestBudgetsLongTaskProfile and
// TestBudgetsFirstRenderProfile (budgets_test.go) measure the first render,
// the longest main-thread task of a long and of a 256-CPU run, the redraw
// and the in-browser speed; TestFirefoxBudgets the Firefox table;
// TestLongTaskTrace (trace_test.go, traceanalysis_test.go) and
// TestLongTaskPhases (phases_test.go) attribute the long tasks from Chrome
// performance traces; TestScreenshots writes docs/screenshots/.
package browsertest
