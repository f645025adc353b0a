package view

// Test runs: a scenario run by the engine (wasm/runner) and fed to a Run
// batch by batch, as the worker's messages feed the page; and the contract
// of that stream: the timeline built from the records is the timeline of
// the engine's own event stream.

import (
	"reflect"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/runner"
)

// testRun is a Run with its engine beside it.
type testRun struct {
	*Run
	eng *runner.Engine
}

func newTestRun(sc *scenario.Scenario) (*testRun, error) {
	r, err := NewRun(sc)
	if err != nil {
		return nil, err
	}
	eng, err := runner.NewEngine(sc.Encode())
	if err != nil {
		return nil, err
	}
	return &testRun{Run: r, eng: eng}, nil
}

// Advance runs up to budget engine events, ingests their batch and, at the
// end, the report; it reports whether the run is done.
func (r *testRun) Advance(budget int) bool {
	done := runner.Step(r.eng.Sim, budget, 1024, nil)
	now, _ := r.eng.Sim.Progress()
	if err := r.Ingest(r.eng.Rec.Take(), now, r.eng.Sim.EventsProcessed(), r.eng.NewTaskInfos()); err != nil {
		panic(err) // the engine's own records
	}
	if done {
		rep := r.eng.Report()
		r.Finish(&rep, r.eng.Sim.Err())
	}
	return done
}

func presetRun(t testing.TB, name string, sets ...string) *testRun {
	t.Helper()
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	r, err := newTestRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The records carry everything the timeline consumes: a timeline fed by
// the streamed batches (in odd chunks) equals one attached to the engine.
func TestStreamedTimelineMatchesEngine(t *testing.T) {
	for _, preset := range []string{"demo/periodic-vs-hog", "demo/fork-burst"} {
		r := presetRun(t, preset, "duration=80ms")
		direct := NewTimeline(r.NumCPUs())
		direct.SetUtilGrid(r.Duration(), UtilBuckets)
		r.eng.Sim.Attach(direct)
		for !r.Advance(777) {
		}
		direct.IndexLOD()
		if r.Timeline.NumSlices() == 0 || !reflect.DeepEqual(r.Timeline.Lanes, direct.Lanes) {
			t.Fatalf("%s: streamed timeline of %d slices, the engine's %d", preset, r.Timeline.NumSlices(), direct.NumSlices())
		}
		if last := sched.TaskID(r.NumTasks() - 1); r.TaskInfo(last) != r.eng.Sim.TaskInfo(last) || r.Events() != r.eng.Sim.EventsProcessed() || !r.Done() {
			t.Fatalf("%s: task info / events / done differ", preset)
		}
		if r.TaskInfo(sched.TaskID(r.NumTasks())).Name != "" {
			t.Fatalf("%s: an unknown task has a name", preset)
		}
	}
}
