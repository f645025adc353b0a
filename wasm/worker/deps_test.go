//go:build !(js && wasm)

package main

// The worker boundary as a test: the worker's binary, built for the
// browser, holds the engine and its runner only, never a package of the
// page (its view models, its JS door, Vugu), so a page change cannot grow
// or slow the worker and the worker cannot reach into the page.

import (
	"os/exec"
	"strings"
	"testing"
)

func TestWorkerImportsNoPagePackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, page := range []string{"schedplay/wasm/view", "schedplay/wasm/bridge", "github.com/vugu/", "github.com/hack-pad/safejs", "schedplay/wasm"} {
		for _, d := range deps {
			if d == page || (strings.HasSuffix(page, "/") && strings.HasPrefix(d, page)) {
				t.Errorf("the worker imports %s", d)
			}
		}
	}
	found := false
	for _, d := range deps {
		found = found || d == "schedplay/wasm/runner"
	}
	if !found {
		t.Fatalf("the worker does not import wasm/runner: %v", deps)
	}
}
