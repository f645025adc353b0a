package main

import (
	"encoding/json"
	"strings"
	"testing"

	"schedplay/core/rtapp"
	"schedplay/core/scenario"
)

// TestWarningSpeaksPage: a warning about the machine names the page's
// controls, not the CLI's flags, and goes once the machine changes; a
// warning about nothing the page sets stays.
func TestWarningSpeaksPage(t *testing.T) {
	sc, err := scenario.Preset("demo/sched-idle-wakeup-cfs")
	if err != nil {
		t.Fatal(err)
	}
	ws := []rtapp.Warning{
		{Msg: "using topology smp-4 and kernel v6.18", Keys: []string{"topology", "kernel.version"}, Hint: "override with -topology and -kernel"},
		{Path: "global", Msg: "ignored: calibration"},
	}
	a := &App{Sc: sc}
	a.Warnings = newWarnings("import", ws, sc)
	if l := a.Warnings.Lines[0]; strings.Contains(l, "-topology") || !strings.Contains(l, "Machine select") {
		t.Fatalf("warning %q: want the page's controls", l)
	}
	a.pruneWarnings()
	if len(a.Warnings.Lines) != 2 {
		t.Fatalf("unchanged scenario: %d warnings left, want 2", len(a.Warnings.Lines))
	}
	if err := sc.Set("topology=smp-2"); err != nil {
		t.Fatal(err)
	}
	a.pruneWarnings()
	if a.Warnings == nil || len(a.Warnings.Lines) != 1 || !strings.Contains(a.Warnings.Lines[0], "calibration") {
		t.Fatalf("after the machine changed: %+v, want the calibration warning alone", a.Warnings)
	}
}

// TestRunOriginCommand: the command names the preset and the -set flags,
// or the scenario file when no -set can say the difference.
func TestRunOriginCommand(t *testing.T) {
	sc, _ := scenario.Preset("demo/sched-idle-wakeup-cfs")
	if err := sc.Set("kernel.hz=1000"); err != nil {
		t.Fatal(err)
	}
	o := newOrigin(sc)
	if got := o.command("run", ""); got != "schedplay run -preset demo/sched-idle-wakeup-cfs -set kernel.hz=1000" {
		t.Errorf("command %q", got)
	}
	if got := o.from(); got != "demo/sched-idle-wakeup-cfs (modified: kernel.hz=1000)" {
		t.Errorf("from %q", got)
	}
	sc.Tasks[0].Nice = 4
	if got := newOrigin(sc).command("run", ""); got != "schedplay run scenario.json" {
		t.Errorf("a task group edited: command %q, want the scenario file", got)
	}
}

// TestTasksCSVSidecar: the tasks.csv sidecar is the sweep's format
// naming tasks.csv and the run's configuration.
func TestTasksCSVSidecar(t *testing.T) {
	sc, _ := scenario.Preset("demo/sched-idle-wakeup-cfs")
	if err := sc.Set("kernel.hz=1000"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema     string           `json:"schema"`
		File       string           `json:"file"`
		Provenance *scenario.Record `json:"provenance"`
		Sweep      any              `json:"sweep"`
	}
	if err := json.Unmarshal(tasksCSVSidecar(scenario.NewRecord(sc, []uint64{sc.Seed}, "run")), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Provenance
	if doc.Schema != "schedplay.provenance/v1" || doc.File != "tasks.csv" || doc.Sweep != nil || p == nil {
		t.Fatalf("sidecar %+v", doc)
	}
	if p.Preset != "demo/sched-idle-wakeup-cfs" || len(p.Set) != 1 || p.Set[0] != "kernel.hz=1000" ||
		p.Command != "schedplay run -preset demo/sched-idle-wakeup-cfs -set kernel.hz=1000" {
		t.Errorf("provenance %+v", p)
	}
}
