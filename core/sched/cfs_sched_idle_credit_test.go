package sched

// S5 (docs/VALIDATION.md) (seed/sched-idle-wakeup): the patch "sched/fair: avoid
// vruntime compensation for SCHED_IDLE task" (feature
// SCHED_IDLE_NO_SLEEPER_CREDIT) on v5.8 legacy CFS, HZ=250, 8 CPUs: a busy
// nice-0 task_other and a SCHED_IDLE task_idle that runs 1us every 16ms
// (absolute timer), both pinned to CPU 2.
//
// Derivation (docs/kernel-rules.md §2.3-2.8). On 8 CPUs the tunables scale
// by 1 + ilog2(8) = 4: sched_latency 24ms, min_granularity 3ms. With both
// tasks queued, task_other's ideal slice is __calc_delta(24ms, 1024, 1027)
// (~23.93ms). task_idle never preempts on wakeup (not SCHED_NORMAL); it runs
// when task_other's tick calls check_preempt_tick:
//   - without the patch it wakes at min_vruntime - latency/2 = O.v(w) - 12ms;
//     task_other (weight 1024: virtual = wall time) then leads it by
//     12ms + (T - w) at a tick T, and the vruntime-spread rule fires at the
//     first tick with 12ms + (T - w) > ideal, about 12ms after the wakeup;
//   - with the patch it is placed at min_vruntime, the spread starts at 0,
//     and task_idle waits until task_other's ran exceeds the ideal slice
//     (~24ms after task_other's pick): it gets the CPU less often and its
//     worst wakeup latency grows.

import "testing"

func s5Run(t *testing.T, patch bool, dur Time) *testRun {
	t.Helper()
	r := newRun(t).topology("smp-8").kernel("v5.8").hz(250).duration(dur).
		feature(SchedIdleNoSleeperCredit, patch).
		task("task_other").cpus(2).run(Forever).
		task("task_idle").policy(SchedIdle).cpus(2).run(Microsecond).timer("unique2", 16*Millisecond, TimerAbsolute).
		build()
	r.runFor(dur)
	return r
}

// wakeToRun pairs each wakeup of task id at or after from with the switch
// that next puts it on a CPU.
func wakeToRun(rec *recorder, id TaskID, from Time) (pairs [][2]Event) {
	var woken *Event
	for i := range rec.events {
		e := &rec.events[i]
		switch {
		case e.Kind == EvWakeup && e.Next == id && e.Time >= from:
			woken = e
		case e.Kind == EvSwitch && e.Next == id && woken != nil:
			pairs = append(pairs, [2]Event{*woken, *e})
			woken = nil
		}
	}
	return pairs
}

func TestS5SleeperCreditIs12msOn8CPUs(t *testing.T) {
	const (
		latency = 4 * 6 * Millisecond // 6ms * (1 + ilog2(8))
		credit  = latency / 2         // GENTLE_FAIR_SLEEPERS
		tick    = Second / 250
	)
	ideal := Time(refCalcDelta(int64(latency), 1024, 1024+3, 0))
	r := s5Run(t, false, 2*Second)
	idle := r.id("task_idle")
	pairs := wakeToRun(r.rec, idle, 100*Millisecond)
	if len(pairs) < 100 {
		t.Fatalf("only %d wakeups of task_idle in 1.9s, want one per 16ms period", len(pairs))
	}
	for _, p := range pairs {
		w, run := p[0].Time, p[1]
		want := (w/tick + 1) * tick
		for credit+(want-w) <= ideal {
			want += tick
		}
		if run.Time != want || run.Reason != ReasonTickVruntimeSpread {
			t.Errorf("task_idle woken at %s ran at %s (%s), want %s (tick_vruntime_spread: 12ms credit + %s > ideal %s)",
				w, run.Time, run.Reason, want, want-w, ideal)
		}
	}
}

func TestS5PatchDelaysTheIdleTask(t *testing.T) {
	const dur = 2 * Second
	without, with := s5Run(t, false, dur), s5Run(t, true, dur)
	runs := func(r *testRun) int { return len(r.rec.switchesIn(r.id("task_idle"))) }
	maxLat := func(r *testRun) Time {
		var m Time
		for _, p := range wakeToRun(r.rec, r.id("task_idle"), 100*Millisecond) {
			m = max(m, p[1].Time-p[0].Time)
		}
		return m
	}
	if a, b := runs(without), runs(with); b >= a {
		t.Errorf("task_idle got the CPU %d times with the patch and %d without: want fewer with it", b, a)
	}
	if a, b := maxLat(without), maxLat(with); b <= a {
		t.Errorf("task_idle's worst wakeup latency is %s with the patch and %s without: want longer with it", b, a)
	}
	// With the patch, no sleeper credit: task_idle is never behind by more
	// than task_other's slice, so only the ran > ideal rule lets it run.
	for _, p := range wakeToRun(with.rec, with.id("task_idle"), 100*Millisecond) {
		if p[1].Reason != ReasonTickIdealRuntime {
			t.Errorf("with the patch task_idle ran at %s by %s, want tick_ideal_runtime", p[1].Time, p[1].Reason)
		}
	}
}
