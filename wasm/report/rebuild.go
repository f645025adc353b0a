package report

// Rebuild: a thread report evaluated again on the page with what only the
// page knows, the scenario's provenance (the preset it came from and the
// -set keys that differ: scenario.Provenance). The worker leaves it out:
// finding the preset would link every built-in preset into the worker.
// The per-run values the report carries (ThreadCell.Raw) go through
// experiment.EvaluateThread again, so the tables, the checks and the
// Markdown are the ones a worker that knew the provenance would have made.

import (
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
)

// Rebuild evaluates rep again for experiment e (the block it ran) with
// provenance prov; the Markdown's last line names build (the page's
// schedplay build, as `compare -o markdown` names the CLI's).
func Rebuild(rep *ThreadReport, e *scenario.Experiment, prov scenario.Provenance, build string) (*ThreadReport, error) {
	vl := e.VariantList()
	if len(rep.Tables) != len(vl) || len(rep.Seeds) != rep.Runs || rep.Runs < 1 {
		return nil, fmt.Errorf("report: %d tables for %d variants, %d seeds for %d runs", len(rep.Tables), len(vl), len(rep.Seeds), rep.Runs)
	}
	center := experiment.CenterMean
	if rep.Center == experiment.CenterTitle(experiment.CenterMedian) {
		center = experiment.CenterMedian
	}
	var metrics, labels []string
	for _, row := range rep.Tables[0].Rows {
		metrics = append(metrics, row.Metric)
	}
	cube := make([][][]experiment.Values, len(vl))
	for vi, t := range rep.Tables {
		labels = append(labels, t.Machine)
		if len(t.Rows) != len(metrics) {
			return nil, fmt.Errorf("report: table %d has %d rows, want %d", vi, len(t.Rows), len(metrics))
		}
		cube[vi] = make([][]experiment.Values, len(e.Configs))
		for ci := range e.Configs {
			runs := make([]experiment.Values, rep.Runs)
			for i := range runs {
				runs[i] = experiment.Values{}
			}
			for _, row := range t.Rows {
				if ci < len(row.Cells) && len(row.Cells[ci].Raw) == rep.Runs {
					for i, x := range row.Cells[ci].Raw {
						runs[i][row.Metric] = x
					}
				}
			}
			cube[vi][ci] = runs
		}
	}
	res, err := experiment.EvaluateThread(e, metrics, cube, center)
	if err != nil {
		return nil, err
	}
	tr := &experiment.ThreadRender{Name: rep.Name, Runs: rep.Runs, Seeds: rep.Seeds, Labels: labels, Res: res, Prov: prov, Build: build}
	return NewThreadReport(tr), nil
}
