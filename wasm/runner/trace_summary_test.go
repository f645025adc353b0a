package runner

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
)

// TestTraceSummaryBoundsOtherEvents: a trace naming a thousand long,
// distinct events gives a summary with at most ftraceimport.MaxOtherNames
// clipped names and the count of the rest.
func TestTraceSummaryBoundsOtherEvents(t *testing.T) {
	var b strings.Builder
	b.WriteString(" a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n")
	const n = 1000
	long := strings.Repeat("e", 500)
	for i := range n {
		fmt.Fprintf(&b, " b-2 [000] 1.%06d: %s_%04d: x=1\n", i+1, long, i)
	}
	tr, err := ftraceimport.Import(strings.NewReader(b.String()), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := TraceSummary(tr)
	if want := fmt.Sprintf("and %d more lines of other events", n-ftraceimport.MaxOtherNames); !strings.Contains(s, want) {
		t.Errorf("summary lacks %q: %.300s", want, s)
	}
	if strings.Contains(s, long) {
		t.Errorf("summary quotes a 500-byte event name whole")
	}
	if max := ftraceimport.MaxOtherNames*120 + 500; len(s) > max {
		t.Errorf("summary of %d bytes, want at most %d", len(s), max)
	}
}
