package main

import (
	"testing"

	"schedplay/core/scenario"
)

// seed/newidle-rt-latency's 44 task groups show as three rows (cyclictest,
// the hackbench family, the kbuild family); opening a family shows its
// groups in scenario order, and a pair sharing a stem stays two rows.
func TestWorkloadFamilies(t *testing.T) {
	sc, err := scenario.Preset("seed/newidle-rt-latency")
	if err != nil {
		t.Fatal(err)
	}
	c := &Workload{App: &App{Sc: sc}}
	fs := c.families()
	var heads []string
	for _, f := range fs {
		heads = append(heads, f.Family)
	}
	if len(fs) != 3 || fs[0].Family != "" || fs[0].Groups[0].Name != "cyclictest" || fs[1].Family != "hackbench" || fs[2].Family != "kbuild" {
		t.Fatalf("families %q: want cyclictest alone, then hackbench and kbuild", heads)
	}
	if n := len(fs[1].Groups); n != 36 || fs[1].shown() != nil || fs[1].familyHead() != "▸ hackbench* (36 groups)" {
		t.Fatalf("hackbench family: %d groups, head %q, shown %d closed", n, fs[1].familyHead(), len(fs[1].shown()))
	}
	if fs[2].Groups[6].Name != "kbuild_ld" || len(fs[2].Groups) != 7 {
		t.Fatalf("kbuild family %d groups, last %q", len(fs[2].Groups), fs[2].Groups[len(fs[2].Groups)-1].Name)
	}
	c.toggleFamily("hackbench")
	fs = c.families()
	if sh := fs[1].shown(); len(sh) != 36 || sh[0].Name != "hackbench0_snd" || sh[35].Name != "hackbench17_rcv" || sh[0].Index != 1 {
		t.Fatalf("open hackbench family shows %d groups", len(sh))
	}
	if fs[2].Open {
		t.Fatal("opening one family opened another")
	}

	pair, err := scenario.Decode([]byte(`{"version":1,"tasks":[{"name":"hog","program":[{"run":-1}]},{"name":"hog_nice5","nice":5,"program":[{"run":-1}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if fs := (&Workload{App: &App{Sc: pair}}).families(); len(fs) != 2 || fs[0].Family != "" || fs[1].Family != "" {
		t.Fatalf("two groups with one stem: %d rows", len(fs))
	}
}
