package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPlacementCommand: one hog settles on a favoured P-core (ITMT asym
// packing), eight with SCHED_CLUSTER on use both E-core clusters.
func TestPlacementCommand(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"placement", "-tasks", "1,8", "-a", "features.SCHED_CLUSTER=off", "-b", "features.SCHED_CLUSTER=on"}
	if code := run(args, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rows []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "| 1 |") || strings.HasPrefix(l, "| 8 |") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("want rows for N=1 and N=8:\n%s", out.String())
	}
	one := strings.Split(rows[0], "|")
	if cpu := strings.TrimSpace(one[4]); cpu != "4" && cpu != "6" {
		t.Errorf("N=1 with SCHED_CLUSTER off: CPU %s, want a favoured P-core (4 or 6)", cpu)
	}
	eight := strings.Split(rows[1], "|")
	if cl := strings.TrimSpace(eight[6]); cl != "1+1" {
		t.Errorf("N=8 with SCHED_CLUSTER on: E clusters %s, want one task on each (1+1)", cl)
	}
}

func TestPlacementBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"placement", "-tasks", "0"},
		{"placement", "-tasks", "5-2"},
		{"placement", "-topology", "nope"},
		{"placement", "-a", "features.NOPE=on"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb.String())
		}
	}
}
