package main

// The browser speed budget without a browser (docs/engine.md "Speed under
// WASM"). `make bench-browser` (scripts/browsertest, TestBudgets) divides
// the events/s of the playground's worker by the events/s of the same Go
// code run natively as a page run without the worker boundary (engine,
// timeline and metrics on one simulation). These benchmarks split that measurement into its parts, on the
// same scenario, so that each can be run natively and under Node
// (GOOS=js GOARCH=wasm with go_js_wasm_exec on PATH):
//
//   - BenchmarkBudgetWorker: what the worker does per chunk (engine, metrics
//     collector, recorder; the batch taken, copied out as post does,
//     recycled; new tasks described), without the JS calls.
//   - BenchmarkBudgetPage: the native baseline of the budget (pageRun).
//   - BenchmarkBudgetIngest: the page side of a worker run (records decoded
//     into the timeline, level-of-detail index), which runs beside the
//     worker on the main thread and must keep up with it.
//
// The browser's ratio is about BudgetWorker under WASM over BudgetPage
// natively; `make bench-speed` prints both and the ratio.

import (
	"os"
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/runner"
	"schedplay/wasm/view"
)

// budgetScenario is the budgets' million-slice run (runner.BudgetScenario).
const budgetScenario = runner.BudgetScenario

// benchScenario is budgetScenario, or a cut of it when
// SCHEDPLAY_BENCH_DURATION (a scenario duration such as "500ms") is set,
// for quicker A/B runs of a change.
func benchScenario() []byte {
	if d := os.Getenv("SCHEDPLAY_BENCH_DURATION"); d != "" {
		return []byte(strings.Replace(budgetScenario, `"duration":"3s"`, `"duration":"`+d+`"`, 1))
	}
	return []byte(budgetScenario)
}

// workerChunk is about what the worker's adaptive budget settles at under
// WASM (chunkMs of wall time at a few microseconds per event).
const workerChunk = 16384

// runWorkerLoop runs the scenario as the worker's run loop does and
// returns the events processed and the record bytes handed over.
func runWorkerLoop(tb testing.TB, js []byte, out []byte) (events int64, records int) {
	eng, err := runner.NewEngine(js)
	if err != nil {
		tb.Fatal(err)
	}
	for {
		done := runner.Step(eng.Sim, workerChunk, 1024, nil)
		eng.Sim.Progress()
		buf := eng.Rec.Take()
		out = append(out[:0], buf...) // post copies the batch into an ArrayBuffer
		records += len(buf)
		eng.NewTasks()
		eng.Rec.Recycle(buf)
		if done {
			break
		}
	}
	eng.ReportJSON()
	return eng.Sim.EventsPopped(), records
}

// reportRate reports wall ns/event and events/s, and CPU ns/event (the
// process's CPU time from cpu0 on: on a shared machine wall time also
// counts the time other processes held the CPU).
func reportRate(b *testing.B, events int64, cpu0 int64) {
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(cpu)/float64(events), "cpu-ns/event")
}

func BenchmarkBudgetWorker(b *testing.B) {
	js := benchScenario()
	out := make([]byte, 0, 1<<20)
	var events int64
	cpu0 := cpuTime()
	for b.Loop() {
		n, _ := runWorkerLoop(b, js, out)
		events += n
	}
	reportRate(b, events, cpu0)
}

func BenchmarkBudgetPage(b *testing.B) {
	sc, err := scenario.Decode(benchScenario())
	if err != nil {
		b.Fatal(err)
	}
	var events int64
	cpu0 := cpuTime()
	for b.Loop() {
		n, err := pageRun(sc)
		if err != nil {
			b.Fatal(err)
		}
		events += n
	}
	reportRate(b, events, cpu0)
}

// pageRun runs sc with the page's consumers on the simulation itself
// (timeline and metrics, the level-of-detail index after each chunk): the
// work of a run on the page, without the records between engine and page.
// It returns the events processed.
func pageRun(sc *scenario.Scenario) (int64, error) {
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return 0, err
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return 0, err
	}
	tl := view.NewTimeline(sim.NumCPUs())
	tl.SetUtilGrid(cfg.Duration, view.UtilBuckets)
	mc := metrics.New(sim.NumCPUs())
	sim.Attach(tl)
	sim.Attach(mc)
	for done := false; !done; {
		done = runner.Step(sim, 1<<20, 256, nil)
		tl.IndexLOD()
	}
	return sim.EventsPopped(), sim.Err()
}

func BenchmarkBudgetIngest(b *testing.B) {
	js := benchScenario()
	sc, _ := scenario.Decode(js)
	// The batches the worker would post, made once.
	eng, err := runner.NewEngine(js)
	if err != nil {
		b.Fatal(err)
	}
	var batches [][]byte
	var nows []sched.Time
	var counts []int64
	for done := false; !done; {
		done = runner.Step(eng.Sim, workerChunk, 1024, nil)
		batches = append(batches, append([]byte(nil), eng.Rec.Take()...))
		now, _ := eng.Sim.Progress()
		nows, counts = append(nows, now), append(counts, eng.Sim.EventsPopped())
	}
	infos := make([]sched.TaskInfo, eng.Sim.NumTasks())
	for i := range infos {
		infos[i] = eng.Sim.TaskInfo(sched.TaskID(i))
	}
	var events int64
	cpu0 := cpuTime()
	for b.Loop() {
		r, err := view.NewRun(sc)
		if err != nil {
			b.Fatal(err)
		}
		for i, batch := range batches {
			var tasks []sched.TaskInfo
			if i == 0 {
				tasks = infos
			}
			if err := r.Ingest(batch, nows[i], counts[i], tasks); err != nil {
				b.Fatal(err)
			}
		}
		events += eng.Sim.EventsPopped()
	}
	reportRate(b, events, cpu0)
}

// TestWorkerLoopAllocs: once its buffers have grown, the worker's loop
// allocates nothing per event (GC under WASM runs inline on the one
// thread): a second run of the same chunks allocates a bounded number of
// objects, whatever the number of events.
func TestWorkerLoopAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs 500 ms of the budget scenario; allocation counts need no -race")
	}
	js := []byte(strings.Replace(budgetScenario, `"duration":"3s"`, `"duration":"500ms"`, 1))
	eng, err := runner.NewEngine(js)
	if err != nil {
		t.Fatal(err)
	}
	runner.Step(eng.Sim, workerChunk, 1024, nil) // tasks start, buffers grow
	eng.NewTasks()
	eng.Rec.Recycle(eng.Rec.Take())
	runner.Step(eng.Sim, workerChunk, 1024, nil)
	eng.Rec.Recycle(eng.Rec.Take())
	out := make([]byte, 0, 1<<20)
	var events int64
	allocs := testing.AllocsPerRun(5, func() {
		before := eng.Sim.EventsPopped()
		runner.Step(eng.Sim, workerChunk, 1024, nil)
		buf := eng.Rec.Take()
		out = append(out[:0], buf...)
		eng.NewTasks()
		eng.Rec.Recycle(buf)
		events = eng.Sim.EventsPopped() - before
	})
	if events < workerChunk/2 {
		t.Fatalf("a chunk processed %d events", events)
	}
	if allocs > 0 {
		t.Fatalf("%.0f allocations per chunk of %d events in the worker loop, want 0", allocs, events)
	}
}
