package sched

import "testing"

// clockPollMix runs a hog, a periodic task and a run/sleep task on smp-2
// under kernel k, the two burning tasks reading their CPU clock every poll
// (0: never), and returns the recorded run.
func clockPollMix(t *testing.T, k string, poll Time) *testRun {
	b := newRun(t).topology("smp-2").kernel(k).hz(250).duration(2 * Second)
	b.task("hog").run(Forever)
	b.task("periodic").clockPoll(poll).run(3*Millisecond).timer("t", 10*Millisecond, TimerAbsolute)
	b.task("rs").clockPoll(poll).run(4 * Millisecond).sleep(3 * Millisecond).run(2 * Millisecond).sleep(5 * Millisecond)
	b.task("rs2").clockPoll(poll).run(5 * Millisecond).sleep(4 * Millisecond)
	r := b.build()
	r.runFor(2 * Second)
	return r
}

// betweenTicks counts the switches that preempt a task because its slice
// ended (slice_expired, protection_ended, tick_ideal_runtime) at an
// instant where its CPU had no tick: only a clock read can do that.
func betweenTicks(r *testRun) int {
	type at struct {
		t   Time
		cpu CPUID
	}
	ticks := map[at]bool{}
	for _, e := range r.rec.events {
		if e.Kind == EvTick {
			ticks[at{e.Time, e.CPU}] = true
		}
	}
	n := 0
	for _, e := range r.rec.events {
		if e.Kind != EvSwitch || e.PrevState != 'R' {
			continue
		}
		switch e.Reason {
		case ReasonSliceExpired, ReasonProtectionEnded, ReasonTickIdealRuntime, ReasonTickVruntimeSpread:
			if !ticks[at{e.Time, e.CPU}] {
				n++
			}
		}
	}
	return n
}

// TestClockPollPerProfile: reading the CPU clock moves slice-end
// preemptions off the ticks on the EEVDF profiles only; on legacy CFS
// (update_curr() checks no slice) and before v3.19 (no update_curr() at
// all) the schedule is the same event for event.
func TestClockPollPerProfile(t *testing.T) {
	for _, k := range []string{"v3.11", "v5.8"} {
		off, on := clockPollMix(t, k, 0), clockPollMix(t, k, 2*Microsecond)
		if len(off.rec.events) != len(on.rec.events) {
			t.Errorf("%s: %d events without reads, %d with", k, len(off.rec.events), len(on.rec.events))
			continue
		}
		for i := range off.rec.events {
			if off.rec.events[i] != on.rec.events[i] {
				t.Errorf("%s: event %d differs: %s without reads, %s with", k, i, off.rec.events[i].Describe(), on.rec.events[i].Describe())
				break
			}
		}
	}
	for _, k := range []string{"v6.6", "v6.12", "v6.18"} {
		// Without reads a slice can still end between ticks when a
		// wakeup on the CPU runs update_curr() for curr.
		off, on := betweenTicks(clockPollMix(t, k, 0)), betweenTicks(clockPollMix(t, k, 2*Microsecond))
		t.Logf("%s: %d slice-end preemptions between ticks without reads, %d with", k, off, on)
		if on < 2*off+50 {
			t.Errorf("%s: %d slice-end preemptions between ticks with reads every 2us, %d without: want far more with", k, on, off)
		}
	}
}

// TestClockPollBounds: an interval outside MinClockPoll..MaxClockPoll is
// refused with the task named.
func TestClockPollBounds(t *testing.T) {
	for _, d := range []Time{-1, MinClockPoll - 1, MaxClockPoll + 1} {
		cfg := newRun(t).task("p").clockPoll(d).run(Forever).config()
		if _, err := New(cfg); err == nil {
			t.Errorf("ClockPoll %d: no error", d)
		}
	}
}

// TestClockPollAgainstEveryRead checks the targeted reads against the
// simple reference, every read an event running update_curr(): the two
// schedules must be the same event for event, with a custom short slice
// (v6.12 did_preempt_short()) and readers sharing CPUs with a hog of
// another weight. Readers are nice 0: with other weights every read
// truncates calc_delta_fair() once, which the targeted reads abstract, and
// the decisions move by a read or two. Durations avoid multiples of the
// read intervals, so that no run ends exactly at a read. v6.18 is left
// out: there the two models part after about 270 ms in this mix (a wakeup
// preemption in one, a slice end 60 us later in the other), a known
// difference not yet explained (docs/kernel-rules.md section 20.3).
func TestClockPollAgainstEveryRead(t *testing.T) {
	mix := func(k string, every bool) *testRun {
		b := newRun(t).topology("smp-2").kernel(k).hz(250).duration(Second)
		b.task("hog").nice(-3).run(Forever)
		b.task("periodic").clockPoll(3*Microsecond).run(3001*Microsecond).timer("t", 10*Millisecond, TimerAbsolute)
		b.task("rs").clockPoll(2 * Microsecond).run(4003 * Microsecond).sleep(3 * Millisecond).run(2007 * Microsecond).sleep(5 * Millisecond)
		b.task("short").slice(300 * Microsecond).clockPoll(2 * Microsecond).run(701 * Microsecond).sleep(2 * Millisecond)
		b.task("rs2").clockPoll(5 * Microsecond).run(5011 * Microsecond).sleep(4 * Millisecond)
		r := b.build()
		r.Sim.pollEveryRead = every
		r.runFor(Second)
		return r
	}
	// Events of one instant on different CPUs may come in either order
	// (the reads are queued at different times in the two models), so
	// the streams are compared CPU by CPU.
	perCPU := func(evs []Event) map[CPUID][]Event {
		m := map[CPUID][]Event{}
		for _, e := range evs {
			m[e.CPU] = append(m[e.CPU], e)
		}
		return m
	}
	for _, k := range []string{"v5.8", "v6.6", "v6.12"} {
		targeted, every := perCPU(mix(k, false).rec.events), perCPU(mix(k, true).rec.events)
		for _, cpu := range []CPUID{-1, 0, 1} {
			a, b := targeted[cpu], every[cpu]
			for i := 0; i < min(len(a), len(b)); i++ {
				if a[i] != b[i] {
					t.Errorf("%s cpu %d: event %d differs: targeted reads %s, every read %s", k, cpu, i, a[i].Describe(), b[i].Describe())
					break
				}
			}
			if len(a) != len(b) {
				t.Errorf("%s cpu %d: %d events with targeted reads, %d with every read", k, cpu, len(a), len(b))
			}
		}
	}
}
