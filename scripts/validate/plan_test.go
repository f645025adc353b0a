package main

import (
	"strings"
	"testing"
)

// TestPlanSkipRealkernelSkipsRecording: -skip-realkernel must leave both
// root-only harnesses (and the docs they rewrite) alone, and say so.
func TestPlanSkipRealkernelSkipsRecording(t *testing.T) {
	for _, c := range []struct {
		skipRK, skipReplay     bool
		measure, record        bool
		flag                   string
		mentions, notMentioned []string
	}{
		{false, false, true, true, "", nil, []string{"skipping"}},
		{true, false, false, false, "-skip-realkernel",
			[]string{"real-kernel measurement", "trace recording", "-skip-realkernel", "docs/real-kernel.md", "docs/replay-fidelity.md"},
			[]string{"-skip-replay"}},
		{false, true, true, false, "-skip-replay",
			[]string{"trace recording", "-skip-replay", "docs/replay-fidelity.md"},
			[]string{"real-kernel measurement", "-skip-realkernel"}},
		{true, true, false, false, "-skip-replay",
			[]string{"real-kernel measurement", "trace recording", "-skip-realkernel -skip-replay"}, nil},
	} {
		p := planFor(c.skipRK, c.skipReplay)
		if p.measureRK != c.measure || p.recordReplay != c.record || p.replayFlag != c.flag {
			t.Errorf("planFor(skipRK=%v, skipReplay=%v) = %+v, want measureRK=%v recordReplay=%v replayFlag=%q",
				c.skipRK, c.skipReplay, p, c.measure, c.record, c.flag)
		}
		msg := p.skipped()
		for _, w := range c.mentions {
			if !strings.Contains(msg, w) {
				t.Errorf("planFor(%v, %v).skipped() = %q, want it to mention %q", c.skipRK, c.skipReplay, msg, w)
			}
		}
		for _, w := range c.notMentioned {
			if strings.Contains(msg, w) {
				t.Errorf("planFor(%v, %v).skipped() = %q, should not mention %q", c.skipRK, c.skipReplay, msg, w)
			}
		}
	}
}
