package runner

// BenchmarkJob runs one job of a preset's thread experiment as a pool
// worker does (experiment.Start, Advance in the worker's slices), its
// simulated time cut to SCHEDPLAY_BENCH_DURATION, for profiles and
// instruction counts of the engine on the presets that dominate the
// table's wait (docs/engine.md "Speed under WASM"):
//
//	SCHEDPLAY_BENCH_PRESET=seed/newidle-rt-latency SCHEDPLAY_BENCH_DURATION=200ms \
//	  go test -run '^$' -bench Job -benchtime 1x ./wasm/runner/
//
// SCHEDPLAY_BENCH_JOB picks the job (default 0). SCHEDPLAY_BENCH_YIELD=D
// advances D of simulated time at a time and sleeps between two advances,
// as the worker yields to its event loop between chunks (under js/wasm,
// where nothing preempts the run, that is when a GC cycle's marking
// finishes). Skipped without a preset.

import (
	"os"
	"strconv"
	"testing"
	"time"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

func BenchmarkJob(b *testing.B) {
	name := os.Getenv("SCHEDPLAY_BENCH_PRESET")
	if name == "" {
		b.Skip("set SCHEDPLAY_BENCH_PRESET to a preset (seed/newidle-rt-latency)")
	}
	sc, err := scenario.Preset(name)
	if err != nil {
		b.Fatal(err)
	}
	bt, err := PlanBatch(protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode())})
	if err != nil {
		b.Fatal(err)
	}
	q := bt.queue()
	idx, _ := strconv.Atoi(os.Getenv("SCHEDPLAY_BENCH_JOB"))
	if idx < 0 || idx >= len(q.jobs) {
		b.Fatalf("SCHEDPLAY_BENCH_JOB %d: the plan has %d jobs", idx, len(q.jobs))
	}
	var dur sched.Time
	if d := os.Getenv("SCHEDPLAY_BENCH_DURATION"); d != "" {
		v, err := scenario.ParseDuration("SCHEDPLAY_BENCH_DURATION", d)
		if err != nil {
			b.Fatal(err)
		}
		dur = sched.Time(v)
	}
	slice, yield := sched.Time(maxSlice), false
	if d := os.Getenv("SCHEDPLAY_BENCH_YIELD"); d != "" {
		v, err := scenario.ParseDuration("SCHEDPLAY_BENCH_YIELD", d)
		if err != nil || v == 0 {
			b.Fatalf("SCHEDPLAY_BENCH_YIELD %q: want a positive duration", d)
		}
		slice, yield = sched.Time(v), true
	}
	var events int64
	for b.Loop() {
		j, err := q.plan.Build(idx)
		if err != nil {
			b.Fatal(err)
		}
		if dur > 0 {
			j.Cfg.Duration = dur
		}
		x, err := experiment.Start(j)
		if err != nil {
			b.Fatal(err)
		}
		for !x.Advance(slice) {
			if yield {
				time.Sleep(time.Microsecond)
			}
		}
		if _, err := x.Finish(); err != nil {
			b.Fatal(err)
		}
		events += x.Events()
		q.plan.Release(idx)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(events, 1)), "ns/event")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}
