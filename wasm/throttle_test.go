package main

// The progress throttle: the draws of a batch are bounded by its wall time
// over the window, not by its number of messages, and the last state is
// drawn.

import "testing"

// drawsFor replays n messages evenly over ms of wall time and returns the
// draws and whether the state of the last message was drawn.
func drawsFor(n int, ms float64) (int, bool) {
	t := throttle{every: drawEveryMs}
	draws, drawnAt := 0, -1.0
	type timer struct {
		at   float64
		fire func(float64)
	}
	var timers []timer
	clock := 0.0
	for k := range n {
		at := ms * float64(k+1) / float64(n)
		for len(timers) > 0 && timers[0].at <= at {
			tm := timers[0]
			timers = timers[1:]
			clock = tm.at
			tm.fire(clock)
		}
		clock = at
		t.ask(clock, func() { draws++; drawnAt = clock }, func(wait float64, fire func(float64)) {
			timers = append(timers, timer{clock + wait, fire})
		})
	}
	for _, tm := range timers {
		clock = tm.at
		tm.fire(clock)
	}
	return draws, drawnAt >= ms
}

func TestThrottleBoundsDrawsByTime(t *testing.T) {
	const wall = 154000 // the 900-job table's 154 s
	limit := wall/drawEveryMs + 2
	for _, n := range []int{900, 2000, 20000} {
		draws, last := drawsFor(n, wall)
		if draws > limit {
			t.Errorf("%d messages over %d ms: %d draws, want at most %d (one per %d ms window)", n, wall, draws, limit, drawEveryMs)
		}
		if !last {
			t.Errorf("%d messages: the last message's state was not drawn", n)
		}
	}
	// Messages sparser than the window are each drawn at once.
	if draws, _ := drawsFor(10, 10*drawEveryMs*2); draws != 10 {
		t.Errorf("10 messages %d ms apart: %d draws, want 10", 2*drawEveryMs, draws)
	}
}
