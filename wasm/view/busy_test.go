package view

import (
	"testing"

	"schedplay/core/scenario"
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

// BenchmarkHeatWindow is the machine heat map's read of a finished 256-CPU
// run (core/sched's bench machine and mix, 100 ms): every CPU's busy time
// over the whole run, by walking the slices and from the folded grid.
func BenchmarkHeatWindow(b *testing.B) {
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"epyc-milan-2s64c","duration":"100ms","seed":1,
 "tasks":[{"name":"hog","instances":160,"loop":-1,"program":[{"run":"1s"}]},
  {"name":"periodic","instances":320,"loop":-1,"program":[{"run":"700us"},{"timer":{"ref":"tick","period":"4ms","mode":"absolute"}}]},
  {"name":"bursty","instances":320,"nice":-2,"loop":-1,"program":[{"run":"3ms"},{"sleep":"5ms"}]},
  {"name":"short","instances":128,"loop":-1,"program":[{"run":"50us"},{"sleep":"300us"}]}]}`))
	if err != nil {
		b.Fatal(err)
	}
	r, err := newTestRun(sc)
	if err != nil {
		b.Fatal(err)
	}
	for !r.Advance(1 << 20) {
	}
	tl, end := r.Timeline, r.Duration()
	b.Logf("%d slices", tl.nslices)
	for _, m := range []struct {
		name string
		busy func(int, sched.Time, sched.Time) sched.Time
	}{{"walk", tl.Busy}, {"folded", tl.BusyFolded}} {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				for c := range r.NumCPUs() {
					m.busy(c, 0, end)
				}
			}
		})
	}
}
