package sched

// rt-app timers and sleeps (exec.go; rt-app src/rt-app.c run_event();
// kernel hrtimer_nanosleep() with timer slack, docs/kernel-rules.md §5),
// checked from the EvWakeup events.
//
// rt-app "timer": t_next += period; if now < t_next, clock_nanosleep(ABS,
// t_next); otherwise (overrun) no sleep, and in relative mode t_next = now.
// A sleep of a SCHED_OTHER task may expire anywhere in [t, t + slack]: on an
// idle CPU (tick stopped) at t + slack, the hard expiry; earlier when another
// hrtimer interrupt, such as the tick, lands in the window.

import (
	"slices"
	"testing"
)

// wakeTimes returns the times task id was woken (EvWakeup), with reasons.
func (r *testRun) wakeTimes(id TaskID) (times []Time, reasons []Reason) {
	for _, e := range r.rec.of(EvWakeup) {
		if e.Next == id {
			times = append(times, e.Time)
			reasons = append(reasons, e.Reason)
		}
	}
	return times, reasons
}

func overrunRun(t *testing.T, mode TimerMode, slack Time) *testRun {
	// Alone on one CPU. The first timer use anchors the grid at t=0 (the
	// task's start). The 15ms run overruns the 20ms activation.
	r := newRun(t).duration(60*Millisecond).
		task("p").slack(slack).loop(1).
		timer("t", 10*Millisecond, mode). // next 10: sleep until 10
		run(15*Millisecond).              // 10 -> 25
		timer("t", 10*Millisecond, mode). // next 20 < 25: overrun, no sleep
		run(Millisecond).                 // 25 -> 26
		timer("t", 10*Millisecond, mode). // absolute: next 30; relative: 25 + 10 = 35
		run(Millisecond).
		timer("t", 10*Millisecond, mode). // absolute: 40; relative: 45
		build()
	r.runFor(60 * Millisecond)
	return r
}

func TestTimerAbsoluteKeepsGridAfterOverrun(t *testing.T) {
	r := overrunRun(t, TimerAbsolute, 0)
	got, reasons := r.wakeTimes(r.id("p"))
	want := []Time{10 * Millisecond, 30 * Millisecond, 40 * Millisecond}
	if !slices.Equal(got, want) {
		t.Errorf("absolute timer wakeups %v, want %v", got, want)
	}
	for i, why := range reasons {
		if why != ReasonTimerFire {
			t.Errorf("wakeup %d reason %s, want timer_fire", i, why)
		}
	}
}

func TestTimerRelativeReanchorsAfterOverrun(t *testing.T) {
	r := overrunRun(t, TimerRelative, 0)
	got, _ := r.wakeTimes(r.id("p"))
	want := []Time{10 * Millisecond, 35 * Millisecond, 45 * Millisecond}
	if !slices.Equal(got, want) {
		t.Errorf("relative timer wakeups %v, want %v", got, want)
	}
}

func TestTimerSlackOnIdleCPU(t *testing.T) {
	// Default timer_slack_ns = 50us; the CPU is idle while the task
	// sleeps, so each timer expires at its hard expiry, t + 50us; the runs
	// after each wakeup shift nothing on the absolute grid.
	const slack = 50 * Microsecond
	r := overrunRun(t, TimerAbsolute, slack)
	got, _ := r.wakeTimes(r.id("p"))
	// 0: sleep to 10 -> woken 10.05; run 15ms -> 25.05 (overrun of 20);
	// run 1ms -> 26.05; sleep to 30 -> 30.05; run -> 31.05; sleep to 40.
	want := []Time{10*Millisecond + slack, 30*Millisecond + slack, 40*Millisecond + slack}
	if !slices.Equal(got, want) {
		t.Errorf("wakeups with 50us slack %v, want %v", got, want)
	}
}

func TestSleepSlackAndReason(t *testing.T) {
	// A plain sleep of 10ms from t=1ms on an otherwise idle CPU: woken at
	// 11ms + 50us, reason sleep_done.
	r := newRun(t).duration(20 * Millisecond).
		task("s").loop(1).run(Millisecond).sleep(10 * Millisecond).run(Millisecond).
		build()
	r.runFor(20 * Millisecond)
	got, reasons := r.wakeTimes(r.id("s"))
	if want := []Time{11*Millisecond + 50*Microsecond}; !slices.Equal(got, want) {
		t.Errorf("wakeups %v, want %v", got, want)
	}
	if len(reasons) == 1 && reasons[0] != ReasonSleepDone {
		t.Errorf("reason %s, want sleep_done", reasons[0])
	}
}

func TestSleepEndsAtTickInsideSlackWindow(t *testing.T) {
	// The task runs until 3.96ms and sleeps 20us: window [3.98ms, 4.03ms).
	// Its CPU's tick at 4ms (HZ=250) lands in the window and expires the
	// timer early: woken at 4ms.
	r := newRun(t).hz(250).duration(10 * Millisecond).
		task("s").loop(1).run(3960 * Microsecond).sleep(20 * Microsecond).run(Millisecond).
		build()
	r.runFor(10 * Millisecond)
	got, _ := r.wakeTimes(r.id("s"))
	if want := []Time{4 * Millisecond}; !slices.Equal(got, want) {
		t.Errorf("wakeups %v, want %v", got, want)
	}
}

func TestLongSleepEndsAtTickInsideSlackWindow(t *testing.T) {
	// Regression: the sim once considered only the tick that was next when
	// the task went to sleep, so it woke at t + slack here.
	// A hog keeps CPU 0 busy, so its tick runs every 4ms (HZ=250). p's
	// absolute 8ms timer (anchored at t=0, when p first runs) has soft
	// expiries on tick instants: the tick interrupt at 8k ms runs
	// __hrtimer_run_queues(), which expires every timer whose soft expiry
	// has passed, so p is woken at 8k ms exactly, not 8k ms + 50us.
	r := newRun(t).hz(250).duration(50*Millisecond).
		task("p").cpus(0).timer("t", 8*Millisecond, TimerAbsolute).run(100 * Microsecond).
		task("hog").cpus(0).run(Forever).
		build()
	r.runFor(50 * Millisecond)
	got, _ := r.wakeTimes(r.id("p"))
	want := []Time{8 * Millisecond, 16 * Millisecond, 24 * Millisecond, 32 * Millisecond, 40 * Millisecond, 48 * Millisecond}
	if !slices.Equal(got, want) {
		t.Errorf("wakeups %v, want %v (the tick at each soft expiry)", got, want)
	}
}

func TestTimerGridAnchoredAtThreadStart(t *testing.T) {
	// Regression: the sim once anchored a timer at its first use.
	// rt-app anchors every timer at t_first (src/rt-app.c:
	// `if (rdata->res.timer.init == 0) { ...; rdata->res.timer.t_next =
	// *t_first; }`). p starts at 0 alone on its CPU, runs 2ms, then waits
	// for its 10ms timer: it sleeps until t_first + 10ms = 10ms (+50us slack
	// on an idle CPU), then 20ms, 30ms.
	r := newRun(t).duration(35*Millisecond).
		task("p").run(2*Millisecond).timer("t", 10*Millisecond, TimerAbsolute).
		build()
	r.runFor(35 * Millisecond)
	got, _ := r.wakeTimes(r.id("p"))
	slack := 50 * Microsecond
	want := []Time{10*Millisecond + slack, 20*Millisecond + slack, 30*Millisecond + slack}
	if !slices.Equal(got, want) {
		t.Errorf("wakeups %v, want %v", got, want)
	}
}

func TestTimerGridAnchoredAtSharedStart(t *testing.T) {
	// rt-app anchors every thread at the common t_first = t_zero + delay
	// (src/rt-app.c thread_body), so a thread that first gets the CPU late
	// keeps the common grid.
	// h (thread 0) starts at 0 and keeps CPU 0; q starts at 0 too but, under
	// v6.18, h's slice is protected (vprot = its first deadline), so q
	// first runs at h's 4ms tick. rt-app's q still has t_first = 0: its
	// first activation is at 10ms; the CPU is busy, its tick at 8ms and
	// 12ms misses [10ms, 10.05ms], so q is woken at the hard expiry 10.05ms,
	// then 20.05ms (ticks at 20ms: woken at the tick, 20ms).
	r := newRun(t).kernel("v6.18").hz(250).duration(25*Millisecond).
		task("h").cpus(0).run(Forever).
		task("q").cpus(0).timer("t", 10*Millisecond, TimerAbsolute).run(100 * Microsecond).
		build()
	r.runFor(25 * Millisecond)
	if in := r.rec.switchesIn(r.id("q")); len(in) == 0 || in[0].Time != 4*Millisecond {
		t.Fatalf("q first runs at %v, want 4ms (the premise of this test)", in)
	}
	got, _ := r.wakeTimes(r.id("q"))
	want := []Time{10*Millisecond + 50*Microsecond, 20 * Millisecond}
	if !slices.Equal(got, want) {
		t.Errorf("q woken at %v, want %v (grid anchored at t_first = 0)", got, want)
	}
}
