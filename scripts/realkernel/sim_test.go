//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeCLI is a stand-in for core/cmd/schedplay that prints fixed metrics.
const fakeCLI = `package main

import "fmt"

func main() {
	fmt.Println(` + "`" + `{"schema": "schedplay.metrics/v1", "kernel": "v6.18", "duration_ns": 2000000000,
  "tasks": [
    {"name": "nice0-0", "runtime_ns": 1506000000, "switches": 125, "involuntary_switches": 125, "migrations": 0},
    {"name": "nice5-1", "runtime_ns": 494000000, "switches": 125, "involuntary_switches": 125, "migrations": 0}]}` + "`" + `)
}
`

// TestAddSim runs the simulator column against a fake CLI in a throwaway module,
// and against a module without the CLI (the "not available" path).
func TestAddSim(t *testing.T) {
	cs, err := selectCases("nice0-vs-nice5")
	if err != nil {
		t.Fatal(err)
	}
	m := &machineInfo{HZ: 250, Preempt: "none"}
	for _, withCLI := range []bool{true, false} {
		root := t.TempDir()
		write := func(name, text string) {
			path := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("go.mod", "module schedplay\n\ngo 1.26\n")
		if withCLI {
			write("core/cmd/schedplay/main.go", fakeCLI)
		}
		cr := caseResult{ID: cs[0].ID, CaseFile: "scripts/realkernel/cases/" + cs[0].ID + ".json"}
		for _, tk := range cs[0].tasks() {
			cr.Tasks = append(cr.Tasks, taskResult{Name: tk.Name})
		}
		if err := addSim(context.Background(), root, cs[0], &cr, m, 2*time.Second, false); err != nil {
			t.Fatal(err)
		}
		sc, err := os.ReadFile(filepath.Join(root, cr.CaseFile))
		if err != nil || !strings.Contains(string(sc), `"preempt": "none"`) || !strings.Contains(string(sc), `"duration": "2s"`) {
			t.Errorf("scenario file: %v\n%s", err, sc)
		}
		if !withCLI {
			if cr.SimError == "" || cr.Tasks[0].Sim != nil {
				t.Errorf("without CLI: want an error, got %+v", cr)
			}
			continue
		}
		if cr.SimError != "" {
			t.Fatalf("with fake CLI: %s", cr.SimError)
		}
		if got := cr.Tasks[0].SimSharePct; got < 75.29 || got > 75.31 || cr.Tasks[1].Sim.Switches != 125 {
			t.Errorf("with fake CLI: share %.2f, tasks %+v", got, cr.Tasks)
		}
		md := results{Cases: []caseResult{cr}}.markdown()
		if !strings.Contains(md, "| nice0-0 | 0.0 | 75.3 |") || !strings.Contains(md, "switch count ratio sim/real") {
			t.Errorf("markdown:\n%s", md)
		}
	}
}
