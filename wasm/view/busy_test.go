package view

import (
	"testing"

	"schedplay/core/sched"
)

// The busy time read from the folded grid equals the walk over the slices
// for windows that start and end on, between and outside bucket edges,
// and before the run has ended it is the walk.
func TestBusyFoldedMatchesWalk(t *testing.T) {
	r := presetRun(t, "demo/periodic-vs-hog", "duration=150ms")
	r.Advance(64)
	if r.Timeline.Ended {
		t.Fatal("the run ended in the first batch; the test needs an unfinished one")
	}
	tl := r.Timeline
	if got, want := tl.BusyFolded(0, 0, tl.Now), tl.Busy(0, 0, tl.Now); got != want {
		t.Fatalf("running: folded %v, walk %v", got, want)
	}
	for !r.Advance(1 << 20) {
	}
	end := r.Duration()
	step := end / UtilBuckets
	windows := [][2]sched.Time{{0, end}, {0, end + 5e6}, {-3, end / 2}, {step, 3 * step},
		{step + 1, 3*step - 1}, {step / 3, step / 2}, {end - 7, end}, {end / 7, end - end/9}, {end, end + 1e6}}
	busy := sched.Time(0)
	for c := 0; c < r.NumCPUs(); c++ {
		for _, w := range windows {
			got, want := tl.BusyFolded(c, w[0], w[1]), tl.Busy(c, w[0], w[1])
			if got != want {
				t.Fatalf("cpu %d [%v, %v): folded %v, walk %v", c, w[0], w[1], got, want)
			}
			busy += got
		}
	}
	if busy == 0 {
		t.Fatal("nothing ran")
	}
}
