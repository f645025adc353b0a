package main

// Provenance on the page: every result says which configuration it came
// from. A run keeps the scenario it ran (runOrigin, taken when it starts);
// the metrics panel names its preset and the -set flags that differ from
// it (scenario.ProvenanceOf) with the CLI command that gives the same
// numbers, and the A/B panel names what B changes against A
// (scenario.Compare of the two runs' scenarios): "B: features.X=on".
// Every export carries the same provenance object as the CLI's
// (scenario.Record): the metrics JSON, the trace files, the thread
// Markdown's build line, the sweep CSV's sidecar.
// docs/playground.md "Provenance".

import (
	"encoding/json"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/wasm/view"
)

// runOrigin is the configuration a run came from.
type runOrigin struct {
	Sc   *scenario.Scenario // a private copy, as the run started
	Prov scenario.Provenance
}

func newOrigin(sc *scenario.Scenario) *runOrigin {
	return &runOrigin{Sc: sc, Prov: scenario.ProvenanceOf(sc)}
}

// command is the CLI command that reruns the scenario (cmd: run,
// compare ...), extra appended: the preset and its -set flags, or the
// scenario file when the scenario is not a preset or -set cannot say it.
func (o *runOrigin) command(cmd, extra string) string {
	if o == nil {
		return ""
	}
	if o.Prov.Preset == "" || !o.Prov.Exact() {
		return "schedplay " + cmd + " scenario.json" + extra
	}
	return "schedplay " + cmd + " -preset " + scenario.ShellQuote(o.Prov.Preset) + o.Prov.SetFlags() + extra
}

// from names the configuration: "seed/X with kernel.hz=1000" or the name.
func (o *runOrigin) from() string {
	if o == nil {
		return ""
	}
	name := shortText(scName(o.Sc))
	if !o.Prov.Modified() {
		return name
	}
	return name + " (modified: " + changeText(o.Prov) + ")"
}

// note is said beside a command that needs the scenario file.
func (o *runOrigin) note() string {
	switch {
	case o == nil:
		return ""
	case o.Prov.Preset == "":
		return "scenario.json: Export scenario below"
	case !o.Prov.Exact():
		return "the scenario differs from " + o.Prov.Preset + " in what no -set flag can say: scenario.json is the Export scenario download"
	}
	return ""
}

// MetricsFrom and MetricsCommand are the metrics panel's provenance line.
func (a *App) MetricsFrom() string    { return a.origin.from() }
func (a *App) MetricsCommand() string { return a.origin.command("run", " -metrics metrics.json") }
func (a *App) MetricsNote() string    { return a.origin.note() }

// ABWhat names what B changes against A ("" without both runs).
func (a *App) ABWhat() string {
	if a.originA == nil || a.origin == nil {
		return ""
	}
	p := scenario.Compare(a.originA.Sc, a.origin.Sc)
	if !p.Modified() {
		return "B: the same scenario as A"
	}
	s := "B: " + strings.Join(p.Sets, " ")
	if len(p.Sets) == 0 {
		s = "B:"
	}
	if !p.Exact() {
		s += " (and what no -set flag can say)"
	}
	return s
}

// ABFrom names A's configuration.
func (a *App) ABFrom() string {
	if a.originA == nil {
		return ""
	}
	return "A: " + a.originA.from()
}

// staleMemo keeps the out-of-date banners between page renders: each is
// worked out again only when the scenario text (App.JSONText) or the
// result it describes changes, not at every render.
type staleMemo struct {
	m map[string]staleEntry
}

type staleEntry struct {
	text   string
	result any
	val    string
}

func (s *staleMemo) get(name, text string, result any, f func() string) string {
	if e, ok := s.m[name]; ok && e.result == result && e.text == text {
		return e.val
	}
	if s.m == nil {
		s.m = map[string]staleEntry{}
	}
	v := f()
	s.m[name] = staleEntry{text: text, result: result, val: v}
	return v
}

// runRecord is the current run's provenance object as the CLI's exports
// carry it (scenario.NewRecord of the scenario as the run started, its
// seed, `schedplay run`); nil without a simulated run.
func (a *App) runRecord() *scenario.Record {
	if a.origin == nil || a.Run == nil || a.Run.IsTrace() {
		return nil
	}
	return scenario.NewRecord(a.origin.Sc, []uint64{a.origin.Sc.Seed}, "run")
}

// runRecordJSON is runRecord as compact JSON ("" without one): the trace
// exports' comment line and metadata (wasm/runner/export.go).
func (a *App) runRecordJSON() string {
	r := a.runRecord()
	if r == nil {
		return ""
	}
	js, err := json.Marshal(r)
	if err != nil {
		return ""
	}
	return string(js)
}

// metricsExport is the metrics download: `schedplay run -metrics`'s
// document, the report with the run's provenance.
func (a *App) metricsExport(r *view.Run) []byte {
	doc := metrics.Document{Report: *r.Report()}
	if rec := a.runRecord(); rec != nil {
		doc.Provenance = rec
	}
	js, _ := json.MarshalIndent(doc, "", "  ")
	return append(js, '\n')
}

// TasksCSVProvenanceName is the download name of tasks.csv's sidecar.
const TasksCSVProvenanceName = "tasks.csv" + experiment.ProvenanceSuffix

// tasksCSVSidecar is the sidecar of the tasks.csv download: the run's
// provenance beside the CSV, as the sweep's CSV has its own (docs/cli.md
// "Provenance in exports": the CSV keeps its plain table).
func tasksCSVSidecar(rec *scenario.Record) []byte {
	js, err := json.MarshalIndent(experiment.ProvenanceFile{Schema: experiment.ProvenanceSchema, File: "tasks.csv", Provenance: rec}, "", "  ")
	if err != nil {
		panic("wasm: provenance of tasks.csv does not encode: " + err.Error())
	}
	return append(js, '\n')
}
