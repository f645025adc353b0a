package runner

// Where a pool worker's time goes, job by job (docs/budgets.md "Where the
// time goes"): the batch's planning (the scenario decoded, the lazy plan),
// then per job its build (the configuration for its seed), its start
// (sched.New and the consumers), the simulation in the worker's slices,
// the metrics report and values (Finish, Measure) and the result's
// encoding; then the evaluation of every result into the report. Run
// natively and under Node (js/wasm, the browser's code) on the same
// preset, it splits the pool's wall time into the simulation and the rest:
//
//	SCHEDPLAY_JOBCOST=seed/nohz-pipe go test -run TestJobCost -v ./wasm/runner/
//	SCHEDPLAY_JOBCOST=seed/nohz-pipe GOOS=js GOARCH=wasm go test -run TestJobCost -v ./wasm/runner/
//
// (the second with $(go env GOROOT)/lib/wasm on PATH);
// SCHEDPLAY_JOBCOST_JOBS=N times the first N jobs only;
// SCHEDPLAY_JOBCOST_WARM=1 warms the code first (warm.go). It is a
// measurement, skipped unless SCHEDPLAY_JOBCOST names a preset.

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/protocol"
)

func TestJobCost(t *testing.T) {
	name := os.Getenv("SCHEDPLAY_JOBCOST")
	if name == "" {
		t.Skip("a measurement: set SCHEDPLAY_JOBCOST to a preset (seed/nohz-pipe)")
	}
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	spec := protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode())}
	ms := func(t0 time.Time) float64 { return float64(time.Since(t0).Nanoseconds()) / 1e6 }
	clock := func() float64 { return float64(time.Now().UnixNano()) / 1e6 }

	if os.Getenv("SCHEDPLAY_JOBCOST_WARM") != "" { // as a pool worker warmed while the user edits (warm.go)
		t0 := time.Now()
		NewService(WorkerPace(), clock, func() {}, func(protocol.Message) {}).warm(spec)
		t.Logf("%s: warm-up %.1f ms (not in the figures below)", name, ms(t0))
	}
	t0 := time.Now()
	b, err := PlanBatch(spec)
	if err != nil {
		t.Fatal(err)
	}
	planMs := ms(t0)
	q := b.queue()
	var build, start, sim, finish, encode float64
	var events int64
	nvals := 0
	results := make([]string, len(q.jobs))
	perJob := make([]float64, len(q.jobs))
	n := len(q.jobs)
	if v, err := strconv.Atoi(os.Getenv("SCHEDPLAY_JOBCOST_JOBS")); err == nil && v > 0 {
		n = min(n, v) // the first jobs only (seed/cluster-hybrid has 900)
	}
	for i := range n {
		tj := time.Now()
		t0 = time.Now()
		j, err := q.plan.Build(i)
		if err != nil {
			t.Fatal(err)
		}
		build += ms(t0)
		t0 = time.Now()
		x, err := experiment.StartCached(j, q.domains) // the worker's path (pool.go)
		if err != nil {
			t.Fatal(err)
		}
		start += ms(t0)
		t0 = time.Now()
		slice := firstSlice
		for {
			// the worker's adaptive slice (chunk.go), without its progress posts
			ts := clock()
			if x.Advance(slice) {
				break
			}
			if clock()-ts < WorkerPace().ChunkMs/50 {
				slice = min(maxSlice, slice*2)
			}
		}
		sim += ms(t0)
		events += x.Events()
		t0 = time.Now()
		r, err := x.Finish()
		if err != nil {
			t.Fatal(err)
		}
		v := experiment.Measure(r)
		nvals = max(nvals, len(v))
		finish += ms(t0)
		t0 = time.Now()
		results[i] = encodeJobResult(v, fmt.Sprintf("topology %s, kernel %s", r.Report.Topology, r.Report.Kernel))
		encode += ms(t0)
		q.plan.Release(i)
		perJob[i] = ms(tj)
	}
	if n < len(q.jobs) {
		t.Logf("%s: the first %d of %d jobs: plan %.1f ms, build %.1f, start %.1f, simulation %.1f (%.0f ns/event), finish+measure %.1f, encode %.2f",
			name, n, len(q.jobs), planMs, build, start, sim, sim*1e6/float64(max(events, 1)), finish, encode)
		return
	}
	t0 = time.Now()
	all, _ := json.Marshal(results)
	ev, err := PlanBatch(spec)
	if err == nil {
		err = setResults(ev, string(all))
	}
	if err != nil {
		t.Fatal(err)
	}
	decodeMs := ms(t0)
	if _, err := ev.ReportJSON(); err != nil {
		t.Fatal(err)
	}
	evalMs := ms(t0)
	total := planMs + build + start + sim + finish + encode + evalMs
	var jobs []string
	for _, d := range perJob {
		jobs = append(jobs, fmt.Sprintf("%.0f", d))
	}
	t.Logf("%s: %d jobs, %d events; plan %.1f ms, build %.1f, start %.1f, simulation %.1f (%.0f ns/event), finish+measure %.1f, encode %.2f (%d values a job at most), evaluate %.1f (of it planning and decoding %.1f); total %.1f ms (simulation %.1f%%)",
		name, len(q.jobs), events, planMs, build, start, sim, sim*1e6/float64(max(events, 1)), finish, encode, nvals, evalMs, decodeMs, total, 100*sim/total)
	t.Logf("per job (ms, plan order): %s", strings.Join(jobs, " "))
}
