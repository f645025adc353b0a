package main

// Thread experiments on the page: the state and actions behind the
// gallery (gallery.go) and the thread panel (thread-panel.go).
//
//   - StartThread runs the current scenario's experiment block (the
//     mailing-list thread a seed/ preset reproduces) as `schedplay compare
//     -preset NAME` does, as a batch (batch.go): a protocol.Thread request
//     the engine runs (wasm/runner/thread.go).
//   - StartAB runs one configuration of the block as A and another as B
//     (on the chosen variant) through the normal single-run A/B view: run
//     A, pin it when it finishes (abAfterRender), run B.

import (
	"fmt"
	"strings"

	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
	"schedplay/wasm/report"
)

// GalleryState is the gallery and thread-experiment part of the App.
type GalleryState struct {
	Open  bool
	cards []Card // built once (gallery.go)

	// The thread experiment (one at a time).
	batch
	Name   string // the scenario it runs or ran
	Runs   int    // runs per cell asked for (0: the block's)
	Report *report.ThreadReport
	ranEnc string // the scenario the report was computed for (its encoding)

	// A/B toggles: which configurations are A and B, on which variant.
	Variant, CfgA, CfgB int
	abStage             int                // 1: A is running, B follows
	abBase              *scenario.Scenario // the scenario before A/B overrides
	abB                 string             // B's encoding: the scenario is still the A/B one
}

// gal returns the gallery state, creating it on first use.
func (a *App) gal() *GalleryState {
	if a.G == nil {
		a.G = &GalleryState{CfgB: 1}
	}
	return a.G
}

// threadActive reports whether an experiment is running (batch.go).
func (a *App) threadActive() bool { return a.active(&a.gal().batch) }

// threadBase is the scenario an experiment or A/B starts from: the
// current one, or the one before the A/B overrides if it is unchanged.
func (a *App) threadBase() (*scenario.Scenario, error) {
	g := a.gal()
	enc := a.Sc.Encode()
	if g.abBase != nil && string(enc) == g.abB {
		enc = g.abBase.Encode()
	}
	return scenario.Decode(enc) // a private copy
}

// StartThread runs the current scenario's experiment block.
func (a *App) StartThread() {
	g := a.gal()
	if a.Sc.Experiment == nil {
		g.Err = "this scenario has no experiment block"
		return
	}
	sc, err := a.threadBase()
	if err != nil {
		g.Err = err.Error()
		return
	}
	// The worker plans the runs (a machine and task set built per job);
	// the page only counts them.
	runs := g.Runs
	if runs == 0 {
		runs = sc.Experiment.EffectiveRuns()
	}
	total := len(sc.Experiment.VariantList()) * len(sc.Experiment.Configs) * runs
	g.Name, g.Report, a.Probe.threadMaxMsgMs = scName(sc), nil, 0
	enc := string(sc.Encode())
	g.ranEnc = enc
	spec := protocol.BatchSpec{Kind: protocol.KindThread, Scenario: enc, Runs: g.Runs}
	a.beginBatch(&g.batch, total, spec, sc, func(id int) protocol.Message {
		return protocol.Thread{ID: id, Scenario: enc, Runs: g.Runs}
	})
}

// CancelThread stops the experiment; nothing of it is shown.
func (a *App) CancelThread() { a.cancelBatch(&a.gal().batch, "Thread experiment cancelled.") }

// SetThreadRuns sets the runs per cell (0 or empty: the block's).
func (a *App) SetThreadRuns(s string) {
	var n int
	if s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil || n < 0 || n > scenario.MaxExpRuns {
			a.gal().Err = fmt.Sprintf("runs %q: want 1..%d", s, scenario.MaxExpRuns)
			return
		}
	}
	a.gal().Runs, a.gal().Err = n, ""
}

// handleThread applies an engine message of a thread experiment and
// reports whether the page needs a re-render (it ended).
func (a *App) handleThread(m protocol.Message) bool {
	if render, ok := a.handleABSeeds(m); ok {
		return render
	}
	g := a.gal()
	t0 := bridge.Now()
	defer func() { a.Probe.threadMaxMsgMs = max(a.Probe.threadMaxMsgMs, bridge.Now()-t0) }()
	switch m := m.(type) {
	case protocol.ThreadProgress:
		a.batchProgress(&g.batch, m.ID, m.Progress, a.threadProgressDOM)
	case protocol.ThreadDone:
		return batchDone(a, &g.batch, m.ID, m.Report, m.Error, a.threadFinished)
	}
	return false
}

func (a *App) threadFinished(rep *report.ThreadReport, err string) {
	g := a.gal()
	g.finish(err)
	g.Report = rep
	// The worker does not know the presets: the provenance is added here
	// (report.Rebuild evaluates the per-run values again with it).
	if sc, derr := scenario.Decode([]byte(g.ranEnc)); rep != nil && derr == nil && sc.Experiment != nil {
		if rb, rerr := report.Rebuild(rep, sc.Experiment, scenario.ProvenanceOf(sc), scenario.BuildVersion()); rerr == nil {
			g.Report = rb
		} else {
			g.Err = "the report's provenance: " + rerr.Error()
		}
	}
}

// threadProgressDOM updates the progress bar and text in place.
func (a *App) threadProgressDOM() {
	bridge.SetStyle("thread-progress-bar", "width", fmt.Sprintf("%.1f%%", 100*a.gal().Fraction))
	bridge.SetText("thread-progress-text", a.threadProgressText())
	a.publishThread()
}

// threadProgressText: runs done, the one in progress, time left.
func (a *App) threadProgressText() string {
	g := a.gal()
	return a.progressText(&g.batch, g.Report != nil && g.Name == scName(a.Sc))
}

// threadEstimate is what the experiment will cost, before it starts.
func (a *App) threadEstimate() string {
	g := a.gal()
	if a.threadActive() || a.Sc.Experiment == nil {
		return ""
	}
	enc := a.Sc.Encode() // threadBase's scenario, without its decode on every render
	if g.abBase != nil && string(enc) == g.abB {
		enc = g.abBase.Encode()
	}
	o, err := a.outline(nil, protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(enc), Runs: g.Runs})
	if err != nil {
		return ""
	}
	return a.estimateText(o)
}

// StartAB runs configuration CfgA of the chosen variant as A, then CfgB as
// B, in the normal A/B view.
func (a *App) StartAB() {
	g := a.gal()
	e := a.Sc.Experiment
	if e == nil {
		return
	}
	base, err := a.threadBase()
	if err != nil {
		a.Notice = err.Error()
		return
	}
	scA, err := abScenario(base, g.Variant, g.CfgA)
	if err != nil {
		a.Notice = err.Error()
		return
	}
	g.abBase, g.abStage = base, 1
	a.A, a.originA = nil, nil
	a.setScenario(scA, a.PresetName)
	g.abB = ""
	a.StartRun()
}

// abScenario is base with a variant's and a configuration's overrides.
func abScenario(base *scenario.Scenario, variant, cfg int) (*scenario.Scenario, error) {
	e := base.Experiment
	vl := e.VariantList()
	if variant < 0 || variant >= len(vl) || cfg < 0 || cfg >= len(e.Configs) {
		return nil, fmt.Errorf("no configuration %d of variant %d", cfg, variant)
	}
	sc, err := scenario.Decode(base.Encode())
	if err != nil {
		return nil, err
	}
	for _, kv := range append(append([]string{}, vl[variant].Set...), e.Configs[cfg].Set...) {
		if err := sc.Set(kv); err != nil {
			return nil, fmt.Errorf("%s: %v", kv, err)
		}
	}
	return sc, nil
}

// abAfterRender pins A when its run has finished and starts B (called
// after every render, with the read lock held).
func (a *App) abAfterRender() {
	g := a.gal()
	a.Probe.threadRenders++
	if g.abStage != 1 || a.Ctl.Running {
		return
	}
	g.abStage = 0
	if a.Run == nil || !a.Run.Done() || a.Ctl.Err != "" {
		return // A failed or was cancelled: no B
	}
	go func() {
		a.env.Lock()
		defer a.env.UnlockRender()
		scB, err := abScenario(g.abBase, g.Variant, g.CfgB)
		if err != nil {
			a.Notice = err.Error()
			return
		}
		a.PinA()
		a.setScenario(scB, a.PresetName)
		g.abB = string(scB.Encode())
		a.StartRun()
	}()
}

// threadStale says how the scenario changed since the report was computed
// ("" when the report is current): the keys that differ from the
// scenario it ran.
func (a *App) threadStale() string {
	g := a.gal()
	if g.Report == nil {
		return ""
	}
	return a.staleMemo.get("thread", a.JSONText, g.Report, a.threadStaleNow)
}

func (a *App) threadStaleNow() string {
	g := a.gal()
	cur, err := a.threadBase()
	if err != nil || string(cur.Encode()) == g.ranEnc {
		return ""
	}
	ran, err := scenario.Decode([]byte(g.ranEnc))
	if err != nil {
		return "the scenario changed"
	}
	return changeText(scenario.Compare(ran, cur))
}

// changeText names what a provenance changes: "kernel.hz=1000, ...".
func changeText(p scenario.Provenance) string {
	var parts []string
	for _, d := range p.Diff {
		v := d.Value
		if v == "" {
			v = "default"
		}
		parts = append(parts, d.Key+"="+v)
	}
	if p.Other {
		parts = append(parts, "fields no key names")
	}
	if len(parts) == 0 {
		return "the experiment block"
	}
	return strings.Join(parts, ", ")
}

// publishThread exposes the experiment to the browser tests.
func (a *App) publishThread() {
	g := a.gal()
	st := map[string]any{"running": a.threadActive(), "fraction": g.Fraction, "finished": g.Finished, "total": g.Total,
		"error": g.Err, "name": g.Name, "gallery": g.Open, "maxMsgMs": a.Probe.threadMaxMsgMs,
		"renders": a.Probe.threadRenders, "id": g.ID}
	if g.Report != nil {
		st["passed"] = g.Report.Passed
		st["fails"] = g.Report.FailCount()
		st["stale"] = a.threadStale() != ""
	}
	bridge.Publish("thread", st)
}
