package main

// A throttle for the page's per-message work during a batch: the progress
// line and its DOM writes (poolrun.go) are drawn at most once per window however many job results and progress messages arrive
// (a 900-job table on two workers: about 2,000 messages), and the last
// state is always drawn, by a trailing run at the window's end.

// drawEveryMs is the progress line's window: four redraws a second.
const drawEveryMs = 250

// throttle runs an update at most once per every ms.
type throttle struct {
	every   float64
	last    float64 // when it last ran (ms; 0: never)
	ran     bool
	pending bool // a trailing run is scheduled
}

// ask runs draw now if the window since the last run is over; otherwise
// it schedules one trailing run (later(wait, fire): the host calls fire
// after wait ms), which draws the state at that time.
func (t *throttle) ask(now float64, draw func(), later func(wait float64, fire func(now float64))) {
	if !t.ran || now-t.last >= t.every {
		t.run(now, draw)
		return
	}
	if t.pending {
		return
	}
	t.pending = true
	later(t.every-(now-t.last), func(now float64) {
		if t.pending {
			t.run(now, draw)
		}
	})
}

// now runs draw at once (a failure, the batch's end) and cancels a
// scheduled trailing run.
func (t *throttle) now(now float64, draw func()) { t.run(now, draw) }

func (t *throttle) run(now float64, draw func()) {
	t.last, t.ran, t.pending = now, true, false
	draw()
}
