package main

// The Makefile's CLI names its commit in every export's provenance
// (scenario.BuildVersion), also where Go stamps no VCS information
// (GOFLAGS=-buildvcs=false, as on machines that build outside a checkout).

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMakefileBuildNamesCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI with make")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	commit := strings.TrimSpace(string(head))
	bin := filepath.Join(t.TempDir(), "schedplay")
	mk := exec.Command("make", "--no-print-directory", "-C", root, "build", "BIN="+bin)
	mk.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "run", "-preset", "demo/periodic-vs-hog", "-duration", "10ms", "-o", "json").Output()
	if err != nil {
		t.Fatalf("schedplay run -o json: %v", err)
	}
	var doc struct {
		Provenance struct {
			Schedplay string `json:"schedplay"`
		} `json:"provenance"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("run -o json: %v", err)
	}
	if got := doc.Provenance.Schedplay; !strings.Contains(got, commit) || strings.Contains(got, "(devel)") {
		t.Fatalf("provenance.schedplay = %q, want the commit %s (git describe --always --dirty)", got, commit)
	}
}
