package main

// App: the playground's whole state and its actions. Components render it
// and call its methods from event handlers (which Vugu runs under the
// event-env lock); goroutines (the run loop) take the lock themselves.
//
// The scenario is the single source of truth: knobs and the workload table
// edit it through scenario.Set-like operations, the JSON editor replaces it
// after a successful Decode, and the share URL is its payload.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vugu/vugu"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// DefaultPreset is what a first visit shows running.
const DefaultPreset = "demo/periodic-vs-hog"

// App is the view model of the playground.
type App struct {
	env   vugu.EventEnv
	Embed bool

	Presets    []scenario.PresetInfo
	PresetName string
	Sc         *scenario.Scenario

	// JSON editor.
	JSONText string
	// jsonGen counts the page's own changes of JSONText (not the user's
	// typing): the editor's textarea gets the text when it changes
	// (editor.go fillEditor).
	jsonGen int
	JSONErr *scenario.Error
	Notice  string // last action's feedback ("Link copied", errors)
	// Warnings of the last rt-app import or export (rtapp.go).
	Warnings *Warnings

	// Trace mode (trace.go): an imported kernel trace instead of a run.
	Trace     *TraceState
	TraceErr  string
	prevTrace *TraceState // the trace shown while another one imports

	// Current run and the pinned A run (A/B).
	Run *view.Run
	A   *view.Run
	// The configurations they came from (provenance.go).
	origin, originA *runOrigin
	linkB           *scenario.Scenario // a link's B, run once its A has finished (abshare.go)
	staleMemo       staleMemo          // the out-of-date banners (provenance.go)
	Ctl             RunCtl             // where and whether runs go (runctl.go)

	// Probe is what the browser tests and budgets read back
	// (window.schedplay: probe.go, publish.go).
	Probe Probe

	exportID     int             // the latest trace export asked of the engine (export.go)
	exportKind   string          // the export in progress, "" if none
	exportSlot   int             // the pool slot whose worker runs it (poolrun.go)
	machine      *machineDrawing // layout of the chosen topology (machine.go)
	machineDrawn *machineDrawing // the layout whose nodes are in the page
	topoNames    []string        // the topology presets (machine.go)
	topoSumFor   string          // the topology topoSum describes
	topoSum      string
	derived      Derived // figures of the finished run, computed once
	utilFor      *view.Run
	utilPix      []byte
	utilH        int

	// Rows of the metrics tables shown beyond the first (metrics.go):
	// pages of more, or all; reset by each run.
	TaskRowsMore, CPURowsMore int
	TaskRowsAll, CPURowsAll   bool
	results                   resultsState // what the tables hold (results.go)
	compare                   compareState // what the A/B table holds (compare.go)
	replayRef                 *replayRef   // the trace a replay is compared with (fidelity.go)

	G   *GalleryState // the gallery and thread experiments (threadexp.go)
	SW  *SweepState   // the sweep panel (sweep.go)
	Gen *genState     // the generator forms (generator-form.go)
	CG  *cgState      // the cgroup tree (cgroup-tree.go)

	// The side panel's tab and its open sections (tabs.go).
	Tab  string
	open map[string]bool

	afterAsked bool // an afterFrame is requested
	renders    int  // changes for the browser to lay out so far: page renders (AfterRender) and results steps (afterFrame)
	resultsDue int  // steps of a new run's results left for afterFrame (results.go)

	ABS abSeedsState // the A/B table over N seeds per side (abseeds.go)

	Mem memState // the address bar, localStorage and the preset diff (remember.go)

	TL        *TimelineCtl
	ShareLink string
	Snippet   string
	shareGen  int // counts Share's links: fillShare sets the fields once per link
}

// NewApp loads the scenario from the URL fragment or the default preset.
func NewApp(env vugu.EventEnv, embed bool) *App {
	a := &App{env: env, Embed: embed, Presets: scenario.Presets()}
	a.TL = NewTimelineCtl(a)
	a.loadSweepParam(bridge.HashParam(bridge.Hash(), "sweep"))
	if p := bridge.HashParam(bridge.Hash(), "s"); p != "" {
		sc, err := scenario.DecodeURL("#s=" + p)
		if err != nil {
			a.Notice = "The link's scenario could not be opened: " + err.Error()
		} else {
			a.setScenario(sc, "")
			a.Mem.armed = true
			a.loadABParam(bridge.HashParam(bridge.Hash(), "ab")) // abshare.go
			return a
		}
	}
	sc, err := scenario.Preset(DefaultPreset)
	if err != nil {
		panic(fmt.Sprintf("default preset: %v", err))
	}
	// A first visit runs a shorter cut of the default so it is live at once.
	sc.Duration = sched.Second
	a.setScenario(sc, DefaultPreset)
	// Compared with the cut it opens as, so a first visit is not "modified".
	a.Mem.base, _ = scenario.Decode(sc.Encode()) // a copy: edits change a.Sc
	a.Mem.baseName = DefaultPreset
	if !embed {
		a.loadOffer()
	}
	return a
}

// Start runs the initial scenario and wires the timeline's listeners. It is
// called once the first render has mounted the page.
func (a *App) Start() {
	a.env.Lock()
	a.startEngine()
	a.StartRun()
	a.Mem.armed = true // from now on every applied change is remembered
	a.env.UnlockRender()
}

// AfterRender runs after each DOM update (the elements exist now); the
// drawing it calls for runs in the next animation frame (afterFrame), a
// browser task of its own: the canvases and the machine drawing are
// outside Vugu's tree, so the page render no longer clears them, and a
// render and a redraw of a million slices are two tasks, not one long one.
func (a *App) AfterRender() {
	a.TL.AfterRender()
	a.fillPresets()
	a.drawWarnings()
	a.fillResults(a.Probe.published) // the first render draws at once, below
	a.fillCompare()
	a.fillFidelity()
	a.fillEditor()
	a.fillShare()
	a.abAfterRender()
	a.linkABAfterRender()
	a.publishUnfinished()
	if !a.Probe.published {
		// The first render draws at once (its run has only started: the
		// canvases are empty and cheap to draw); the first animation frame
		// can come a second later on a busy machine.
		a.Probe.published = true
		a.drawAfterRender(nil)
		bridge.Publish("firstRenderMs", bridge.Now()) // performance.now(): since navigation start
		return
	}
	a.renders++
	if !a.afterAsked {
		a.afterAsked = true
		// Two frames on: the first one after a render lays out and paints
		// what the render changed (at the end of a 256-CPU run, the
		// results appearing: ~40 ms of style and layout), and the drawing
		// in the same frame made it one task of both.
		if bridge.RequestFrame(a.afterFirstFrame) != nil {
			a.afterAsked = false
			a.drawAfterRender(nil) // no animation frames (not in a browser)
		}
	}
}

// afterFirstFrame is the first animation frame after a render: the
// browser lays out the render's changes after it; the drawing waits for
// the next frame (afterFrame), told how many renders this frame lays out.
func (a *App) afterFirstFrame() {
	a.env.Lock()
	seen := a.renders
	a.env.UnlockOnly()
	bridge.RequestFrame(func() { a.afterFrame(seen) })
}

// afterFrame draws what the last page render changed (called from an
// animation frame): the timeline in this task, then the utilisation chart,
// then the machine drawing with the page state published for the tests,
// each in a task of its own (on a 256-CPU machine each is tens of
// milliseconds at the end of a run: the timeline's lanes, the chart's
// pixels, the heat map).
//
// A render that came after the first frame (the run's start, after an edit
// whose render asked for the frames) has its layout in this frame: the
// drawing waits for the next one, or it would be one task with that
// layout again (at 256 CPUs: every lane drawn, then 340 layout objects
// of the scenario text and the old results, 40-50 ms of CPU).
func (a *App) afterFrame(seen int) {
	a.env.Lock()
	if a.resultsDue > 0 {
		// A step of a new run's results (results.go), laid out in this
		// frame: the next step or the drawing waits for the next.
		a.fillResultsPart()
		a.renders++
	}
	if a.renders != seen {
		seen = a.renders
		a.env.UnlockOnly()
		bridge.RequestFrame(func() { a.afterFrame(seen) })
		return
	}
	a.afterAsked = false
	a.drawAfterRender(func() {
		a.env.UnlockOnly()
		bridge.Yield()
		a.env.Lock()
	})
	a.env.UnlockOnly()
}

// drawAfterRender redraws the timeline, the utilisation chart and the
// machine drawing, then publishes the page state (so a test that reads
// window.schedplay sees what is drawn). Each part is a span of its own
// (spans.go) when it is slow. between, if not nil, runs after the
// timeline and after the chart (afterFrame: a yield to the browser).
func (a *App) drawAfterRender(between func()) {
	for a.resultsDue > 0 {
		a.fillResultsPart() // no frames were asked for (not in a browser)
	}
	t, gc := a.Probe.spans.start()
	part := func(name string) {
		a.Probe.spans.end("after:"+name, t, gc)
		a.mark("after:" + name)
		t, gc = a.Probe.spans.start()
	}
	a.TL.DrawChanged()
	a.TL.showRunqueues() // a render may have replaced the list's elements
	part("timeline")
	if between != nil {
		between()
		t, gc = a.Probe.spans.start()
	}
	a.drawUtil()
	part("util")
	if between != nil {
		between()
		t, gc = a.Probe.spans.start()
	}
	a.drawMachine()
	part("machine")
	a.publish()
	part("publish")
}

// mark records a first-render load mark (main_wasm.go publishes them).
func (a *App) mark(name string) {
	if a.Probe.marks != nil {
		a.Probe.marks[name] = bridge.Now()
	}
}

func (a *App) setScenario(sc *scenario.Scenario, preset string) {
	a.Sc, a.PresetName = sc, preset
	a.setJSONText(prettyJSON(sc.Encode()))
	a.JSONErr = nil
	a.Warnings = nil
}

// SelectPreset loads a preset and runs it (the gallery opens each ready to run).
func (a *App) SelectPreset(name string) {
	sc, err := scenario.Preset(name)
	if err != nil {
		a.Notice = err.Error()
		return
	}
	a.setScenario(sc, name)
	a.Mem.baseName = "" // compared with the whole preset, not the first visit's cut
	a.StartRun()
}

// SetKey applies one scenario key (the knobs use the CLI's -set keys) and
// reruns.
func (a *App) SetKey(kv string) {
	if err := a.Sc.Set(kv); err != nil {
		a.Notice = err.Error()
		return
	}
	a.edited()
}

// ClearKey drops a key's value, back to its default (the profile's or
// the machine's): scenario.Scenario.Clear.
func (a *App) ClearKey(key string) {
	if err := a.Sc.Clear(key); err != nil {
		a.Notice = err.Error()
		return
	}
	a.edited()
}

// edited validates the scenario after an edit, refreshes the JSON and
// reruns if it is valid.
func (a *App) edited() {
	a.setJSONText(prettyJSON(a.Sc.Encode()))
	a.JSONErr = nil
	if err := a.Sc.Validate(); err != nil {
		a.JSONErr = asPathError(err)
		a.Notice = err.Error()
		return
	}
	a.Notice = ""
	a.StartRun()
}

// ApplyJSON decodes the editor's text (a scenario, or an rt-app file:
// rtapp.go); on success it replaces the scenario and reruns, on failure it
// shows the error at its path.
func (a *App) ApplyJSON(text string) {
	if text != a.JSONText { // not the editor's own text: show it there
		a.setJSONText(text)
	}
	if looksLikeRTApp([]byte(text)) {
		a.applyRTApp(text)
		return
	}
	t0, gc0 := a.Probe.spans.start()
	sc, err := scenario.Decode([]byte(text))
	if err != nil {
		a.JSONErr = asPathError(err)
		return
	}
	a.setScenario(sc, "")
	a.StartRun()                        // resets the span log
	a.Probe.spans.end("apply", t0, gc0) // decode, machine drawing, run start
}

func asPathError(err error) *scenario.Error {
	var pe *scenario.Error
	if errors.As(err, &pe) {
		return pe
	}
	return &scenario.Error{Msg: err.Error()}
}

// Share puts the scenario in the URL fragment and copies the link.
func (a *App) Share() {
	payload := scenario.EncodeURLPayload(a.Sc)
	sweep := a.SW.shareParam() // "&sweep=..." when the sweep panel is open (sweep.go)
	// With A pinned the link is A's scenario and B against it (abshare.go).
	linkPayload, ab := payload, ""
	if pa, p := a.abShare(a.Sc); p != "" {
		linkPayload, ab = pa, p
	}
	bridge.ReplaceHash("s=" + linkPayload + sweep + ab)
	a.ShareLink = bridge.ShareURL(bridge.PageURL(), linkPayload) + sweep + ab
	if err := bridge.CopyText(a.ShareLink); err != nil {
		a.Notice = "Copy the link below (clipboard unavailable)."
	} else {
		a.Notice = "Link copied."
	}
	a.Snippet = fmt.Sprintf(`<iframe src="%s" width="800" height="420" style="border:0" title="schedplay"></iframe>`,
		bridge.EmbedURL(bridge.PageURL(), payload))
	a.shareGen++
}

// fillShare puts the share link and the embed snippet in their fields
// after a render, outside Vugu: a link carries the whole scenario and can
// be longer than Vugu's 16 KiB render instruction (longtext.go).
func (a *App) fillShare() {
	for _, f := range [...]struct{ id, text string }{{"share-link", a.ShareLink}, {"embed-snippet", a.Snippet}} {
		if _, err := bridge.SetValueGen(f.id, a.shareGen, f.text); err != nil {
			a.Notice = "Share: " + err.Error()
		}
	}
}

// Export downloads one artefact of the current run.
func (a *App) Export(kind string) {
	r := a.Run
	switch kind {
	case "scenario":
		a.download("scenario.json", "application/json", a.Sc.Encode())
		return
	case "rtapp":
		a.exportRTApp()
		return
	}
	if r == nil || !r.Done() {
		a.Notice = "Run the scenario to the end first."
		return
	}
	var data []byte
	name, mime := "", "text/plain"
	switch kind {
	case "ftrace", "perfetto":
		if r.IsTrace() {
			a.Notice = traceExportErr.Error()
			return
		}
		a.startExport(kind) // the engine re-runs the scenario and sends the file (export.go)
		return
	case "metrics":
		data, name, mime = a.metricsExport(r), "metrics.json", "application/json"
	case "csv":
		data, name, mime = view.TasksCSV(r.Report()), "tasks.csv", "text/csv"
	case "csvprov":
		rec := a.runRecord()
		if rec == nil {
			a.Notice = "An opened trace has no configuration: its tasks.csv needs no sidecar."
			return
		}
		data, name, mime = tasksCSVSidecar(rec), TasksCSVProvenanceName, "application/json"
	}
	a.download(name, mime, data)
}

// PinA keeps the current run as configuration A for comparison.
func (a *App) PinA() {
	if a.Run != nil && a.Run.Done() {
		a.A, a.originA = a.Run, a.origin
	}
}

// UnpinA drops the A run.
func (a *App) UnpinA() { a.A, a.originA = nil, nil }

func (a *App) payload() string { return scenario.EncodeURLPayload(a.Sc) }

// prettyJSON indents the canonical encoding for the editor (key order kept).
func prettyJSON(b []byte) string {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return string(b)
	}
	return out.String()
}
