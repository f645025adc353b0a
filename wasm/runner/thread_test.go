package runner

// The thread runner against the CLI's path: run in slices of simulated
// time it gives the same tables as experiment.Execute job by job (what
// `schedplay compare -preset` runs on its worker pool), and the report
// carries them with the thread's numbers.

import (
	"strings"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/report"
)

func seedScenario(t *testing.T) *scenario.Scenario {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 400 * sched.Millisecond
	return sc
}

func TestThreadRunSlicedMatchesExecute(t *testing.T) {
	sc := seedScenario(t)
	tr, err := NewThreadRun(sc, 2)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Jobs() != 4 {
		t.Fatalf("%d jobs, want 2 configurations x 2 runs", tr.Jobs())
	}
	steps, last := 0, -1.0
	for {
		done, err := tr.Advance(3*sched.Millisecond, func() bool { return true }) // one slice per call
		if err != nil {
			t.Fatal(err)
		}
		if f := tr.Fraction(); f < last {
			t.Fatalf("progress went back: %v after %v", f, last)
		} else {
			last = f
		}
		steps++
		if done {
			break
		}
	}
	if steps < 100 || last != 1 {
		t.Fatalf("%d slices, final fraction %v", steps, last)
	}
	got, err := tr.Result()
	if err != nil {
		t.Fatal(err)
	}

	// The CLI's way: every job to the end at once.
	e := sc.Experiment
	jobs, err := experiment.Plan(sc, sc.Name, experiment.ThreadConfigs(e), 2)
	if err != nil {
		t.Fatal(err)
	}
	vals := executeAll(t, jobs)
	names, _ := experiment.Resolve(e.Metrics, []string{"task_other", "task_idle"}, 8)
	res, err := experiment.EvaluateThread(e, names, experiment.ThreadCube(e, vals, 2), experiment.CenterMean)
	if err != nil {
		t.Fatal(err)
	}
	want := (&experiment.ThreadRender{Name: sc.Name, Runs: 2, Seeds: []uint64{1, 2},
		Labels: []string{"topology smp-8, kernel v5.8"}, Res: res}).Markdown()
	if md := got.Markdown(); md != want {
		t.Fatalf("sliced run differs from Execute:\n%s\n---\n%s", md, want)
	}

	rep := report.NewThreadReport(got)
	if len(rep.Tables) != 1 || len(rep.Configs) != 2 || len(rep.Checks) != 2 || len(rep.Tables[0].Rows) != 4 {
		t.Fatalf("report shape: %+v", rep)
	}
	for _, row := range rep.Tables[0].Rows {
		for _, c := range row.Cells {
			if !c.Has || !strings.Contains(rep.Markdown, c.Text) {
				t.Fatalf("cell %q of %s not in the Markdown", c.Text, row.Metric)
			}
		}
	}
	plots := rep.ThreadPlots(0)
	if len(plots) != 4 || len(plots[0].Bars) != 2 || len(plots[0].Refs) != 1 {
		t.Fatalf("plots: %+v", plots)
	}
	for _, p := range plots {
		for _, b := range p.Bars {
			if b.W < 0 || b.X+b.W > report.PlotW {
				t.Fatalf("%s: bar %+v outside the plot", p.Title, b)
			}
		}
	}
}

func TestThreadRunBadInput(t *testing.T) {
	sc, _ := scenario.Preset("demo/periodic-vs-hog")
	if _, err := NewThreadRun(sc, 1); err == nil || !strings.Contains(err.Error(), "no experiment block") {
		t.Fatalf("no experiment block: %v", err)
	}
	if _, err := NewThreadRun(seedScenario(t), 1000); err == nil {
		t.Fatal("runs=1000 accepted")
	}
}
