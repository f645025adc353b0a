package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayMetricsProvenance: replay -metrics carries a provenance that
// names the trace by its SHA-256 and the replay's own flags, and whose
// command, rerun, writes the same metrics.
func TestReplayMetricsProvenance(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pp.trace")
	trace := []byte(pingPongTrace(200))
	if err := os.WriteFile(path, trace, 0o644); err != nil {
		t.Fatal(err)
	}
	m1 := filepath.Join(dir, "m1.json")
	var out, errb bytes.Buffer
	if rc := run([]string{"replay", "-kernel", "v6.6", "-set", "seed=5", "-pin", "seen", "-metrics", m1, "-b", "kernel.hz=1000", path}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	data, err := os.ReadFile(m1)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Provenance *struct {
			Preset      string   `json:"preset"`
			Set         []string `json:"set"`
			Seeds       []uint64 `json:"seeds"`
			Kernel      string   `json:"kernel"`
			Trace       string   `json:"trace"`
			TraceSHA256 string   `json:"trace_sha256"`
			Command     string   `json:"command"`
		} `json:"provenance"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Provenance
	if p == nil {
		t.Fatalf("no provenance in\n%s", data)
	}
	sum := sha256.Sum256(trace)
	if p.TraceSHA256 != hex.EncodeToString(sum[:]) || p.Trace != path {
		t.Errorf("trace %q sha256 %q, want %q %x", p.Trace, p.TraceSHA256, path, sum)
	}
	if p.Preset != "" || len(p.Set) != 1 || p.Set[0] != "seed=5" || len(p.Seeds) != 1 || p.Seeds[0] != 5 || p.Kernel != "v6.6" {
		t.Errorf("provenance %+v: want no preset, set [seed=5], seeds [5], kernel v6.6", p)
	}
	want := "schedplay replay -kernel v6.6 -set seed=5 -pin seen " + path
	if p.Command != want {
		t.Fatalf("command %q, want %q", p.Command, want)
	}
	// The command reruns the replay: the same metrics, provenance included.
	m2 := filepath.Join(dir, "m2.json")
	fields := strings.Fields(strings.TrimPrefix(p.Command, "schedplay "))
	args := append(fields[:len(fields)-1:len(fields)-1], "-metrics", m2, fields[len(fields)-1])
	if rc := run(args, nil, &out, &errb); rc != 0 {
		t.Fatalf("rerun %q: rc %d: %s", args, rc, errb.String())
	}
	again, err := os.ReadFile(m2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Errorf("the command's rerun wrote other metrics")
	}
}
