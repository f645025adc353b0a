package report

// ThreadReport: an evaluated experiment (experiment.ThreadRender) in the
// form that crosses from the worker to the page as JSON (no NaN: missing
// values are flagged) and that the page's thread view renders: the tables
// with the CLI's cell texts, the thread's numbers with pass/FAIL, the
// Markdown of `schedplay compare -preset NAME -o markdown`, and the
// geometry of one bar plot per metric (threadplot.go).

import (
	"math"

	"schedplay/core/experiment"
)

// ThreadReport is what the thread view shows.
type ThreadReport struct {
	Name, Thread, Date, Kind, Explain string
	Center                            string // "AMean" or "Median"
	Runs                              int
	Seeds                             []uint64
	Normalized                        bool
	NormalizedWhat                    string // "values", or the normalised metrics
	Configs                           []string
	Tables                            []ThreadTable
	Checks                            []ThreadCheck
	Passed                            bool
	Markdown                          string
	// Regenerate is the CLI command that reruns it (the preset and the
	// -set flags that differ from it); Changed names those differences
	// ("" when the scenario is its preset).
	Regenerate, Changed string
}

// ThreadTable is one variant's table.
type ThreadTable struct {
	Variant, Machine string
	Rows             []ThreadRow
}

// ThreadRow is one metric under every configuration.
type ThreadRow struct {
	Metric, Unit, Better string
	Help                 string // the metric's definition (experiment.Def.Help)
	Note                 string // why a share reads above 100 % ("" if none does)
	Cells                []ThreadCell
}

// overNote explains a share above 100 %: only a sum over tasks, as
// sys_share is (time(1)'s sys / real of several processes), gets there.
const overNote = "above 100 %: the tasks' times are summed, and tasks in the kernel on several CPUs at once add up to more than the elapsed time (as time(1)'s sys / real of several processes does)"

// ThreadCell is one table value.
type ThreadCell struct {
	Text  string  // as the CLI prints it: value ±dev% (change%)
	Value float64 // the (normalised) value; meaningful when Has
	Dev   float64 // run-to-run deviation, % of the mean
	Has   bool
	// Normalized: Value is relative to the first configuration.
	Normalized bool
	// Raw is the value of each run, in seed order (nil when a run lacks
	// the metric): what the page's A/B over N seeds summarises again.
	Raw []float64 `json:",omitempty"`
}

// ThreadCheck is one of the thread's published numbers beside the
// simulator's.
type ThreadCheck struct {
	Variant, Config, Metric string
	Where, Note             string
	Thread, Got             float64
	HasGot                  bool
	ThreadText, GotText     string
	Tolerance               string
	Lo, Hi                  float64 // the accepted interval
	Pass                    bool
	// NotApplying: why the number is not checked against this run ("" if
	// it is): the run changed a key the number assumes.
	NotApplying string
}

// NewThreadReport converts an evaluated experiment.
func NewThreadReport(tr *experiment.ThreadRender) *ThreadReport {
	e := tr.Res.Exp
	r := &ThreadReport{Name: tr.Name, Thread: e.Thread, Date: e.Date, Kind: e.Kind, Explain: e.Explain,
		Center: experiment.CenterTitle(tr.Res.Center), Runs: tr.Runs, Seeds: tr.Seeds, Normalized: e.Normalize, NormalizedWhat: e.NormalizedText(),
		Passed: tr.Passed(), Markdown: tr.Markdown(), Regenerate: tr.Regenerate(), Changed: tr.Changed()}
	for _, c := range e.Configs {
		r.Configs = append(r.Configs, c.Name)
	}
	for ti, t := range tr.Res.Tables {
		tt := ThreadTable{Variant: t.Variant, Machine: tr.Labels[ti]}
		for mi, d := range t.Metrics {
			row := ThreadRow{Metric: d.Name, Unit: t.Unit(mi), Better: experiment.BetterMark(d.Better), Help: d.Help}
			for _, c := range t.Cells[mi] {
				cell := ThreadCell{Text: tr.CellText(c), Has: !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0), Normalized: c.Normalized}
				if cell.Has {
					cell.Value, cell.Dev = c.Value, c.DevPct
				}
				if c.Summary != nil && finite(c.Summary.Values) {
					cell.Raw = c.Summary.Values
				}
				row.Cells = append(row.Cells, cell)
				if cell.Has && !cell.Normalized && d.Unit == "%" && cell.Value > 100 {
					row.Note = overNote
				}
			}
			tt.Rows = append(tt.Rows, row)
		}
		r.Tables = append(r.Tables, tt)
	}
	for _, c := range tr.Res.Checks {
		tol := c.Ref.Tol
		if c.Ref.TolPct > 0 {
			tol = math.Abs(c.Ref.Value) * c.Ref.TolPct / 100
		}
		ck := ThreadCheck{Variant: c.Ref.Variant, Config: c.Ref.Config, Metric: c.Ref.Metric,
			Where: experiment.RefWhere(c.Ref.Variant, c.Ref.Config, c.Ref.Metric), Note: c.Ref.Note,
			Thread: c.Ref.Value, ThreadText: experiment.FormatValue(c.Ref.Value), GotText: experiment.FormatGot(c.Got),
			HasGot: !math.IsNaN(c.Got), Tolerance: c.Ref.ToleranceText(), Lo: c.Ref.Value - tol, Hi: c.Ref.Value + tol,
			Pass: c.Pass, NotApplying: tr.NotApplying(c.Ref)}
		if ck.HasGot {
			ck.Got = c.Got
		}
		r.Checks = append(r.Checks, ck)
	}
	return r
}

// FailCount is the number of published numbers that apply to the run and
// that the simulator misses.
func (r *ThreadReport) FailCount() int {
	n := 0
	for _, c := range r.Checks {
		if !c.Pass && c.NotApplying == "" {
			n++
		}
	}
	return n
}

// finite reports whether every value can cross as JSON (no NaN or Inf).
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
