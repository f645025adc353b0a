//go:build browser

package browsertest

// The playground's exports carry the CLI's provenance object
// (scenario.Record, docs/cli.md "Provenance in exports"): from a preset
// with a knob changed, the metrics download, the ftrace export and the
// sweep CSV's sidecar name the changed key, and equal, but for the build,
// what the real CLI writes for the command they print.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"schedplay/core/experiment"
)

// lastExport waits for the download named name and returns its text.
func lastExport(tb *tab, name string, timeout time.Duration) string {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf(`window.schedplay.lastExport && window.schedplay.lastExport.name === %q`, name), timeout)
	return eval[string](tb, `window.schedplay.lastExport.text`)
}

// provenanceOf decodes the "provenance" object of a JSON document, the
// build left out (each binary names its own).
func provenanceOf(t *testing.T, what, doc string) map[string]any {
	t.Helper()
	var d struct {
		Provenance map[string]any `json:"provenance"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil || d.Provenance == nil {
		t.Fatalf("%s: no provenance object (%v):\n%.400s", what, err, doc)
	}
	if b, _ := d.Provenance["schedplay"].(string); b == "" {
		t.Fatalf("%s: provenance without the build: %v", what, d.Provenance)
	}
	delete(d.Provenance, "schedplay")
	return d.Provenance
}

func setHas(p map[string]any, kv string) bool {
	set, _ := p["set"].([]any)
	for _, s := range set {
		if s == kv {
			return true
		}
	}
	return false
}

func TestExportProvenance(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", abPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, abPreset), 60*time.Second)
	tb.openTab("kernel")
	tb.change("#hz", "1000")
	tb.waitFor(`window.schedplay.done && window.schedplay.modified`, 60*time.Second)

	// metrics.json: the changed key, and the CLI's object for its command.
	tb.click("#export-metrics")
	page := lastExport(tb, "metrics.json", 10*time.Second)
	prov := provenanceOf(t, "page metrics.json", page)
	if prov["preset"] != abPreset || !setHas(prov, "kernel.hz=1000") {
		t.Fatalf("the page's metrics provenance does not name kernel.hz=1000: %v", prov)
	}
	cmd, _ := prov["command"].(string)
	args := shellFields(t, cmd)
	cli := cliRun(t, append(args[1:], "-metrics", "-")...)
	if want := provenanceOf(t, "CLI metrics", cli); !reflect.DeepEqual(prov, want) {
		t.Fatalf("the page's provenance differs from the CLI's for %s:\n%v\n%v", cmd, prov, want)
	}
	var pageDoc, cliDoc map[string]any
	json.Unmarshal([]byte(page), &pageDoc)
	json.Unmarshal([]byte(cli), &cliDoc)
	delete(pageDoc, "provenance")
	delete(cliDoc, "provenance")
	if !reflect.DeepEqual(pageDoc, cliDoc) {
		t.Fatalf("the page's metrics differ from %s's", cmd)
	}

	// tasks.csv keeps its table; its sidecar carries the same object.
	tb.click("#export-csv-prov")
	csvSide := lastExport(tb, "tasks.csv"+experiment.ProvenanceSuffix, 10*time.Second)
	var sideDoc struct {
		Schema, File string
	}
	if err := json.Unmarshal([]byte(csvSide), &sideDoc); err != nil || sideDoc.Schema != experiment.ProvenanceSchema || sideDoc.File != "tasks.csv" {
		t.Fatalf("tasks.csv sidecar (%v):\n%.400s", err, csvSide)
	}
	if got := provenanceOf(t, "tasks.csv sidecar", csvSide); !reflect.DeepEqual(got, prov) {
		t.Fatalf("the tasks.csv sidecar's provenance differs from metrics.json's:\n%v\n%v", got, prov)
	}

	// The ftrace export: the same object on its comment line.
	tb.click("#export-ftrace")
	trace := lastExport(tb, "trace.txt", 60*time.Second)
	line := ""
	for _, l := range strings.Split(trace, "\n") {
		if s, ok := strings.CutPrefix(l, "# schedplay-provenance: "); ok {
			line = s
			break
		}
	}
	if got := provenanceOf(t, "trace.txt", `{"provenance":`+line+`}`); !reflect.DeepEqual(got, prov) {
		t.Fatalf("trace.txt provenance %v, metrics %v", got, prov)
	}

	// A sweep's sidecar: the changed key, the sweep, the CLI's bytes.
	tb.click("#toggle-sweep")
	tb.waitFor(`document.querySelector("#sweep-key1") !== null`, 10*time.Second)
	tb.change("#sweep-key1", "kernel.preempt")
	tb.change("#sweep-vals1", "voluntary,full")
	tb.change("#sweep-runs", "1")
	tb.change("#sweep-metric", "switches")
	tb.click("#run-sweep")
	tb.waitFor(`window.schedplay.sweep && window.schedplay.sweep.csv && !window.schedplay.sweep.running`, 120*time.Second)
	pageCSV := eval[string](tb, `window.schedplay.sweep.csv`)
	tb.click("#sweep-prov")
	side := lastExport(tb, "sweep.csv"+experiment.ProvenanceSuffix, 10*time.Second)
	sprov := provenanceOf(t, "sweep sidecar", side)
	if !setHas(sprov, "kernel.hz=1000") || !strings.Contains(side, `"kernel.preempt=voluntary,full"`) {
		t.Fatalf("the sweep's sidecar does not name kernel.hz=1000 and the sweep:\n%s", side)
	}
	dir := t.TempDir()
	sargs := shellFields(t, sprov["command"].(string))
	for i, a := range sargs {
		if a == "sweep.csv" {
			sargs[i] = filepath.Join(dir, "sweep.csv")
		}
	}
	cliRun(t, sargs[1:]...)
	csv, _ := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	cliSide, _ := os.ReadFile(filepath.Join(dir, "sweep.csv"+experiment.ProvenanceSuffix))
	if string(csv) != pageCSV {
		t.Fatalf("the sidecar's command gives another CSV:\n%s\n---\n%s", csv, pageCSV)
	}
	if want := provenanceOf(t, "CLI sidecar", string(cliSide)); !reflect.DeepEqual(sprov, want) {
		t.Fatalf("the page's sweep provenance differs from the CLI's:\n%v\n%v", sprov, want)
	}
}

// sameButBuild compares two thread Markdowns but for their last line, the
// build that made each (experiment.BuildLinePrefix): the page's and the
// CLI's binaries name their own, and both must have it.
func sameButBuild(page, cli string) bool {
	cut := func(s string) (string, bool) {
		i := strings.LastIndex(s, "\n"+experiment.BuildLinePrefix)
		if i < 0 || strings.Count(s[i+1:], "\n") != 1 {
			return s, false
		}
		return s[:i+1], true
	}
	p, okp := cut(page)
	c, okc := cut(cli)
	return okp && okc && p == c
}
