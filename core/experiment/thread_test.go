package experiment

import (
	"math"
	"testing"

	"schedplay/core/scenario"
)

func TestEvaluateThread(t *testing.T) {
	e := &scenario.Experiment{
		Thread: "T", Kind: scenario.KindCalibration, Normalize: true,
		Configs:  []scenario.ExpConfig{{Name: "off"}, {Name: "on"}},
		Variants: []scenario.ExpConfig{{Name: "icx"}, {Name: "epyc"}},
		Metrics:  []string{"completion"},
		Reference: []scenario.ExpRef{
			{Variant: "icx", Config: "on", Metric: "completion", Value: 0.80, Tol: 0.03},
			{Variant: "epyc", Config: "on", Metric: "completion", Value: 0.90, Tol: 0.03},
			{Variant: "epyc", Config: "off", Metric: "completion", Value: 1, Tol: 0.001},
		},
	}
	v := func(xs ...float64) []Values {
		var out []Values
		for _, x := range xs {
			out = append(out, Values{"completion": x})
		}
		return out
	}
	vals := [][][]Values{
		{v(100, 100), v(79, 81)},   // icx: 0.80
		{v(200, 200), v(170, 170)}, // epyc: 0.85, misses 0.90 ±0.03
	}
	res, err := EvaluateThread(e, []string{"completion"}, vals, CenterMean)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Tables[0].Cells[0][1].Value; math.Abs(got-0.80) > 1e-12 {
		t.Errorf("icx normalised on = %g, want 0.80", got)
	}
	if got := res.Tables[1].Cells[0][1].ChangePct; math.Abs(got+15) > 1e-9 {
		t.Errorf("epyc change = %g%%, want -15%%", got)
	}
	if got := res.Tables[0].Cells[0][1].DevPct; got <= 0 {
		t.Errorf("icx on deviation = %g, want > 0", got)
	}
	want := []bool{true, false, true}
	for i, c := range res.Checks {
		if c.Pass != want[i] {
			t.Errorf("check %d (%+v): pass %v, want %v (got %g)", i, c.Ref, c.Pass, want[i], c.Got)
		}
	}
	if res.Passed() {
		t.Error("Passed() with a failing check")
	}
	// Normalising only some metrics: the others keep their raw centres.
	e2 := *e
	e2.Metrics, e2.NormalizeOnly = []string{"completion", "switches"}, []string{"completion"}
	e2.Reference = nil
	for vi := range vals {
		for ci := range vals[vi] {
			for si := range vals[vi][ci] {
				vals[vi][ci][si]["switches"] = 40
			}
		}
	}
	res, _ = EvaluateThread(&e2, []string{"completion", "switches"}, vals, CenterMean)
	if c := res.Tables[0].Cells[1][1]; c.Normalized || c.Value != 40 {
		t.Errorf("switches not normalised: %+v", c)
	}
	if c := res.Tables[0].Cells[0][1]; !c.Normalized || math.Abs(c.Value-0.80) > 1e-12 {
		t.Errorf("completion normalised: %+v", c)
	}
	// A metric missing from a run: the cell is empty and its check fails.
	vals[0][1] = []Values{{}, {}}
	res, _ = EvaluateThread(e, []string{"completion"}, vals, CenterMean)
	if !math.IsNaN(res.Tables[0].Cells[0][1].Value) || res.Checks[0].Pass {
		t.Errorf("missing metric: cell %+v, check %+v", res.Tables[0].Cells[0][1], res.Checks[0])
	}
	if _, err := EvaluateThread(e, []string{"completion"}, vals[:1], CenterMean); err == nil {
		t.Error("wrong number of variants accepted")
	}
}
