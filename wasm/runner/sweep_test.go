package runner

// The sweep runner against the CLI's path: run in slices of simulated
// time it gives the CSV and table that experiment.Execute job by job gives
// (what `schedplay sweep` runs on its worker pool, with the same metric
// selection and the shared renderer), and the report's tables and plots
// carry those numbers.

import (
	"strings"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/report"
)

func sweepScenario(t *testing.T) *scenario.Scenario {
	sc, err := scenario.Preset("demo/hackbench")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 20 * sched.Millisecond
	return sc
}

// executeAll runs every job to its end at once and measures it, as the
// CLI's worker pool does (experiment.Execute, experiment.Measure).
func executeAll(t *testing.T, jobs []experiment.Job) []experiment.Values {
	t.Helper()
	vals := make([]experiment.Values, 0, len(jobs))
	for _, j := range jobs {
		r, err := experiment.Execute(j)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, experiment.Measure(r))
	}
	return vals
}

// cliSweep is what `schedplay sweep` computes for the spec (Plan, Execute
// on each job, Measure, SelectMetrics, NewSweep).
func cliSweep(t *testing.T, sc *scenario.Scenario, spec experiment.SweepSpec) *experiment.Sweep {
	axes, err := spec.Check()
	if err != nil {
		t.Fatal(err)
	}
	cfgs := experiment.SweepConfigs(axes)
	jobs, err := experiment.Plan(sc, scName(sc), cfgs, spec.Runs)
	if err != nil {
		t.Fatal(err)
	}
	vals := executeAll(t, jobs)
	names, err := experiment.SelectMetrics(spec.Metrics, jobs, vals, cfgs)
	if err != nil {
		t.Fatal(err)
	}
	return experiment.NewSweep(scName(sc), axes, jobs, vals, names, spec.Runs, spec.Center())
}

func TestSweepRunSlicedMatchesCLI(t *testing.T) {
	sc := sweepScenario(t)
	spec := experiment.SweepSpec{Axes: []string{"workloads.hb.groups=1,2", "kernel.hz=250,1000"}, Runs: 2,
		Metrics: []string{"throughput", "switches", "latency.p99"}}
	sr, err := NewSweepRun(sc, spec)
	if err != nil {
		t.Fatal(err)
	}
	if sr.Jobs() != 8 {
		t.Fatalf("%d jobs, want 2x2 points x 2 runs", sr.Jobs())
	}
	last := -1.0
	for {
		done, err := sr.Advance(700*sched.Microsecond, func() bool { return true }) // one slice per call
		if err != nil {
			t.Fatal(err)
		}
		if f := sr.Fraction(); f < last {
			t.Fatalf("progress went back: %v after %v", f, last)
		} else {
			last = f
		}
		if done {
			break
		}
	}
	got, err := sr.Result()
	if err != nil {
		t.Fatal(err)
	}
	want := cliSweep(t, sc, spec)
	if string(got.CSV()) != string(want.CSV()) {
		t.Fatalf("CSV differs from the CLI's:\n%s\nwant\n%s", got.CSV(), want.CSV())
	}
	if got.Text() != want.Text() {
		t.Fatalf("table differs from the CLI's:\n%s\nwant\n%s", got.Text(), want.Text())
	}
	// The runs differ between points (the sweep changes something).
	if want.Cell("switches", 0) == want.Cell("switches", 2) {
		t.Fatalf("1 and 2 hackbench groups give the same switches: %s", want.Cell("switches", 0))
	}
	rep := report.NewSweepReport(got)
	if rep.CSV != string(want.CSV()) || len(rep.Tables) != 3 || len(rep.Plots) != 3 {
		t.Fatalf("report: %d tables, %d plots", len(rep.Tables), len(rep.Plots))
	}
	tb := rep.Tables[1]
	if tb.Metric != "switches" || tb.Corner != `workloads.hb.groups \ kernel.hz` || strings.Join(tb.Cols, ",") != "250,1000" ||
		len(tb.Rows) != 2 || tb.Rows[1].Label != "2" || tb.Rows[1].Cells[1] != want.Cell("switches", 3) {
		t.Fatalf("table %+v", tb)
	}
	if !strings.Contains(want.Text(), tb.Rows[1].Cells[1]) {
		t.Fatalf("cell %q not in the CLI table", tb.Rows[1].Cells[1])
	}
	// Plot: one line per hz value, x linear in the groups, y of the
	// larger value higher up (smaller SVG y).
	p := rep.Plots[1]
	if len(p.Lines) != 2 || p.Lines[0].Label != "kernel.hz=250" || len(p.Lines[0].Dots) != 2 {
		t.Fatalf("plot lines %+v", p.Lines)
	}
	d0, d1 := p.Lines[0].Dots[0], p.Lines[0].Dots[1]
	if d0.X != float64(p.X0) || d1.X != float64(p.X1) {
		t.Fatalf("x of groups=1,2: %v %v, want %d %d", d0.X, d1.X, p.X0, p.X1)
	}
	s0, s1 := got.Sides[0].Summary("switches").Mean, got.Sides[2].Summary("switches").Mean
	if (s1 > s0) != (d1.Y < d0.Y) {
		t.Fatalf("switches %v -> %v drawn at y %v -> %v", s0, s1, d0.Y, d1.Y)
	}
	if !strings.Contains(d1.Title, want.Cell("switches", 2)) {
		t.Fatalf("dot title %q", d1.Title)
	}
}

func TestSweepRunBadInput(t *testing.T) {
	sc := sweepScenario(t)
	for _, c := range []struct {
		spec experiment.SweepSpec
		want string
	}{
		{experiment.SweepSpec{Axes: []string{"kernel.hz=250,123"}, Runs: 1}, "kernel.hz"},
		{experiment.SweepSpec{Axes: []string{"bogus.key=1,2"}, Runs: 1}, "bogus.key"},
		{experiment.SweepSpec{Axes: []string{"kernel.hz=250"}, Runs: 0}, "runs 0"},
		{experiment.SweepSpec{Axes: []string{"kernel.hz=250", "kernel.hz=100"}, Runs: 1}, "given twice"},
		{experiment.SweepSpec{Axes: []string{"kernel.hz=250"}, Runs: 1, Metrics: []string{"latency.p99@nope"}}, "nope"},
		{experiment.SweepSpec{Axes: []string{"seed=" + strings.Repeat("1,", 60) + "1"}, Runs: 40}, "limit in the browser"},
	} {
		if _, err := NewSweepRun(sc, c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.spec, err, c.want)
		}
	}
}
