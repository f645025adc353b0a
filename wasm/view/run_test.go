package view

// Test runs: a scenario run by the engine (wasm/runner) and fed to a Run
// batch by batch, as the worker's messages feed the page; and the contract
// of that stream: the timeline built from the records is the timeline of
// the engine's own event stream.

import (
	"reflect"
	"strings"
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
	if err := r.Ingest(r.eng.Rec.Take(), now, r.eng.Sim.EventsPopped(), r.eng.NewTaskInfos()); err != nil {
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
		if last := sched.TaskID(r.NumTasks() - 1); r.TaskInfo(last) != r.eng.Sim.TaskInfo(last) || r.Events() != r.eng.Sim.EventsPopped() || !r.Done() {
			t.Fatalf("%s: task info / events / done differ", preset)
		}
		if r.TaskInfo(sched.TaskID(r.NumTasks())).Name != "" {
			t.Fatalf("%s: an unknown task has a name", preset)
		}
	}
}

// TestTimelineCut: past TimelineLimit records the timeline ends at the
// last kept event (every slice closed by then, none after), the run goes
// on to its end and its report, and the notice names the cut.
func TestTimelineCut(t *testing.T) {
	full := presetRun(t, "demo/hackbench", "duration=50ms")
	for !full.Advance(777) {
	}
	if full.Timeline.NumSlices() < 100 {
		t.Fatalf("the full run has %d slices: too few to cut", full.Timeline.NumSlices())
	}
	r := presetRun(t, "demo/hackbench", "duration=50ms")
	r.TimelineLimit = int64(full.Timeline.NumSlices() / 2)
	for !r.Advance(777) {
	}
	at, cut := r.Cut()
	if !cut || at <= 0 || at >= r.Duration() {
		t.Fatalf("cut %v at %s, want a cut inside the run of %s", cut, at, r.Duration())
	}
	if !r.Timeline.Ended || r.Timeline.NumSlices() >= full.Timeline.NumSlices() {
		t.Fatalf("cut timeline: ended %v, %d slices against the full %d", r.Timeline.Ended, r.Timeline.NumSlices(), full.Timeline.NumSlices())
	}
	var marks int
	for c, l := range r.Timeline.Lanes {
		marks += len(l.Marks)
		for _, s := range l.Slices {
			if s.End == Open || s.End > at || s.Start > at {
				t.Fatalf("CPU %d: slice %+v past the cut at %s", c, s, at)
			}
		}
	}
	if kept := int64(r.Timeline.NumSlices() + marks); kept > r.TimelineLimit {
		t.Errorf("%d slices and marks kept from at most %d records", kept, r.TimelineLimit)
	}
	if !r.Done() || r.Events() != full.Events() || r.Report().DurationNs != int64(r.Duration()) {
		t.Errorf("the run did not go on to its end: done %v, events %d of %d, report of %d ns", r.Done(), r.Events(), full.Events(), r.Report().DurationNs)
	}
	if msg := r.CutNotice(); !strings.Contains(msg, FormatDur(int64(at))) || !strings.Contains(msg, "-trace") {
		t.Errorf("notice %q does not name the cut and the way out", msg)
	}
	if _, c := full.Cut(); c {
		t.Error("the full run was cut")
	}
}
