package main

// Benchmarks of the worker's pipeline (bare engine, + metrics, + recorder)
// for the speed budget, run natively and under Node (make bench).

import (
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/codec"
	"schedplay/wasm/view"
)

func scenarioJSON(dur string) []byte {
	return []byte(`{"version":1,"name":"bench/million-slices","topology":"smp-8","kernel":{"version":"v6.18"},"duration":"` +
		dur + `","seed":1,"tasks":[{"name":"yielder","instances":16,"loop":-1,"program":[{"run":"20us"},{"yield":true}]},` +
		`{"name":"sleeper","instances":4,"loop":-1,"program":[{"run":"300us"},{"sleep":"1ms"}]}]}`)
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
		events += sim.EventsPopped()
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
		rec := &codec.Recorder{}
		s.Attach(rec)
		s.Attach(sinkFunc(func(*sched.Event) {
			if len(rec.Buf) > 1<<20 {
				rec.Recycle(rec.Take()) // as the worker does once post copied the batch
			}
		}))
	})
}

func BenchmarkEnginePage(b *testing.B) { // the engine with the page's consumers: timeline + metrics
	benchEngine(b, func(s *sched.Sim) {
		s.Attach(view.NewTimeline(s.NumCPUs()))
		s.Attach(metrics.New(s.NumCPUs()))
	})
}

type sinkFunc func(*sched.Event)

func (f sinkFunc) Event(e *sched.Event) { f(e) }
