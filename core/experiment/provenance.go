package experiment

// Provenance of a sweep's CSV. The CSV stays a plain table (a header row,
// then one row per point: Python's csv, pandas.read_csv and a spreadsheet
// read it as before), so its configuration goes in a sidecar file beside
// it, FILE.provenance.json (schema schedplay.provenance/v1): the
// scenario's provenance object (scenario.Record) and the sweep itself
// (axes, runs, metrics, centre), with the command that reruns it.
// docs/cli.md "Provenance in exports" says why a sidecar and not columns
// or comment lines.

import (
	"encoding/json"
	"strconv"
	"strings"

	"schedplay/core/scenario"
)

// ProvenanceSchema names the sidecar's format.
const ProvenanceSchema = "schedplay.provenance/v1"

// ProvenanceSuffix is appended to a CSV's file name to name its sidecar.
const ProvenanceSuffix = ".provenance.json"

// ProvenanceFile is the sidecar of an export that cannot carry its own
// provenance (a CSV).
type ProvenanceFile struct {
	Schema     string           `json:"schema"`
	File       string           `json:"file"` // the file it describes (base name)
	Provenance *scenario.Record `json:"provenance"`
	Sweep      *SweepSpec       `json:"sweep,omitempty"`
}

// Spec is the sweep as a link or the CLI's flags say it, with the
// metrics it reported.
func (s *Sweep) Spec() SweepSpec {
	sp := SweepSpec{Runs: s.Runs, Metrics: append([]string{}, s.Names...)}
	for _, a := range s.Axes {
		sp.Axes = append(sp.Axes, a.Key+"="+strings.Join(a.Values, ","))
	}
	if s.Center == CenterMedian {
		sp.Stat = string(CenterMedian)
	}
	return sp
}

// Args are the sweep's flags of `schedplay sweep` ("sweep -sweep ... -runs
// N -metric ..."), each value quoted for a shell where it needs it.
func (sp SweepSpec) Args() string {
	var b strings.Builder
	b.WriteString("sweep")
	for _, a := range sp.Axes {
		b.WriteString(" -sweep " + scenario.ShellQuote(a))
	}
	b.WriteString(" -runs " + strconv.Itoa(sp.Runs))
	if len(sp.Metrics) > 0 {
		b.WriteString(" -metric " + scenario.ShellQuote(strings.Join(sp.Metrics, ",")))
	}
	if sp.Stat == string(CenterMedian) {
		b.WriteString(" -stat median")
	}
	return b.String()
}

// ProvenanceJSON is the sidecar of the sweep's CSV, file its base name,
// sc the scenario the sweep ran on (before the axes applied).
func (s *Sweep) ProvenanceJSON(sc *scenario.Scenario, file string) []byte {
	return SweepProvenanceJSON(sc, s.Spec(), s.Seeds, file)
}

// SweepProvenanceJSON is the sidecar of a sweep given as its spec and the
// seeds of its runs (the playground's report carries those).
func SweepProvenanceJSON(sc *scenario.Scenario, sp SweepSpec, seeds []uint64, file string) []byte {
	rec := scenario.NewRecord(sc, seeds, sp.Args()+" -csv "+scenario.ShellQuote(file))
	js, err := json.MarshalIndent(ProvenanceFile{Schema: ProvenanceSchema, File: file, Provenance: rec, Sweep: &sp}, "", "  ")
	if err != nil {
		panic("experiment: provenance of a sweep does not encode: " + err.Error())
	}
	return append(js, '\n')
}
