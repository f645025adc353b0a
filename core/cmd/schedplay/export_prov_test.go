package main

// Provenance in exports (docs/cli.md "Provenance in exports"): every
// export names its configuration, the same object wherever it appears,
// whose command reruns the export to the same bytes, while every byte the
// exports had before stays as it was.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

const provPreset = "demo/periodic-vs-hog"

// readRecord decodes a provenance object.
func readRecord(t *testing.T, what string, raw json.RawMessage) scenario.Record {
	t.Helper()
	var r scenario.Record
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: provenance %s: %v", what, raw, err)
	}
	return r
}

// commandArgs splits a regenerate command into the CLI's arguments
// (after "schedplay"), undoing ShellQuote's single quotes.
func commandArgs(t *testing.T, cmd string) []string {
	t.Helper()
	out, err := scenario.ShellFields(cmd)
	if err != nil || len(out) < 2 || out[0] != "schedplay" {
		t.Fatalf("command %q: %v", cmd, err)
	}
	return out[1:]
}

func TestRunExportsCarryProvenance(t *testing.T) {
	dir := t.TempDir()
	m, tr, pf := filepath.Join(dir, "m.json"), filepath.Join(dir, "t.txt"), filepath.Join(dir, "p.json")
	runJSON(t, "run", "-preset", provPreset, "-set", "kernel.hz=1000", "-seed", "3", "-duration", "200ms",
		"-metrics", m, "-trace", tr, "-perfetto", pf)
	mb, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Provenance json.RawMessage `json:"provenance"`
	}
	if err := json.Unmarshal(mb, &doc); err != nil {
		t.Fatal(err)
	}
	rec := readRecord(t, "metrics", doc.Provenance)

	// The configuration, as the CLI applied it.
	sc, err := scenario.Preset(provPreset)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range []string{"kernel.hz=1000", "seed=3", "duration=200ms"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	sum := sha256.Sum256(sc.Encode())
	if rec.Preset != provPreset || rec.Scenario != provPreset || rec.Kernel != sc.Kernel.Version || rec.Topology != sc.Topology ||
		!reflect.DeepEqual(rec.Seeds, []uint64{3}) || rec.ScenarioSHA256 != hex.EncodeToString(sum[:]) || rec.Schedplay == "" || rec.Other {
		t.Errorf("metrics provenance %+v", rec)
	}
	for _, kv := range []string{"kernel.hz=1000", "seed=3", "duration=200ms"} {
		if !strings.Contains(" "+strings.Join(rec.Set, " ")+" ", " "+kv+" ") {
			t.Errorf("provenance set %q does not name %s", rec.Set, kv)
		}
	}

	// Before the provenance, the document is the report's bytes as they
	// were (the behaviour lock's metrics encoding).
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metrics.Run(cfg, sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(mb), strings.TrimSuffix(string(plain), "\n}")+",\n  \"provenance\": {") {
		t.Errorf("the metrics JSON changed before its provenance:\n%.600s", mb)
	}

	// The ftrace text: one comment line after the header, the same object.
	tb, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	var provLine string
	header := true
	for _, l := range strings.Split(string(tb), "\n") {
		if strings.HasPrefix(l, "# schedplay-provenance: ") {
			if !header || provLine != "" {
				t.Fatalf("provenance line out of place or twice: %q", l)
			}
			provLine = strings.TrimPrefix(l, "# schedplay-provenance: ")
		}
		if !strings.HasPrefix(l, "#") {
			header = false
		}
	}
	if got := readRecord(t, "ftrace", json.RawMessage(provLine)); !reflect.DeepEqual(got, rec) {
		t.Errorf("ftrace provenance %+v, metrics %+v", got, rec)
	}
	// Kernel trace readers skip it: the import reads the file strictly.
	runJSON(t, "trace-metrics", "-strict", "-o", "json", tr)

	// The Perfetto JSON: in its metadata.
	pb, err := os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	var pd struct {
		Metadata struct {
			Generator  string          `json:"generator"`
			Provenance json.RawMessage `json:"provenance"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(pb, &pd); err != nil {
		t.Fatal(err)
	}
	if got := readRecord(t, "perfetto", pd.Metadata.Provenance); pd.Metadata.Generator != "schedplay" || !reflect.DeepEqual(got, rec) {
		t.Errorf("perfetto metadata %s %+v, metrics %+v", pd.Metadata.Generator, got, rec)
	}

	// The command reruns the export to the same bytes.
	m2 := filepath.Join(dir, "m2.json")
	runJSON(t, append(commandArgs(t, rec.Command), "-metrics", m2)...)
	if again, _ := os.ReadFile(m2); string(again) != string(mb) {
		t.Errorf("%s -metrics gives other metrics:\n%s\n---\n%s", rec.Command, again, mb)
	}
}

func TestSweepCSVProvenanceSidecar(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "sweep.csv")
	args := []string{"sweep", "-preset", provPreset, "-set", "kernel.preempt=full", "-duration", "200ms", "-runs", "2",
		"-sweep", "kernel.hz=100,1000", "-metric", "share,switches"}
	runJSON(t, withFlags(args, "-csv", csvPath)...)
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	// The CSV is the plain table it was: what -csv - prints.
	if plain := runJSON(t, withFlags(args, "-csv", "-")...); plain != string(data) || strings.HasPrefix(string(data), "#") {
		t.Errorf("the CSV file differs from -csv -:\n%s\n---\n%s", data, plain)
	}
	side, err := os.ReadFile(csvPath + experiment.ProvenanceSuffix)
	if err != nil {
		t.Fatalf("no sidecar: %v", err)
	}
	var pf struct {
		Schema     string               `json:"schema"`
		File       string               `json:"file"`
		Provenance json.RawMessage      `json:"provenance"`
		Sweep      experiment.SweepSpec `json:"sweep"`
	}
	if err := json.Unmarshal(side, &pf); err != nil {
		t.Fatal(err)
	}
	rec := readRecord(t, "sidecar", pf.Provenance)
	if pf.Schema != experiment.ProvenanceSchema || pf.File != "sweep.csv" || rec.Preset != provPreset ||
		!strings.Contains(strings.Join(rec.Set, " "), "kernel.preempt=full") || !reflect.DeepEqual(rec.Seeds, []uint64{1, 2}) ||
		!reflect.DeepEqual(pf.Sweep.Axes, []string{"kernel.hz=100,1000"}) || pf.Sweep.Runs != 2 {
		t.Errorf("sidecar %s", side)
	}
	// Its command, run in another directory, writes the same CSV and sidecar.
	other := t.TempDir()
	cargs := commandArgs(t, rec.Command)
	for i, a := range cargs {
		if a == "sweep.csv" {
			cargs[i] = filepath.Join(other, "sweep.csv")
		}
	}
	runJSON(t, cargs...)
	if again, _ := os.ReadFile(filepath.Join(other, "sweep.csv")); string(again) != string(data) {
		t.Errorf("%s gives another CSV", rec.Command)
	}
	if again, _ := os.ReadFile(filepath.Join(other, "sweep.csv"+experiment.ProvenanceSuffix)); string(again) != string(side) {
		t.Errorf("%s gives another sidecar:\n%s\n---\n%s", rec.Command, again, side)
	}
	// A sharded sweep merges to the same CSV and sidecar.
	parts := shardAll(t, t.TempDir(), 3, args...)
	merged := filepath.Join(t.TempDir(), "sweep.csv")
	mergeOut(t, parts, "-csv", merged)
	if got, _ := os.ReadFile(merged + experiment.ProvenanceSuffix); string(got) != string(side) {
		t.Errorf("merged sidecar differs:\n%s\n---\n%s", got, side)
	}
}

func TestCompareAndThreadProvenance(t *testing.T) {
	out := runJSON(t, append([]string{"compare", "-preset", s5, "-set", "kernel.hz=1000", "-runs", "2", "-o", "json"}, s5AB...)...)
	var cd struct {
		Seeds      []uint64        `json:"seeds"`
		Provenance json.RawMessage `json:"provenance"`
	}
	if err := json.Unmarshal([]byte(out), &cd); err != nil {
		t.Fatal(err)
	}
	rec := readRecord(t, "compare", cd.Provenance)
	if rec.Preset != s5 || !reflect.DeepEqual(rec.Set, []string{"kernel.hz=1000"}) || !reflect.DeepEqual(rec.Seeds, cd.Seeds) ||
		!strings.Contains(rec.Command, "-b features.SCHED_IDLE_NO_SLEEPER_CREDIT=on") {
		t.Errorf("compare provenance %+v", rec)
	}
	if again := runJSON(t, append(commandArgs(t, rec.Command), "-o", "json")...); again != out {
		t.Errorf("%s gives another table", rec.Command)
	}
	md := runJSON(t, append([]string{"compare", "-preset", s5, "-set", "kernel.hz=1000", "-runs", "2", "-o", "markdown"}, s5AB...)...)
	if !strings.Contains(md, "Regenerate: `"+rec.Command+"`. "+experiment.BuildLinePrefix+"`"+rec.Schedplay+"`.") {
		t.Errorf("compare Markdown without its provenance line:\n%s", md)
	}

	th := runJSON(t, "compare", "-preset", seedS5, "-set", "kernel.hz=1000", "-runs", "1", "-o", "json")
	var td struct {
		Seeds      []uint64        `json:"seeds"`
		Provenance json.RawMessage `json:"provenance"`
	}
	if err := json.Unmarshal([]byte(th), &td); err != nil {
		t.Fatal(err)
	}
	trec := readRecord(t, "thread", td.Provenance)
	if trec.Preset != seedS5 || !reflect.DeepEqual(trec.Set, []string{"kernel.hz=1000"}) || !reflect.DeepEqual(trec.Seeds, td.Seeds) {
		t.Errorf("thread provenance %+v", trec)
	}
	tmd := runJSON(t, "compare", "-preset", seedS5, "-set", "kernel.hz=1000", "-runs", "1", "-o", "markdown")
	if !strings.HasSuffix(tmd, "\n"+experiment.BuildLinePrefix+"`"+trec.Schedplay+"`.\n") {
		t.Errorf("thread Markdown does not end with the build:\n%s", tmd)
	}
	// validate's Markdown, a document of many reports, does not repeat it.
	if v := runJSON(t, "validate", "-runs", "1", "-o", "markdown", seedS5); strings.Contains(v, experiment.BuildLinePrefix) {
		t.Errorf("validate Markdown names the build per report")
	}
}
