package sched_test

import (
	"testing"

	"schedplay/core/sched"
)

// exitTime is when the last task exited.
func exitTime(evs []sched.Event) sched.Time {
	var at sched.Time
	for _, e := range evs {
		if e.Kind == sched.EvExit {
			at = e.Time
		}
	}
	return at
}

// NOHZ_RATELIMIT on top of the 2013 hrtimer patch (S4 in docs/VALIDATION.md: "changed
// nothing measurable"): with the patch a tick stop and restart inside a
// jiffy program no clock event (tick_nohz.go), so keeping the tick saves
// only the stop and restart bookkeeping, at most hw.tick_restart_ns per
// wakeup on the critical path. Without the patch it still saves the four
// LAPIC timer writes of each idle period.
func TestNohzRatelimitAfterHrtimerPatch(t *testing.T) {
	const loops = 2000 // pingPong's
	run := func(patch, ratelimit bool) (sched.Time, *sched.Sim) {
		s, k, _ := pingPongWith(t, "v3.11", func(c *sched.Config) {
			c.Profile.Features = c.Profile.Features.With(sched.HrtimerNoReprogramOnRemove, patch).With(sched.NohzRatelimit, ratelimit)
		})
		at := exitTime(k.evs)
		if at == 0 {
			t.Fatalf("patch=%v ratelimit=%v: the tasks did not finish", patch, ratelimit)
		}
		return at, s
	}
	patched, s := run(true, false)
	limited, _ := run(true, true)
	restart, ce := s.Config().HW.TickRestart, s.Config().HW.ClockEventNs
	// Bookkeeping of every restart, plus one write per CPU and jiffy for an
	// idle period that crosses the old tick.
	jiffies := int64(patched)*int64(s.Config().Profile.HZ)/int64(sched.Second) + 1
	if limit := 2*loops*restart + 2*jiffies*ce; patched-limited < 0 || int64(patched-limited) > limit {
		t.Errorf("ratelimit on top of the patch: %s -> %s (saved %s), want 0 .. %d ns (the restarts' bookkeeping)", patched, limited, patched-limited, limit)
	}
	unpatched, _ := run(false, false)
	unpatchedLimited, _ := run(false, true)
	if saved := unpatched - unpatchedLimited; int64(saved) < 2*loops*2*ce {
		t.Errorf("ratelimit without the patch: %s -> %s (saved %s), want at least the restarts' clock-event writes %d ns", unpatched, unpatchedLimited, saved, 2*loops*2*ce)
	}
}
