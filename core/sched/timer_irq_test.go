package sched

import "testing"

// timerIRQRun runs, on one CPU (v6.18, HZ 250, no other costs), a task of
// 20 ms of work and a periodic task woken by its hrtimer every 1 ms that
// runs 100 us, with hw.timer_irq_ns d.
func timerIRQRun(t *testing.T, d int64) *testRun {
	b := newRun(t).topology("smp-1").kernel("v6.18").hz(250).duration(200 * Millisecond)
	b.task("work").run(20 * Millisecond).sleep(Second)
	b.task("periodic").run(100*Microsecond).timer("t", Millisecond, TimerAbsolute)
	r := b.buildWith(func(cfg *Config) {
		cfg.HW.TimerIRQNs = d
	})
	r.runFor(200 * Millisecond)
	return r
}

// TestTimerIRQSteals: a sleeper's hrtimer interrupt on a CPU running a
// task costs that task hw.timer_irq_ns (hrtimer_interrupt() to its
// return): the wakeup is made at the expiry (its sched_waking there), the
// preemption it causes happens at the interrupt's end, so every such
// wakeup's latency is the interrupt's time, and the interrupted task's
// work ends later by that time per interrupt. With 0 nothing changes.
func TestTimerIRQSteals(t *testing.T) {
	const d = 8000
	base, irq := timerIRQRun(t, 0), timerIRQRun(t, d)
	work, per := irq.id("work"), irq.id("periodic")
	// the interrupts that hit the work task: expiries on its CPU while it ran
	hits, lat0, latN := 0, 0, 0
	var curr = NoTask
	var waking Time = -1
	for _, e := range irq.rec.events {
		switch e.Kind {
		case EvTimerExpire:
			if curr == work && e.Next == per {
				hits++
			}
		case EvWaking:
			if e.Next == per {
				waking = e.Time
				if curr == NoTask {
					waking = -1 // an idle CPU: not this path
				}
			}
		case EvSwitch:
			if e.Next == per && waking >= 0 {
				if e.Time-waking == d {
					latN++
				} else {
					t.Errorf("periodic switched in %s after its timer's wakeup at %s on a busy CPU, want %d ns", e.Time-waking, waking, d)
				}
				waking = -1
			}
			curr = e.Next
		}
	}
	if hits < 10 || latN < 10 {
		t.Fatalf("%d interrupts hit the work task, %d wakeups preempted it: the scenario does not test the path", hits, latN)
	}
	end := func(r *testRun) Time {
		for _, e := range r.rec.events {
			if e.Kind == EvSwitch && e.Prev == r.id("work") && e.PrevState != 'R' {
				return e.Time
			}
		}
		t.Fatal("work never blocked")
		return 0
	}
	// the work task also waits behind periodic's runs, the same in both
	e0, e1 := end(base), end(irq)
	if got, want := e1-e0, Time(hits*d); got != want {
		t.Errorf("work ends %s later with the interrupts, want %d x %d ns = %s", got, hits, d, want)
	}
	for _, e := range base.rec.events {
		if e.Kind == EvSwitch && e.Next == base.id("periodic") {
			lat0++
		}
	}
	if lat0 == 0 {
		t.Fatal("periodic never ran without the cost")
	}
	t.Logf("%d interrupts on the work task, %d immediate preemptions, work ends %s vs %s", hits, latN, e1, e0)
}
