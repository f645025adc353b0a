package main

// Output of thread mode: text, Markdown, or JSON (schema
// schedplay.thread/v1, docs/compare.md).

import (
	"encoding/json"
	"io"
	"math"

	"schedplay/core/scenario"
)

// ThreadSchema is the JSON schema of thread mode (`compare -o json` on a
// scenario with an experiment block).
const ThreadSchema = "schedplay.thread/v1"

type threadDoc struct {
	Schema   string           `json:"schema"`
	Scenario string           `json:"scenario"`
	Thread   string           `json:"thread"`
	Date     string           `json:"date,omitempty"`
	Kind     string           `json:"kind"`
	Runs     int              `json:"runs"`
	Seeds    []uint64         `json:"seeds"`
	Center   string           `json:"center"`
	Normal   bool             `json:"normalized"`
	Configs  []string         `json:"configs"`
	Tables   []threadTableDoc `json:"tables"`
	Checks   []threadCheckDoc `json:"reference"`
	Passed   bool             `json:"passed"`
	// Provenance: the configuration the experiment ran (an addition to
	// schedplay.thread/v1).
	Provenance *scenario.Record `json:"provenance,omitempty"`
}

type threadTableDoc struct {
	Variant string            `json:"variant,omitempty"`
	Machine string            `json:"machine"`
	Metrics []threadMetricDoc `json:"metrics"`
}

type threadMetricDoc struct {
	Name   string          `json:"name"`
	Unit   string          `json:"unit"`
	Better string          `json:"better"`
	Cells  []threadCellDoc `json:"cells"` // one per configuration
}

type threadCellDoc struct {
	Value     *float64 `json:"value"` // normalised when the experiment normalises
	ChangePct *float64 `json:"change_pct"`
	Raw       *statDoc `json:"raw"`
}

type threadCheckDoc struct {
	Variant   string   `json:"variant,omitempty"`
	Config    string   `json:"config"`
	Metric    string   `json:"metric"`
	Thread    float64  `json:"thread"`
	Simulator *float64 `json:"simulator"`
	Tolerance string   `json:"tolerance"`
	Note      string   `json:"note,omitempty"`
	Pass      bool     `json:"pass"`
	// NotApplying: why the number is not checked against this run (it
	// changed a key the number assumes: experiment reference "depends").
	NotApplying string `json:"not_applying,omitempty"`
}

func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func (tr *threadRun) doc() threadDoc {
	e := tr.Res.Exp
	d := threadDoc{Schema: ThreadSchema, Scenario: tr.Name, Thread: e.Thread, Date: e.Date, Kind: e.Kind,
		Runs: tr.Runs, Seeds: tr.Seeds, Center: string(tr.Res.Center), Normal: e.Normalize,
		Tables: []threadTableDoc{}, Checks: []threadCheckDoc{}, Passed: tr.render().Passed(), Provenance: tr.record()}
	for _, c := range e.Configs {
		d.Configs = append(d.Configs, c.Name)
	}
	for ti, t := range tr.Res.Tables {
		td := threadTableDoc{Variant: t.Variant, Machine: tr.labels[ti]}
		for mi, m := range t.Metrics {
			md := threadMetricDoc{Name: m.Name, Unit: m.Unit, Better: string(m.Better)}
			for _, c := range t.Cells[mi] {
				md.Cells = append(md.Cells, threadCellDoc{Value: num(c.Value), ChangePct: num(c.ChangePct), Raw: toStatDoc(c.Summary)})
			}
			td.Metrics = append(td.Metrics, md)
		}
		d.Tables = append(d.Tables, td)
	}
	for _, c := range tr.Res.Checks {
		d.Checks = append(d.Checks, threadCheckDoc{Variant: c.Ref.Variant, Config: c.Ref.Config, Metric: c.Ref.Metric,
			Thread: c.Ref.Value, Simulator: num(c.Got), Tolerance: c.Ref.ToleranceText(), Note: c.Ref.Note, Pass: c.Pass,
			NotApplying: tr.render().NotApplying(c.Ref)})
	}
	return d
}

func writeThread(w io.Writer, tr *threadRun, format string) error {
	switch format {
	case "json":
		js, err := json.MarshalIndent(tr.doc(), "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(js, '\n'))
		return err
	case "markdown":
		_, err := io.WriteString(w, tr.markdown())
		return err
	}
	_, err := io.WriteString(w, tr.text())
	return err
}
