package sched

import (
	"flag"
	"testing"
)

var bugsFlag = flag.Bool("bugs", false, "run the tests of known simulator bugs instead of skipping them")

// skipBug marks a test that shows a known simulator bug: it is skipped with
// the explanation unless -bugs is given, so the failing check can be
// replayed (and seen to pass once the bug is fixed).
func skipBug(t testing.TB, why string) {
	t.Helper()
	if !*bugsFlag {
		t.Skip("BUG: " + why)
	}
}
