package experiment

import (
	"reflect"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// A job run in slices of simulated time measures exactly as Execute.
func TestExecutionSlicedEqualsExecute(t *testing.T) {
	sc, err := scenario.Preset("demo/pipe-pingpong-cross")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 100 * sched.Millisecond
	jobs, err := Plan(sc, sc.Name, []Config{{Label: "A"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Execute(jobs[0])
	if err != nil {
		t.Fatal(err)
	}
	x, err := Start(jobs[0])
	if err != nil {
		t.Fatal(err)
	}
	slices := 0
	for !x.Advance(777 * sched.Microsecond) {
		slices++
		if done, total := x.Progress(); done <= 0 || done > total {
			t.Fatalf("progress %d of %d", done, total)
		}
	}
	sliced, err := x.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if slices < 100 || x.Events() == 0 {
		t.Fatalf("%d slices, %d events", slices, x.Events())
	}
	if a, b := Measure(whole), Measure(sliced); !reflect.DeepEqual(a, b) || len(a) == 0 {
		t.Fatalf("sliced run measures differently:\n%v\n%v", b, a)
	}
}
