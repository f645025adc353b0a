package experiment

// Thread tables: a scenario's experiment block (scenario.Experiment) run
// as its mailing-list thread ran it — every variant (machine, workload
// size) under every configuration, over the same seeds — summarised into
// one table per variant (metrics x configurations, optionally normalised
// to the first configuration as the threads' "normalized runtime" rows
// are), with the thread's published numbers checked against their
// tolerances. Pure: the caller runs the simulations (on as many cores as
// it likes) and hands over the measured values.

import (
	"fmt"
	"math"

	"schedplay/core/quote"
	"schedplay/core/scenario"
)

// Cell is one metric under one configuration on one variant.
type Cell struct {
	Summary *Summary // raw values over the seeds; nil when a run lacks the metric
	// Value is the centre, divided by the first configuration's centre
	// when the experiment normalises (NaN when that is 0 or missing).
	Value float64
	// DevPct is the run-to-run standard deviation in % of the mean.
	DevPct float64
	// ChangePct is the change of the centre against the first
	// configuration, in % (NaN for the first or when undefined).
	ChangePct float64
	// Normalized says Value is relative to the first configuration.
	Normalized bool
}

// Table is one variant's table.
type Table struct {
	Variant string // "" when the experiment has no variants
	Metrics []Def  // rows
	Configs []string
	Cells   [][]Cell // [metric][config]
}

// RefCheck is one published number against the simulator's.
type RefCheck struct {
	Ref  scenario.ExpRef
	Got  float64 // NaN when the simulator has no value
	Pass bool
}

// ThreadResult is an evaluated experiment.
type ThreadResult struct {
	Exp    *scenario.Experiment
	Center Center
	Tables []Table
	Checks []RefCheck
}

// Passed reports whether every reference number is met.
func (r *ThreadResult) Passed() bool {
	for _, c := range r.Checks {
		if !c.Pass {
			return false
		}
	}
	return true
}

// EvaluateThread summarises vals, indexed [variant][config][seed] in the
// order of e.VariantList() and e.Configs, for the metric names metrics
// (e.Metrics resolved against the scenario's task groups).
func EvaluateThread(e *scenario.Experiment, metrics []string, vals [][][]Values, c Center) (ThreadResult, error) {
	res := ThreadResult{Exp: e, Center: c}
	vars := e.VariantList()
	if len(vals) != len(vars) {
		return res, fmt.Errorf("%d variants measured, want %d", len(vals), len(vars))
	}
	for vi, v := range vars {
		if len(vals[vi]) != len(e.Configs) {
			return res, quote.Errorf("variant %q: %d configurations measured, want %d", v.Name, len(vals[vi]), len(e.Configs))
		}
		t := Table{Variant: v.Name}
		for _, cf := range e.Configs {
			t.Configs = append(t.Configs, cf.Name)
		}
		for _, m := range metrics {
			d, ok := Lookup(m)
			if !ok {
				return res, quote.Errorf("unknown metric %q", m)
			}
			t.Metrics = append(t.Metrics, d)
			row := make([]Cell, len(e.Configs))
			for ci := range e.Configs {
				row[ci].Summary = Side(vals[vi][ci]).Summary(m)
			}
			base := math.NaN()
			if row[0].Summary != nil {
				base = row[0].Summary.Of(c)
			}
			for ci := range row {
				cell := &row[ci]
				cell.Value, cell.ChangePct = math.NaN(), math.NaN()
				if cell.Summary == nil {
					continue
				}
				x := cell.Summary.Of(c)
				cell.DevPct = cell.Summary.StddevPct
				cell.Value = x
				if cell.Normalized = e.Normalizes(m); cell.Normalized {
					cell.Value = math.NaN()
					if base != 0 && !math.IsNaN(base) {
						cell.Value = x / base
					}
				}
				if ci > 0 && base != 0 && !math.IsNaN(base) {
					cell.ChangePct = 100 * (x - base) / math.Abs(base)
				}
			}
			t.Cells = append(t.Cells, row)
		}
		res.Tables = append(res.Tables, t)
	}
	for _, r := range e.Reference {
		got := res.lookup(r)
		res.Checks = append(res.Checks, RefCheck{Ref: r, Got: got, Pass: !math.IsNaN(got) && r.Check(got)})
	}
	return res, nil
}

// lookup finds the table value a reference compares with.
func (r *ThreadResult) lookup(ref scenario.ExpRef) float64 {
	for _, t := range r.Tables {
		if t.Variant != ref.Variant {
			continue
		}
		for mi, d := range t.Metrics {
			if d.Name != ref.Metric {
				continue
			}
			for ci, cf := range t.Configs {
				if cf == ref.Config {
					return t.Cells[mi][ci].Value
				}
			}
		}
	}
	return math.NaN()
}
