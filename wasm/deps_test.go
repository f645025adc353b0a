//go:build !(js && wasm)

package main

// The page boundary as a test: the page's binary, built for the browser,
// imports no engine-only package (the runner, trace import and replay,
// the trace writers) and links no engine code, so the first load carries
// the engine once, in worker.wasm (docs/budgets.md). Without Web Workers
// the page runs worker.wasm on its own thread (enginelink_js.go). The
// page keeps core/sched's types and kernel tables (profiles, features,
// sysctls: what scenario validation reads), never the simulator.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// enginePackages are the packages only the engine's side needs.
var enginePackages = []string{"schedplay/wasm/runner", "schedplay/wasm/worker", "schedplay/core/replay",
	"schedplay/core/ftraceimport", "schedplay/core/trace/ftrace", "schedplay/core/trace/perfetto"}

func TestPageImportsNoEnginePackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		for _, e := range enginePackages {
			if d == e {
				t.Errorf("the page imports %s", d)
			}
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list gave %v", deps)
	}
}

// TestPageLinksNoEngine builds the page for the browser and reads the
// linker's reachability graph: no function of the simulator (sched.New,
// the methods of *sched.Sim) may be reachable.
func TestPageLinksNoEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the page for js/wasm")
	}
	cmd := exec.Command("go", "build", "-ldflags=-dumpdep", "-o", filepath.Join(t.TempDir(), "main.wasm"), ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%.2000s", err, out)
	}
	edges, bad := 0, map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		_, to, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		edges++
		if engineSymbol(to) && len(bad) < 20 {
			bad[line] = true
		}
	}
	if edges < 1000 {
		t.Fatalf("the linker printed %d edges: -dumpdep gave no graph?\n%.2000s", edges, out)
	}
	for line := range bad {
		t.Errorf("the page links the engine: %s", line)
	}
}

// engineSymbol reports whether a linker symbol is engine code (functions
// only: the type descriptors and stack maps the linker lists are data).
func engineSymbol(s string) bool {
	if strings.Contains(s, ".arginfo") || strings.Contains(s, ".stkobj") || strings.HasPrefix(s, "type:") {
		return false
	}
	for _, e := range enginePackages {
		if strings.HasPrefix(s, e+".") {
			return true
		}
	}
	return s == "schedplay/core/sched.New" || strings.HasPrefix(s, "schedplay/core/sched.(*Sim).")
}
