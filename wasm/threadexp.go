package main

// Thread experiments on the page: the state and actions behind the
// gallery (gallery.go) and the thread panel (thread-panel.go).
//
//   - StartThread runs the current scenario's experiment block (the
//     mailing-list thread a seed/ preset reproduces) as `schedplay compare
//     -preset NAME` does, in the simulation worker ("thread" message,
//     wasm/worker/thread.go), or without a worker on a goroutine of the
//     page in chunks of threadChunkMs. Progress (runs done, fraction,
//     estimated time left) is written straight into the DOM; Vugu renders
//     only when the experiment starts and ends, so the main thread never
//     runs a long task for it.
//   - StartAB runs one configuration of the block as A and another as B
//     (on the chosen variant) through the normal single-run A/B view: run
//     A, pin it when it finishes (abAfterRender), run B.

import (
	"encoding/json"
	"fmt"
	"time"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

const threadChunkMs = 20 // page fallback: wall time of one chunk

// GalleryState is the gallery and thread-experiment part of the App.
type GalleryState struct {
	Open  bool
	cards []Card // built once (gallery.go)

	// The thread experiment (one at a time).
	Name     string // the scenario it runs or ran
	Runs     int    // runs per cell asked for (0: the block's)
	ID       int    // run id shared with App.gen
	Running  bool
	local    bool // running on the page (no worker)
	Fraction float64
	Finished int
	Total    int
	Info     string // configuration and seed in progress
	start    float64
	Ms       float64 // wall time of the last finished experiment
	Report   *view.ThreadReport
	Err      string
	maxMsgMs float64 // longest handling of one worker message (main thread)
	renders  int     // page renders so far (the tests count those during an experiment)

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

// threadActive reports whether an experiment is running. It shares the
// run id sequence (App.gen) with runs and trace imports: a run or an
// import started since supersedes it (the worker has moved on), as does
// the loss of the worker.
func (a *App) threadActive() bool {
	g := a.gal()
	return g.Running && g.ID == a.gen && (g.local || a.link != nil)
}

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
	if a.Running {
		a.CancelRun()
		a.Notice = ""
	}
	a.gen++
	g.ID, g.Name, g.Running, g.local = a.gen, scName(sc), true, a.link == nil
	g.Fraction, g.Finished, g.Total, g.Info, g.Report, g.Err = 0, 0, total, "", nil, ""
	g.start, g.maxMsgMs = bridge.Now(), 0
	if a.link == nil {
		go a.threadLocal(sc, runs, g.ID)
		return
	}
	if err := a.link.w.Post(map[string]any{"type": "thread", "id": g.ID, "scenario": string(sc.Encode()), "runs": g.Runs}); err != nil {
		g.Running, g.Err = false, err.Error()
	}
}

// CancelThread stops the experiment; nothing of it is shown.
func (a *App) CancelThread() {
	g := a.gal()
	if !a.threadActive() {
		return
	}
	if a.link != nil && !g.local {
		a.link.w.Post(map[string]any{"type": "cancel", "id": g.ID})
	}
	g.Running = false
	a.Notice = "Thread experiment cancelled."
}

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

// handleThread applies a worker message of a thread experiment and
// reports whether the page needs a re-render (it ended).
func (a *App) handleThread(m bridge.WorkerMsg) bool {
	g := a.gal()
	if m.ID != g.ID || !a.threadActive() {
		return false // cancelled or superseded
	}
	t0 := bridge.Now()
	defer func() { g.maxMsgMs = max(g.maxMsgMs, bridge.Now()-t0) }()
	switch m.Type {
	case "threadprogress":
		g.Fraction, g.Finished, g.Total, g.Info = m.Now, int(m.Events), m.CPUs, m.Info
		a.threadProgressDOM()
		return false
	case "threaddone":
		var rep *view.ThreadReport
		err := m.Error
		if err == "" {
			rep = &view.ThreadReport{}
			if jerr := json.Unmarshal([]byte(m.Report), rep); jerr != nil {
				rep, err = nil, "worker report: "+jerr.Error()
			}
		}
		a.threadFinished(rep, err)
		return true
	}
	return false
}

func (a *App) threadFinished(rep *view.ThreadReport, err string) {
	g := a.gal()
	g.Running, g.Report, g.Err = false, rep, err
	g.Fraction, g.Finished = 1, g.Total
	g.Ms = bridge.Now() - g.start
}

// threadLocal runs the experiment on the page in chunks (no worker).
func (a *App) threadLocal(sc *scenario.Scenario, runs, id int) {
	dt := sched.Millisecond
	a.env.Lock()
	tr, err := view.NewThreadRun(sc, runs)
	if err != nil {
		if g := a.gal(); g.ID == id && a.threadActive() {
			a.threadFinished(nil, err.Error())
		}
		a.env.UnlockRender()
		return
	}
	a.env.UnlockOnly()
	for {
		a.env.Lock()
		g := a.gal()
		if !a.threadActive() || g.ID != id {
			a.env.UnlockOnly()
			return
		}
		t0 := bridge.Now()
		slices := 0
		done, err := tr.Advance(dt, func() bool { slices++; return bridge.Now()-t0 > threadChunkMs })
		if slices > 0 {
			dt = adaptSlice(dt, (bridge.Now()-t0)/float64(slices))
		}
		g.Fraction, g.Finished, g.Info = tr.Fraction(), tr.Finished(), tr.Current()
		if err != nil || done {
			var rep *view.ThreadReport
			msg := ""
			if err == nil {
				res, rerr := tr.Result()
				if rerr != nil {
					msg = rerr.Error()
				} else {
					rep = view.NewThreadReport(res)
				}
			} else {
				msg = err.Error()
			}
			a.threadFinished(rep, msg)
			a.env.UnlockRender()
			return
		}
		a.threadProgressDOM()
		a.env.UnlockOnly()
		time.Sleep(time.Millisecond) // yield to the browser
	}
}

// adaptSlice keeps one slice of simulated time near a tenth of a chunk.
func adaptSlice(dt sched.Time, sliceMs float64) sched.Time {
	switch {
	case sliceMs > threadChunkMs/5:
		dt /= 2
	case sliceMs < threadChunkMs/50:
		dt *= 2
	}
	return min(200*sched.Millisecond, max(10*sched.Microsecond, dt))
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
	if !a.threadActive() {
		if g.Report != nil && g.Ms > 0 {
			return fmt.Sprintf("%d runs in %.1f s", g.Total, g.Ms/1000)
		}
		return ""
	}
	s := fmt.Sprintf("%d / %d runs", g.Finished, g.Total)
	if g.Info != "" && g.Finished < g.Total {
		s += " · running " + g.Info
	}
	el := (bridge.Now() - g.start) / 1000
	if g.Fraction > 0.02 && el > 0.5 {
		s += fmt.Sprintf(" · about %s left", fmtSeconds(el*(1-g.Fraction)/g.Fraction))
	}
	return s
}

func fmtSeconds(s float64) string {
	if s < 90 {
		return fmt.Sprintf("%.0f s", max(1, s))
	}
	return fmt.Sprintf("%.0f min", s/60)
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
	a.A = nil
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
	g.renders++
	if g.abStage != 1 || a.Running {
		return
	}
	g.abStage = 0
	if a.Run == nil || !a.Run.Done() || a.RunErr != "" {
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

// publishThread exposes the experiment to the browser tests.
func (a *App) publishThread() {
	g := a.gal()
	st := map[string]any{"running": a.threadActive(), "fraction": g.Fraction, "finished": g.Finished, "total": g.Total,
		"error": g.Err, "name": g.Name, "gallery": g.Open, "maxMsgMs": g.maxMsgMs,
		"renders": g.renders}
	if g.Report != nil {
		st["passed"] = g.Report.Passed
		st["fails"] = g.Report.FailCount()
	}
	bridge.Publish("thread", st)
}
