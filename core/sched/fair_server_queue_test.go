package sched

import "testing"

// TestFairServerTimerQueueBounded: on v6.12+ every 0 -> 1 fair enqueue
// starts the fair server (dl_server_start) and arms its dl_timer ~950 ms
// ahead, and every dequeue to 0 stops it. A task waking every 100 us on an
// otherwise idle CPU must not leave one queued timer per wakeup behind:
// the queue stays a handful of events long, while the server still runs
// the fair task at its zero-laxity point when an RT hog starves it.
func TestFairServerTimerQueueBounded(t *testing.T) {
	r := newRun(t).topology("smp-1").kernel("v6.18").duration(2 * Second).
		task("sleeper").run(10 * Microsecond).sleep(100 * Microsecond).
		build()
	most := 0
	for at := Time(0); at < 500*Millisecond; at += Millisecond {
		r.runFor(at)
		most = max(most, r.q.len())
	}
	if most > 16 {
		t.Errorf("event queue grew to %d events over ~4500 wakeups; want a handful", most)
	}

	// The server still works: an RT hog starves a fair hog except for the
	// server's 50 ms per second.
	r2 := newRun(t).topology("smp-1").kernel("v6.18").duration(3 * Second).
		task("rt").fifo(50).run(Forever).
		task("fair").run(Forever).
		build()
	r2.runFor(3 * Second)
	got := r2.runtime(r2.id("fair"))
	if got < 140*Millisecond || got > 160*Millisecond {
		t.Errorf("fair hog ran %s in 3 s beside an RT hog; the fair server gives it 50 ms per second", got)
	}
}
