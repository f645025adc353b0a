package sched

// v3.11's calc_delta_mine() rounding, seen in a schedule: two nice-0 hogs on
// one CPU at HZ=1000.
//
// docs/kernel-rules.md §2.2/§7.1: on 64-bit 3.x, inv_weight of a runqueue
// load is WMULT_CONST / w with WMULT_CONST = 1UL << 32, and SRR rounds half
// up. The ideal slice of each of two nice-0 tasks is then
// SRR(SRR(6ms * 1024, 16) * (2^32 / 2048), 16) = 3000000 ns exactly, so
// check_preempt_tick()'s "ran > ideal" is false at the 3ms tick (ran ==
// ideal; the vruntime spread is 0, not more than ideal either) and true at
// 4ms: the CPU changes hands every 4ms. (v5.8's truncating __calc_delta
// gives 2999998 and a 3ms rhythm: see testdata/cfs/tick_preemption.txt.)

import "testing"

func TestV311TwoHogsAtHZ1000SwitchEvery4ms(t *testing.T) {
	// Regression: with 0xFFFFFFFF/w as the inverse (the v4+ constant),
	// sched_slice was 2999999 and the CPU changed hands every 3ms.
	r := newRun(t).kernel("v3.11").hz(1000).duration(40 * Millisecond).
		task("a").cpus(0).run(Forever).
		task("b").cpus(0).run(Forever).
		build()
	r.runFor(40 * Millisecond)
	var times []Time
	for _, e := range r.rec.of(EvSwitch) {
		if e.Time > 0 {
			times = append(times, e.Time)
		}
	}
	for i, at := range times {
		if want := Time(i+1) * 4 * Millisecond; at != want {
			t.Fatalf("switch %d at %s, want %s (every 4ms); all: %v", i+1, at, want, times)
		}
	}
	if len(times) != 9 {
		t.Errorf("%d switches after t=0 in 40ms, want 9 (4ms, 8ms, ..., 36ms)", len(times))
	}
}
