package report

// SweepReport: a finished sweep as the page shows it, built in the worker
// (or the page) from experiment.Sweep and sent as JSON: one table per
// metric in the CLI's layout (one key: a column; two keys: a matrix, rows
// the first key, columns the second), each cell the CLI's text (centre
// ±stddev%); a line plot per metric (sweepplot.go); the CLI's text table
// and its `-csv` bytes, for the download.

import (
	"math"

	"schedplay/core/experiment"
)

// SweepReport is a finished sweep.
type SweepReport struct {
	Name   string
	Header string   // the CLI table's first line
	Keys   []string // the swept keys
	Center string   // "AMean" or "Median"
	Runs   int
	Tables []SweepTable
	Plots  []SweepPlot
	Text   string // `schedplay sweep` stdout
	CSV    string // `schedplay sweep -csv -` stdout
	// Spec and Seeds: the sweep as the CLI's flags say it and the seeds of
	// its runs, for the CSV's provenance sidecar (the page adds the
	// scenario's provenance, which needs the presets the worker lacks).
	Spec  experiment.SweepSpec
	Seeds []uint64
}

// SweepTable is one metric.
type SweepTable struct {
	Metric, Unit, Better string
	Corner               string   // top-left header: the key, or "KEY1 \ KEY2"
	Cols                 []string // the centre's title, or the second key's values
	Rows                 []SweepRow
}

// SweepRow is one value of the first key.
type SweepRow struct {
	Label string
	Cells []string
}

// NewSweepReport renders a finished sweep.
func NewSweepReport(sw *experiment.Sweep) *SweepReport {
	r := &SweepReport{Name: sw.Name, Header: sw.Header(), Center: experiment.CenterTitle(sw.Center), Runs: sw.Runs,
		Text: sw.Text(), CSV: string(sw.CSV()), Spec: sw.Spec(), Seeds: sw.Seeds}
	for _, ax := range sw.Axes {
		r.Keys = append(r.Keys, ax.Key)
	}
	for _, n := range sw.Names {
		d, _ := experiment.Lookup(n)
		t := SweepTable{Metric: n, Unit: d.Unit, Better: experiment.BetterText(d.Better)}
		if len(sw.Axes) == 1 {
			t.Corner, t.Cols = sw.Axes[0].Key, []string{r.Center}
			for vi, v := range sw.Axes[0].Values {
				t.Rows = append(t.Rows, SweepRow{Label: v, Cells: []string{sw.Cell(n, vi)}})
			}
		} else {
			t.Corner, t.Cols = sw.Axes[0].Key+` \ `+sw.Axes[1].Key, sw.Axes[1].Values
			nc := len(sw.Axes[1].Values)
			for ri, v := range sw.Axes[0].Values {
				row := SweepRow{Label: v}
				for ci := range nc {
					row.Cells = append(row.Cells, sw.Cell(n, ri*nc+ci))
				}
				t.Rows = append(t.Rows, row)
			}
		}
		r.Tables = append(r.Tables, t)
		r.Plots = append(r.Plots, sweepPlot(sw, n, d.Unit))
	}
	return r
}

// centres returns the centre of metric n at every point (NaN: missing).
func centres(sw *experiment.Sweep, n string) []float64 {
	out := make([]float64, len(sw.Sides))
	for i, side := range sw.Sides {
		out[i] = math.NaN()
		if s := side.Summary(n); s != nil {
			out[i] = s.Of(sw.Center)
		}
	}
	return out
}
