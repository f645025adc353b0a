package sched

import "testing"

// latencyRun runs timerIRQRun's scenario (a 20 ms worker, then a periodic
// task alone; a busy, then an idle CPU) with hw.timer_irq_latency_ns lat
// and hw.timer_irq_ns d.
func latencyRun(t *testing.T, lat, d int64) *testRun {
	b := newRun(t).topology("smp-1").kernel("v6.18").hz(250).duration(200 * Millisecond)
	b.task("work").run(20 * Millisecond).sleep(Second)
	b.task("periodic").run(100*Microsecond).timer("t", Millisecond, TimerAbsolute)
	r := b.buildWith(func(cfg *Config) {
		cfg.HW.TimerIRQLat, cfg.HW.TimerIRQNs = lat, d
	})
	r.runFor(200 * Millisecond)
	return r
}

// latencyWake is one wakeup of periodic by its own hrtimer interrupt (not
// by a tick that expired it): the timer's hard expiry, when the interrupt
// ran it (hrtimer_expire_entry), the sched_waking and the switch-in, and
// whether the CPU was running a task.
type latencyWake struct {
	hard, irq, waking, switchIn Time
	busy                        bool
}

func latencyWakes(r *testRun) []latencyWake {
	per := r.id("periodic")
	var out []latencyWake
	onTick := func(at Time) bool { return (at-r.Sim.tickOffset)%r.Sim.tickNs == 0 }
	curr := NoTask
	open := -1
	for _, e := range r.rec.events {
		switch e.Kind {
		case EvTimerExpire:
			open = -1
			if e.Next == per && !onTick(e.Time) {
				out = append(out, latencyWake{hard: Time(e.Arg), irq: e.Time, waking: -1, switchIn: -1, busy: curr != NoTask})
				open = len(out) - 1
			}
		case EvWaking:
			if e.Next == per && open >= 0 {
				out[open].waking = e.Time
			}
		case EvSwitch:
			if e.Next == per && open >= 0 {
				out[open].switchIn = e.Time
				open = -1
			}
			curr = e.Next
		}
	}
	return out
}

// TestTimerIRQLatency: with hw.timer_irq_latency_ns a sleeper's hrtimer
// interrupt comes that long after the hard expiry, on a busy and on an
// idle CPU; sched_waking is stamped at the interrupt and the switch-in
// moves with it (at once on this ideal machine, hw.timer_irq_ns later on
// a busy CPU). With 0 the interrupt is at the expiry.
func TestTimerIRQLatency(t *testing.T) {
	const lat, d = 12600, 8000
	for _, tc := range []struct{ lat, d int64 }{{0, 0}, {lat, 0}, {lat, d}} {
		wakes := latencyWakes(latencyRun(t, tc.lat, tc.d))
		busy, idle := 0, 0
		for _, w := range wakes {
			if w.waking < 0 || w.switchIn < 0 {
				continue // the run ended between the interrupt and the switch
			}
			if w.irq-w.hard != Time(tc.lat) || w.waking-w.hard != Time(tc.lat) {
				t.Errorf("lat %d, irq %d: expiry %s: interrupt at +%s, sched_waking at +%s, want both +%d ns", tc.lat, tc.d, w.hard, w.irq-w.hard, w.waking-w.hard, tc.lat)
				continue
			}
			want := Time(tc.lat)
			if w.busy {
				want += Time(tc.d)
				busy++
			} else {
				idle++
			}
			if got := w.switchIn - w.hard; got != want {
				t.Errorf("lat %d, irq %d: expiry %s: periodic switched in at +%s (busy CPU %v), want +%s", tc.lat, tc.d, w.hard, got, w.busy, want)
			}
		}
		if busy < 10 || idle < 10 {
			t.Fatalf("lat %d, irq %d: %d busy-CPU and %d idle-CPU timer wakeups: the scenario does not test the path", tc.lat, tc.d, busy, idle)
		}
	}
}
