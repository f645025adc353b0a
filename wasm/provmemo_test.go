package main

import (
	"reflect"
	"testing"

	"schedplay/core/scenario"
)

// The memo's comparisons are scenario.Compare's and ProvenanceOf's: for
// the unmodified preset (no Compare run), a changed key, a changed field
// no key names, and the same pair again (from the memo); a caller's
// append does not reach the memo.
func TestCompareMemoIsCompare(t *testing.T) {
	base, err := scenario.Preset("seed/newidle-rt-latency")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(sc *scenario.Scenario)) *scenario.Scenario {
		sc, err := scenario.Preset("seed/newidle-rt-latency")
		if err != nil {
			t.Fatal(err)
		}
		f(sc)
		return sc
	}
	same := edit(func(*scenario.Scenario) {})
	key := edit(func(sc *scenario.Scenario) {
		if err := sc.Set("duration=100ms"); err != nil {
			t.Fatal(err)
		}
	})
	other := edit(func(sc *scenario.Scenario) { sc.Description = "another" })
	var m compareMemo
	for _, sc := range []*scenario.Scenario{same, key, key, other, same, other} {
		want := scenario.Compare(base, sc)
		if got := m.compare(base, sc); !reflect.DeepEqual(got, want) {
			t.Fatalf("memo %+v, Compare %+v", got, want)
		}
		if got, want := m.provenanceOf(sc), scenario.ProvenanceOf(sc); !reflect.DeepEqual(got, want) {
			t.Fatalf("memo %+v, ProvenanceOf %+v", got, want)
		}
	}
	if p := m.compare(base, key); len(p.Diff) == 0 {
		t.Fatal("a changed duration compares as unmodified")
	} else {
		_ = append(p.Diff, scenario.KeyDiff{Key: "x"})
		if q := m.compare(base, key); !reflect.DeepEqual(q, scenario.Compare(base, key)) {
			t.Fatal("an append to a returned Diff changed the memo")
		}
	}
}
