//go:build linux

package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// passTrace builds trace text: a real-style release (time zero at the
// first mix wakeup, 100.000000 s), then softirq entries and migrations at
// the given offsets in ms. Each item is "S CPU MS" (softirq), "M CPU MS
// COMM" (migration onto CPU) or "W CPU MS COMM" (a wakeup).
func passTrace(items ...string) string {
	pids := map[string]int{}
	pid := func(comm string) int {
		if pids[comm] == 0 {
			pids[comm] = 7570 + len(pids)
		}
		return pids[comm]
	}
	var b strings.Builder
	b.WriteString("# tracer: nop\n#\n")
	for _, it := range items {
		var kind, comm string
		var cpu int
		var ms float64
		fmt.Sscan(it, &kind, &cpu, &ms, &comm)
		ts := 100 + ms/1000
		switch kind {
		case "S":
			fmt.Fprintf(&b, "           hog-1-7572    [%03d] ..s.. %.6f: softirq_entry: vec=7 [action=SCHED]\n", cpu, ts)
		case "M":
			fmt.Fprintf(&b, "           hog-0-7571    [%03d] d.s1. %.6f: sched_migrate_task: comm=%s pid=%d prio=120 orig_cpu=%d dest_cpu=%d\n", cpu, ts, comm, pid(comm), 1-cpu, cpu)
		case "W":
			fmt.Fprintf(&b, "      realkernel-7565    [%03d] d..4. %.6f: sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d\n", cpu, ts, comm, pid(comm), cpu)
		}
	}
	return b.String()
}

func TestCountPasses(t *testing.T) {
	text := passTrace(
		"W 0 0 realkernel", // not a mix task: time zero is the next wakeup
		"W 0 10 hog-1",
		"W 1 20 hog-0", "W 1 30 rsa-3", // CPU 1 has two runnable mix tasks, CPU 0 one
		"S 0 500",  // before -passes-from (1 s after time zero): not counted
		"S 0 1010", // balanced: the next pass 60 ms later
		"S 0 1070", // imbalanced (28 ms), nothing pulled
		"S 0 1098", // imbalanced (32 ms), with a pull 0.2 ms after its entry
		"M 0 1098.2 rsb-4",
		"S 0 1130",             // balanced (60 ms)
		"S 0 1190",             // other (12 ms)
		"S 0 1202",             // the last pass: no next one to tell its outcome
		"S 1 1020", "S 1 1084", // CPU 1: balanced (64 ms)
		"M 1 1700 kworker/0:1", // not a mix task
		"M 1 1800 periodic-2",  // a second episode 700 ms later
		"M 0 1900 periodic-2",
	)
	recs, _, err := parseTrace(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := countPasses(recs, []string{"hog-", "periodic-", "rsa-", "rsb-"}, 1000e6)
	if err != nil {
		t.Fatal(err)
	}
	want := passCount{Passes: 6, Imbalanced: 2, Balanced: 3, Other: 1, Pulls: 1, Migrations: 3,
		Episodes: []episode{{From: 1088.2e6, To: 1088.2e6, N: 1}, {From: 1790e6, To: 1890e6, N: 2}}}
	if pc.Passes != want.Passes || pc.Imbalanced != want.Imbalanced || pc.Balanced != want.Balanced ||
		pc.Other != want.Other || pc.Pulls != want.Pulls || pc.Migrations != want.Migrations {
		t.Errorf("got %+v, want %+v", pc, want)
	}
	if len(pc.Episodes) != len(want.Episodes) {
		t.Fatalf("episodes %+v, want %+v", pc.Episodes, want.Episodes)
	}
	for i, e := range pc.Episodes {
		w := want.Episodes[i]
		if e.N != w.N || abs64(e.From-w.From) > 1000 || abs64(e.To-w.To) > 1000 {
			t.Errorf("episode %d: %+v, want %+v", i, e, w)
		}
	}
	// CPU 0's five passes with an outcome see 1 runnable mix task against
	// CPU 1's 2; CPU 1's one sees 2 against 1.
	if got := *pc.States[[2]int{1, 2}]; got != (stateCount{Passes: 5, Imbalanced: 2, Pulls: 1}) {
		t.Errorf("1 against 2: %+v, want 5 passes, 2 imbalanced, 1 pull", got)
	}
	if got := *pc.States[[2]int{2, 1}]; got != (stateCount{Passes: 1}) {
		t.Errorf("2 against 1: %+v, want 1 balanced pass", got)
	}
	// From 1 s: hog / hog+rsa for 88.2 ms, hog+rsa / hog+rsb (rsb-4 moved to
	// CPU 0) for 701.8 ms, then periodic-2 joins CPU 1 for 100 ms.
	if pc.Placement != "hog+rsa / hog+rsb" || math.Abs(pc.PlacementShare-701.8/890) > 1e-6 {
		t.Errorf("placement %q (%.4f), want hog+rsa / hog+rsb (%.4f)", pc.Placement, pc.PlacementShare, 701.8/890)
	}
	if len(pc.States) != 2 {
		t.Errorf("states %v, want only 1 against 2 and 2 against 1", pc.States)
	}
	if _, err := countPasses(recs, []string{"nosuch-"}, 0); err == nil || !strings.Contains(err.Error(), "nosuch-") {
		t.Errorf("no mix task: err %v, want one naming the prefix", err)
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestCountPassesByAge: a pass's state age is the time since either CPU's
// count of runnable mix tasks last changed.
func TestCountPassesByAge(t *testing.T) {
	text := passTrace(
		"W 0 0 hog-1",
		"W 1 10 hog-0", "W 1 20 rsa-3", // CPU 1 has 2 from 20 ms on
		"S 0 1000",         // 1 against 2, held 980 ms: >= 8 ms; imbalanced (28 ms)
		"W 1 1027.5 rsb-4", // CPU 1 has 3
		"S 0 1028",         // 1 against 3, held 0.5 ms: < 1 ms; balanced (60 ms)
		"S 1 1033",         // 3 against 1, held 5.5 ms: 4-8 ms
		"S 1 1063",         // CPU 1's next pass, 30 ms on: the one before was imbalanced
		"S 0 1088",         // the last pass of CPU 0
	)
	recs, _, err := parseTrace(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := countPasses(recs, []string{"hog-", "periodic-", "rsa-", "rsb-"}, 1000e6)
	if err != nil {
		t.Fatal(err)
	}
	want := map[ageKey]stateCount{
		{[2]int{1, 2}, 4}: {Passes: 1, Imbalanced: 1},
		{[2]int{1, 3}, 0}: {Passes: 1},
		{[2]int{3, 1}, 3}: {Passes: 1, Imbalanced: 1},
	}
	if len(pc.ByAge) != len(want) {
		t.Errorf("by age %v, want %v", pc.ByAge, want)
	}
	for k, w := range want {
		if got := pc.ByAge[k]; got == nil || *got != w {
			t.Errorf("%v: %v, want %+v", k, got, w)
		}
	}
	if ageLabel(0) != "< 1 ms" || ageLabel(1) != "1-2 ms" || ageLabel(4) != ">= 8 ms" {
		t.Errorf("labels %q %q %q", ageLabel(0), ageLabel(1), ageLabel(4))
	}
}
