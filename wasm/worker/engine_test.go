package main

// The engine against the page's timeline: the records decoded on the page
// build the same timeline as a local run, and benchmarks of the worker's
// pipeline (bare engine, + metrics, + recorder) for the speed budget, run
// natively and under Node (make bench).

import (
	"encoding/json"
	"reflect"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/view"
)

func scenarioJSON(dur string) []byte {
	return []byte(`{"version":1,"name":"bench/million-slices","topology":"smp-8","kernel":{"version":"v6.18"},"duration":"` +
		dur + `","seed":1,"tasks":[{"name":"yielder","instances":16,"loop":-1,"program":[{"run":"20us"},{"yield":true}]},` +
		`{"name":"sleeper","instances":4,"loop":-1,"program":[{"run":"300us"},{"sleep":"1ms"}]}]}`)
}

func TestStreamedTimelineMatchesLocal(t *testing.T) {
	js := scenarioJSON("50ms")
	eng, err := NewEngine(js)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := scenario.Decode(js)
	remote, err := view.NewRemoteRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		done = eng.Advance(777, nil) // odd chunks: records must not depend on them
		var infos []sched.TaskInfo
		if s := eng.NewTasks(); s != "" {
			if err := json.Unmarshal([]byte(s), &infos); err != nil {
				t.Fatal(err)
			}
		}
		now, _ := eng.Sim.Progress()
		if err := remote.Ingest(eng.Rec.Take(), now, eng.Sim.EventsProcessed(), infos); err != nil {
			t.Fatal(err)
		}
	}
	var rep metrics.Report
	if err := json.Unmarshal([]byte(eng.ReportJSON()), &rep); err != nil {
		t.Fatal(err)
	}
	remote.Finish(&rep, nil)

	local, _ := view.NewRun(sc)
	for !local.Advance(1 << 20) {
	}
	if !reflect.DeepEqual(remote.Timeline.Lanes, local.Timeline.Lanes) || remote.Timeline.NumSlices() == 0 {
		t.Fatalf("streamed timeline differs from the local one (%d vs %d slices)",
			remote.Timeline.NumSlices(), local.Timeline.NumSlices())
	}
	if !reflect.DeepEqual(remote.Report(), local.Report()) {
		t.Fatal("streamed report differs from the local one")
	}
	if remote.TaskInfo(3) != local.TaskInfo(3) || remote.Events() != local.Events() || !remote.Done() {
		t.Fatalf("task info / events / done differ: %+v vs %+v", remote.TaskInfo(3), local.TaskInfo(3))
	}
}

func TestBadBatchIsAnError(t *testing.T) {
	tl := view.NewTimeline(2)
	if err := view.DecodeRecords(make([]byte, 10), 2, tl); err == nil {
		t.Fatal("a short batch decoded")
	}
	e := sched.Event{Kind: sched.EvSwitch, CPU: 5}
	if err := view.DecodeRecords(view.AppendRecord(nil, &e), 2, tl); err == nil {
		t.Fatal("a record for CPU 5 of 2 decoded")
	}
}

// benchEngine runs 200 ms of the budget scenario with the given consumers.
func benchEngine(b *testing.B, attach func(*sched.Sim)) {
	js := scenarioJSON("200ms")
	var events int64
	for b.Loop() {
		sc, _ := scenario.Decode(js)
		cfg, _ := sc.Build(sched.DefaultLimits())
		sim, _ := sched.New(cfg)
		attach(sim)
		for sim.Step() {
		}
		events += sim.EventsProcessed()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}

func BenchmarkEngineBare(b *testing.B) { benchEngine(b, func(*sched.Sim) {}) }

func BenchmarkEngineMetrics(b *testing.B) {
	benchEngine(b, func(s *sched.Sim) { s.Attach(metrics.New(s.NumCPUs())) })
}

func BenchmarkEngineWorker(b *testing.B) { // what the worker runs
	benchEngine(b, func(s *sched.Sim) {
		s.Attach(metrics.New(s.NumCPUs()))
		rec := &view.Recorder{}
		s.Attach(rec)
		s.Attach(sinkFunc(func(*sched.Event) {
			if len(rec.Buf) > 1<<20 {
				rec.Recycle(rec.Take()) // as the worker does once post copied the batch
			}
		}))
	})
}

func BenchmarkEnginePage(b *testing.B) { // the local run: timeline + metrics
	benchEngine(b, func(s *sched.Sim) {
		s.Attach(view.NewTimeline(s.NumCPUs()))
		s.Attach(metrics.New(s.NumCPUs()))
	})
}

type sinkFunc func(*sched.Event)

func (f sinkFunc) Event(e *sched.Event) { f(e) }
