package ftraceimport

// Stats.Other is keyed by event names the input chooses: a trace naming a
// new event on every line keeps MaxOtherNames names and counts the rest.

import (
	"fmt"
	"strings"
	"testing"
)

// manyNames is a valid trace (one switch) with n lines of n distinct
// unknown events, each name given twice when twice.
func manyNames(n int, twice bool) string {
	var b strings.Builder
	b.WriteString(" a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n")
	for i := range n {
		fmt.Fprintf(&b, " b-2 [000] 1.%06d: ev_%d: x=1\n", i+1, i)
		if twice {
			fmt.Fprintf(&b, " b-2 [000] 1.%06d: ev_%d: x=2\n", i+1, i)
		}
	}
	return b.String()
}

func TestOtherNamesBounded(t *testing.T) {
	const n = 20000
	for _, twice := range []bool{false, true} {
		tr, err := Import(strings.NewReader(manyNames(n, twice)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := tr.Stats
		per := 1
		if twice {
			per = 2
		}
		if len(st.Other) != MaxOtherNames {
			t.Fatalf("twice=%v: %d names in Stats.Other, want %d", twice, len(st.Other), MaxOtherNames)
		}
		total := st.OtherMore
		for i := range MaxOtherNames { // the first names met are the ones kept
			name := fmt.Sprintf("ev_%d", i)
			if st.Other[name] != per {
				t.Errorf("twice=%v: Other[%s] = %d, want %d", twice, name, st.Other[name], per)
			}
			total += st.Other[name]
		}
		if total != n*per || st.OtherMore != (n-MaxOtherNames)*per {
			t.Errorf("twice=%v: %d entries counted (%d past the names), want %d (%d)", twice, total, st.OtherMore, n*per, (n-MaxOtherNames)*per)
		}
	}
	// Under the bound nothing is cut.
	tr, err := Import(strings.NewReader(manyNames(MaxOtherNames, false)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Stats.Other) != MaxOtherNames || tr.Stats.OtherMore != 0 {
		t.Errorf("%d names: Other has %d, OtherMore %d", MaxOtherNames, len(tr.Stats.Other), tr.Stats.OtherMore)
	}
}
