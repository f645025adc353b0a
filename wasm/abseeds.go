package main

// A/B over N seeds per side: the pinned A and the current B run as
// `schedplay compare -b 'KEYS'` runs them, N seeds each, with the
// CLI's AMean, run-to-run deviation, change and verdict columns.
//
// The worker's thread runner does the runs: A's scenario goes with an
// experiment block of two configurations, A (nothing set) and B (the keys
// that turn A into B, scenario.ShareAB), so the plan is the CLI's
// (experiment.Plan, seeds A.seed.., configuration-major). The block asks
// for every metric the CLI's default set could hold
// (experiment.DefaultCandidates); the page then picks the set from the
// per-run values that come back (experiment.Defaults over both sides, as
// SelectMetrics does) and builds the rows with experiment.Compare, the
// CLI's own computation. docs/playground.md "A/B".

import (
	"fmt"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
	"schedplay/wasm/report"
)

// abDefaultRuns is the seeds per side the field starts with (the CLI's
// -runs default).
const abDefaultRuns = 5

// ABRow is one row of the N-seed A/B table, as `schedplay compare` prints it.
type ABRow struct {
	Metric, Unit, Better, Help        string
	A, DevA, B, DevB, Change, Verdict string
}

// abSeedsState is the N-seed A/B table and the batch behind it.
type abSeedsState struct {
	batch
	Runs       int // seeds per side asked for (0: abDefaultRuns)
	Rows       []ABRow
	Seeds      string // "seeds 1..5"
	N          int    // runs per side of the table
	Cmd        string // the CLI command that prints the same table
	forA, forB string // encodings of the scenarios it was computed for
	groups     []string
	ncpu       int
}

func (s *abSeedsState) runs() int {
	if s.Runs > 0 {
		return s.Runs
	}
	return abDefaultRuns
}

// ABRunsValue is the field's text.
func (a *App) ABRunsValue() string { return fmt.Sprint(a.ABS.runs()) }

// SetABRuns sets the seeds per side.
func (a *App) SetABRuns(s string) {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil || n < 1 || n > scenario.MaxExpRuns {
		a.ABS.Err = fmt.Sprintf("seeds per side %q: want 1..%d", s, scenario.MaxExpRuns)
		return
	}
	a.ABS.Runs, a.ABS.Err = n, ""
}

// ABSeedsActive reports whether the N-seed runs are in progress.
func (a *App) ABSeedsActive() bool { return a.active(&a.ABS.batch) }

// StartABSeeds runs A and B over N seeds each.
func (a *App) StartABSeeds() {
	st := &a.ABS
	if a.originA == nil || a.origin == nil {
		st.Err = "Pin a run as A and run B first."
		return
	}
	n := st.runs()
	share := scenario.ShareAB(a.originA.Sc, a.origin.Sc, n)
	if share.Scenario != "" {
		st.Err = "B differs from A in fields no -set key names (task groups, workloads or others): N seeds per side need B as keys of A, as `schedplay compare -b` takes them."
		return
	}
	scA, err := scenario.Decode(a.originA.Sc.Encode())
	if err != nil {
		st.Err = err.Error()
		return
	}
	scA.Experiment = nil
	name := scName(scA)
	cfgs := []experiment.Config{{Label: "A", Flag: "-a"}, {Label: "B", Flag: "-b", Sets: share.Set}}
	jobs, err := experiment.Plan(scA, name, cfgs, 1)
	if err != nil {
		st.Err = err.Error()
		return
	}
	st.groups, st.ncpu = experiment.Groups(jobs), experiment.MaxCPUs(jobs)
	cand := experiment.DefaultCandidates(st.groups, st.ncpu)
	scA.Experiment = &scenario.Experiment{Thread: "A/B", Kind: scenario.KindCalibration, Metrics: cand, Runs: n,
		Configs: []scenario.ExpConfig{{Name: "A"}, {Name: "B", Set: share.Set}}}
	if err := scA.Validate(); err != nil {
		st.Err = "A/B: " + err.Error()
		return
	}
	st.Rows, st.Err = nil, ""
	st.forA, st.forB = string(a.originA.Sc.Encode()), string(a.origin.Sc.Encode())
	st.Cmd = abCommand(a.originA, share.Set, n)
	text := string(scA.Encode())
	spec := protocol.BatchSpec{Kind: protocol.KindThread, Scenario: text, Runs: n} // on the pool like a thread experiment
	a.beginBatch(&st.batch, 2*n, spec, scA, func(id int) protocol.Message {
		return protocol.Thread{ID: id, Scenario: text, Runs: n}
	})
}

// abCommand is the CLI command of the table: A as its preset and -set
// flags, B as -b.
func abCommand(o *runOrigin, sets []string, n int) string {
	b := strings.Join(sets, " ")
	cmd := o.command("compare", " -b "+scenario.ShellQuote(b)+fmt.Sprintf(" -runs %d", n))
	for _, s := range sets {
		if strings.ContainsAny(s, " \t,") {
			cmd += "  (a value holds a space or a comma, which -b splits on)"
			break
		}
	}
	return cmd
}

// CancelABSeeds stops the N-seed runs.
func (a *App) CancelABSeeds() { a.cancelBatch(&a.ABS.batch, "A/B seeds cancelled.") }

// handleABSeeds applies an engine message of the N-seed runs (ok: it was
// theirs) and reports whether the page needs a re-render.
func (a *App) handleABSeeds(m protocol.Message) (render, ok bool) {
	st := &a.ABS
	switch m := m.(type) {
	case protocol.ThreadProgress:
		if m.ID != st.ID {
			return false, false
		}
		a.batchProgress(&st.batch, m.ID, m.Progress, func() {
			bridge.SetText("ab-seeds-progress", a.ABSeedsProgress())
		})
		return false, true
	case protocol.ThreadDone:
		if m.ID != st.ID {
			return false, false
		}
		return batchDone(a, &st.batch, m.ID, m.Report, m.Error, a.abSeedsFinished), true
	}
	return false, false
}

func (a *App) abSeedsFinished(rep *report.ThreadReport, err string) {
	st := &a.ABS
	st.finish(err)
	if rep == nil {
		return
	}
	rows, seeds, e := abRows(rep, st.groups, st.ncpu)
	if e != nil {
		st.Err = e.Error()
		return
	}
	st.Rows, st.Seeds, st.N = rows, seeds, len(rep.Seeds)
}

// abRows rebuilds both sides' per-run values from the report and makes
// the CLI's rows of them.
func abRows(rep *report.ThreadReport, groups []string, ncpu int) ([]ABRow, string, error) {
	if len(rep.Tables) != 1 || len(rep.Seeds) == 0 {
		return nil, "", fmt.Errorf("A/B: the worker's report has %d tables", len(rep.Tables))
	}
	n := len(rep.Seeds)
	sides := [2]experiment.Side{make(experiment.Side, n), make(experiment.Side, n)}
	for s := range sides {
		for i := range sides[s] {
			sides[s][i] = experiment.Values{}
		}
	}
	for _, row := range rep.Tables[0].Rows {
		for s := range sides {
			if s < len(row.Cells) && len(row.Cells[s].Raw) == n {
				for i, x := range row.Cells[s].Raw {
					sides[s][i][row.Metric] = x
				}
			}
		}
	}
	names := experiment.Defaults(groups, ncpu, append(append(experiment.Side{}, sides[0]...), sides[1]...))
	var out []ABRow
	for _, r := range experiment.Compare(names, sides[0], sides[1], experiment.CenterMean) {
		out = append(out, ABRow{Metric: r.Name, Unit: r.Unit, Better: experiment.BetterMark(r.Better), Help: r.Help,
			A: meanText(r.A), DevA: devText(r.A), B: meanText(r.B), DevB: devText(r.B),
			Change: pctText(r.ChangePct), Verdict: string(r.Verdict)})
	}
	seeds := fmt.Sprintf("seed %d", rep.Seeds[0])
	if n > 1 {
		seeds = fmt.Sprintf("seeds %d..%d", rep.Seeds[0], rep.Seeds[n-1])
	}
	return out, seeds, nil
}

// The cells as `schedplay compare` prints them (core/cmd/schedplay
// compare.go: center, dev, pct).
func meanText(s *experiment.Summary) string {
	if s == nil {
		return "-"
	}
	return experiment.FormatValue(s.Mean)
}

func devText(s *experiment.Summary) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", s.StddevPct)
}

func pctText(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%+.2f%%", *p)
}

// ABSeedsProgress is the line beside the button.
func (a *App) ABSeedsProgress() string { return a.progressText(&a.ABS.batch, len(a.ABS.Rows) > 0) }

// ABSeedsStale is the out-of-date banner ("" when A and B are still the
// runs the table was computed for).
func (a *App) ABSeedsStale() string {
	st := &a.ABS
	if len(st.Rows) == 0 || a.originA == nil || a.origin == nil {
		return ""
	}
	if string(a.originA.Sc.Encode()) == st.forA && string(a.origin.Sc.Encode()) == st.forB {
		return ""
	}
	return "Out of date: computed for an earlier A or B. Run the seeds again for these two."
}

// publishABSeeds exposes the table to the browser tests.
func (a *App) publishABSeeds() {
	st := &a.ABS
	rows := make([]any, len(st.Rows))
	for i, r := range st.Rows {
		rows[i] = []any{r.Metric, r.A, r.DevA, r.B, r.DevB, r.Change, r.Verdict}
	}
	bridge.Publish("abSeeds", map[string]any{"running": a.ABSeedsActive(), "rows": rows, "cmd": st.Cmd,
		"stale": a.ABSeedsStale() != "", "error": st.Err, "what": a.ABWhat()})
}
