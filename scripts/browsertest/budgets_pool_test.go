//go:build browser

package browsertest

// The budgets of issue 20 that measure what users wait for: for each seed
// preset, the wall time from pressing *Run the thread's experiment* (the
// block's own runs per cell) to the complete table, with 1 and with 2
// pool workers, beside the real CLI on one core (GOMAXPROCS=1) running
// the same runs in the same test, and their ratio (target: at most 1.5x
// with the pool on the 2-core test machine); the pool's scaling (1 worker
// over 2); and the time from opening a 144-CPU preset to its first drawn
// timeline. The page's Markdown is checked against the CLI's on the way.
// Two more tables make the floor argument (which part of a 2-worker ratio
// is the engine under WASM, which the split of the jobs over 2 workers,
// which the machine's load and which the pool): the jobs' own times
// (wasm/pool bound.go's best split of them) and the CPU the browser's
// threads used during each batch (proccpu_test.go), beside the CLI's CPU.
// It writes the "Thread experiments on the worker pool" section of
// docs/budgets.md (with -screenshots, as the other budget tests).

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/core/scenario"
	"schedplay/wasm/pool"
)

// threadPresets limits TestBudgetsThreads to some seed presets (comma
// separated; default all).
var threadPresets = flag.String("thread-presets", "", "TestBudgetsThreads: the seed presets to time (default: all)")

// threadThink is the pause before each Run, as a user reading the timeline
// or the settings takes, during which the pool warms its workers
// (wasm/pool/warm.go); 0, the default, presses Run at once.
var threadThink = flag.Duration("thread-think", 0, "TestBudgetsThreads: pause this long before each Run (the pool warms up meanwhile)")

// threadBudget is the ratio to the single-core CLI that a thread's table
// may take on the pool (issue 20).
const threadBudget = 1.5

func TestBudgetsThreads(t *testing.T) {
	var seeds []string
	all := 0
	for _, p := range scenario.Presets() {
		if !strings.HasPrefix(p.Name, "seed/") {
			continue
		}
		all++
		if *threadPresets == "" || strings.Contains(","+*threadPresets+",", ","+p.Name+",") {
			seeds = append(seeds, p.Name)
		}
	}
	if testing.Short() {
		seeds = []string{"seed/sched-idle-wakeup"} // the quickest, to check the test itself
	}
	rows := []string{"| preset | runs | CLI, 1 core | 1 worker | 2 workers | scaling | |", "|---|---|---|---|---|---|---|"}
	acct := []string{"| preset | workers | wall | worker time on jobs (of it planning) | simulation floor | round trips (first jobs; of them waiting in the worker) | tail | evaluation | other | page after the report |",
		"|---|---|---|---|---|---|---|---|---|---|"}
	floorRows := []string{"| preset | jobs | CLI, 1 core | 1-worker floor | longest job | 2-worker bound | best split of the jobs | 2-worker jobs' slowdown | expected | measured | pool |",
		"|---|---|---|---|---|---|---|---|---|---|---|"}
	cpuRows := []string{"| preset | workers | wall | Web Workers | page (main thread) | renderer's other threads | browser's other processes | rest of the machine | idle |",
		"|---|---|---|---|---|---|---|---|---|"}
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	defer tb.setPool("auto")
	cpuRows = append(cpuRows, idleCPURows(tb)...)
	for _, name := range seeds {
		want, cliTime, cliCPUTime := cliCPU(t, "compare", "-preset", name, "-o", "markdown")
		tb.change("#preset", name)
		tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, name), 3*time.Minute)
		var wall [2]time.Duration
		var jobMs [2][]float64
		var wcpu [2]float64
		runs := 0.0
		for k, n := range []string{"1", "2"} {
			tb.setPool(n)
			time.Sleep(*threadThink)
			est := tb.progressText("#thread-estimate")
			c0 := sampleCPU()
			t0 := time.Now()
			st := tb.runThread(15 * time.Minute)
			wall[k] = time.Since(t0)
			c1 := sampleCPU()
			cpuRows = append(cpuRows, cpuRow(name, n, c0, c1, runtime.NumCPU()))
			d, _, _ := cpuUse(c0, c1)
			wcpu[k] = d["renderer: Web Workers"]
			t.Logf("%s", cpuRows[len(cpuRows)-1])
			jobMs[k] = lastJobMs(tb)
			runs = st["total"].(float64)
			if md := eval[string](tb, `document.querySelector("#thread-md").textContent`); !sameButBuild(md, want) {
				t.Errorf("%s on %s workers: the page's Markdown differs from `schedplay compare -preset %s -o markdown`", name, n, name)
			}
			t.Logf("%s, %s worker(s): %.0f runs in %v (estimate before the start: %q); CLI on one core %v",
				name, n, runs, wall[k].Round(time.Millisecond), est, cliTime.Round(time.Millisecond))
			msgs := eval[map[string]any](tb, `window.schedplay.pool || {}`)
			t.Logf("%s, %s worker(s): the page handled %v pool messages in %.0f ms (its Go handlers' time)", name, n, msgs["msgs"], msgs["msgMs"])
			if row, ok := accountRow(tb, name, n, wall[k], cliTime); ok {
				acct = append(acct, row)
				t.Logf("%s", row)
			}
		}
		r1, r2 := wall[0].Seconds()/cliTime.Seconds(), wall[1].Seconds()/cliTime.Seconds()
		verdict := "ok"
		if r2 > threadBudget {
			verdict = "OVER BUDGET"
		}
		rows = append(rows, fmt.Sprintf("| %s | %.0f | %.1f s | %.1f s (%.2fx) | %.1f s (%.2fx) | %.2fx | %s |",
			name, runs, cliTime.Seconds(), wall[0].Seconds(), r1, wall[1].Seconds(), r2, wall[0].Seconds()/wall[1].Seconds(), verdict))
		if row, ok := floorRow(name, jobMs, wall[1], cliTime, wcpu, cliCPUTime); ok {
			floorRows = append(floorRows, row)
			t.Logf("%s", row)
		}
	}

	// Opening a 144-CPU preset: the select's change to the first drawing
	// of its 144 lanes with slices in them.
	tb.setPool("auto")
	tb.change("#preset", "demo/periodic-vs-hog")
	tb.waitFor(`window.schedplay.preset === "demo/periodic-vs-hog" && window.schedplay.done`, 60*time.Second)
	t0 := time.Now()
	tb.change("#preset", "seed/newidle-rt-latency")
	tb.waitFor(`window.schedplay.drawn && window.schedplay.drawn.length === 144 && window.schedplay.drawn.some(function (d) { return d > 0; })`, 3*time.Minute)
	first := time.Since(t0)
	posted, batch, drawn := openPhases(tb)
	t.Logf("144 CPUs: first drawn timeline %v after opening the preset (run start to post %.0f ms, first batch %.0f ms, first drawn %.0f ms)",
		first.Round(time.Millisecond), posted, batch, drawn)

	section := "## Thread experiments on the worker pool\n\n" +
		"Measured by TestBudgetsThreads: the wall time from pressing *Run the thread's experiment* (the block's runs per cell) to the complete table, " +
		fmt.Sprintf("beside `schedplay compare -preset NAME` with GOMAXPROCS=1 in the same test; the budget is at most %.1fx the CLI with 2 workers on the 2-core machine. ", threadBudget) +
		"Scaling is the 1-worker time over the 2-worker time.\n\n" + strings.Join(rows, "\n") + "\n\n" +
		"Where the time goes, from the pool's accounting (wasm/pool/stats.go), in seconds summed over the workers: " +
		"the workers' own time on their jobs (planning the batch apart), the simulation floor (that time over the workers, " +
		"as a ratio to the CLI: the table's time if nothing but the jobs cost anything), the job round trips between page and worker " +
		"(the first job of each worker apart, and of that the time those first jobs waited in their worker before starting: a warm-up giving way), the workers idle at the end while the last jobs ran, the evaluation, what is left, " +
		"and the page's time from the report to the table (the test's wall time less the pool's).\n\n" + strings.Join(acct, "\n") + "\n\n" +
		"The floor argument: which part of each 2-worker ratio is the WASM floor and which the pool. " +
		"The 1-worker floor is the 1-worker batch's time on its jobs over the CLI's (the engine under WASM against native, nothing else); " +
		"the longest job and the 2-worker bound (the larger of the longest job and half the jobs' total) are from those same job times, " +
		"and the best split is the shortest wall time of those jobs on 2 workers with no overhead, a job never split (exact for up to 16 jobs; wasm/pool/bound.go); " +
		"all as ratios to the CLI. The 2-worker jobs' slowdown is the 2-worker batch's time on its jobs over the 1-worker batch's: " +
		"what running two simulations at once on this machine costs each (two cores shared with the page, the browser and the machine's other load). " +
		"Beside the 1-worker floor and the slowdown, the same in CPU time (the Web Workers' threads' CPU from /proc over the CLI's process CPU; the 2-worker batch's over the 1-worker's), " +
		"which the machine's other load stretches far less than wall time: a CPU ratio near 1 under a large wall-time slowdown means the workers waited for a core, not that they did more work. " +
		"Expected is the best split times that slowdown; pool is the measured over the expected: what the pool itself adds (round trips, a worse order than the best split, the evaluation, the page's work).\n\n" +
		strings.Join(floorRows, "\n") + "\n\n" +
		"Where the machine's CPU went during each batch (scripts/browsertest/proccpu_test.go: the browser's threads from /proc, in CPU seconds and, in brackets, cores' worth over the wall time; " +
		"the rest of the machine includes this test and the CLI's other users):\n\n" + strings.Join(cpuRows, "\n") + "\n\n" +
		fmt.Sprintf("Opening seed/newidle-rt-latency (144 CPUs) to its first drawn timeline: %.1f s (the page's marks from the run's start: posted to the worker %.0f ms, first batch folded %.0f ms, first timeline drawn %.0f ms).\n\n",
			first.Seconds(), posted, batch, drawn) + loadNote()
	if len(seeds) < all {
		section += "Only these seed presets were timed (-thread-presets).\n"
	}
	if *threadThink > 0 {
		section += fmt.Sprintf("Each Run was pressed %v after the Workers setting changed (-thread-think).\n", *threadThink)
	}
	fmt.Print(section)
	if *shotsDir != "" {
		writeSection(t, "Thread experiments on the worker pool", section)
	}
}

// accountRow is the pool's time accounting of the batch that just ran
// (window.schedplay.pool.stats) as a row of the breakdown table; wall is
// the test's time for it, cli the CLI's for the same runs.
func accountRow(tb *tab, name, workers string, wall, cli time.Duration) (string, bool) {
	st := eval[map[string]any](tb, `(window.schedplay.pool && window.schedplay.pool.stats) || {}`)
	num := func(k string) float64 { v, _ := st[k].(float64); return v / 1000 }
	if len(st) == 0 || num("wall") <= 0 {
		tb.t.Errorf("%s on %s workers: no pool accounting published", name, workers)
		return "", false
	}
	w := st["workers"].(float64)
	floor := num("work") / w
	return fmt.Sprintf("| %s | %s | %.1f s | %.1f s (%.2f s) | %.1f s (%.2fx) | %.2f s (%.2f s; %.2f s) | %.2f s | %.2f s | %.2f s | %.2f s |",
		name, workers, num("wall"), num("work"), num("plan"), floor, floor/cli.Seconds(), num("trip"), num("firstTrip"), num("firstWait"),
		num("tail"), num("eval"), num("other"), wall.Seconds()-num("wall")), true
}

// idleCPURows are the CPU table's baselines: 2 s of the idle page, left
// alone and then polled as runThread polls it, to tell the page's own
// work during a batch from the test's polling and the browser's idling.
func idleCPURows(tb *tab) []string {
	c0 := sampleCPU()
	time.Sleep(2 * time.Second)
	c1 := sampleCPU()
	chromedp.Run(tb.ctx, chromedp.Poll[bool](`window.schedplay.thread && window.schedplay.thread.id < 0`, // never true: polled for 2 s
		chromedp.WithPollingTimeout(2*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
	c2 := sampleCPU()
	return []string{cpuRow("(the idle page)", "-", c0, c1, runtime.NumCPU()), cpuRow("(the idle page, polled every 20 ms)", "-", c1, c2, runtime.NumCPU())}
}

// lastJobMs is each job's worker time in the batch that just ran
// (window.schedplay.poolJobMs), in ms by job index.
func lastJobMs(tb *tab) []float64 {
	return eval[[]float64](tb, `window.schedplay.poolJobMs || []`)
}

// floorRow is the floor argument of a preset (see the section's text):
// ms are its jobs' worker times with 1 and 2 workers, wall2 the 2-worker
// table's wall time, cli the CLI's.
func floorRow(name string, ms [2][]float64, wall2, cli time.Duration, wcpu [2]float64, cliCPU time.Duration) (string, bool) {
	sum := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s
	}
	s1, s2 := sum(ms[0]), sum(ms[1])
	if len(ms[0]) == 0 || s1 <= 0 || s2 <= 0 || cli <= 0 {
		return "", false
	}
	c := cli.Seconds() * 1000
	longest := 0.0
	for _, x := range ms[0] {
		longest = max(longest, x)
	}
	best := pool.BestMakespan(ms[0], 2)
	slow := s2 / s1
	expected := best * slow
	measured := wall2.Seconds() * 1000
	cpu := func(v float64) string {
		if v <= 0 || cliCPU <= 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2fx", v/cliCPU.Seconds())
	}
	cpu2 := "n/a"
	if wcpu[0] > 0 && wcpu[1] > 0 {
		cpu2 = fmt.Sprintf("%.2fx", wcpu[1]/wcpu[0])
	}
	return fmt.Sprintf("| %s | %d | %.2f s (CPU %.2f s) | %.2fx (CPU %s) | %.2fx | %.2fx | %.2fx | %.2fx (CPU %s) | %.2fx | %.2fx | %.2fx |",
		name, len(ms[0]), c/1000, cliCPU.Seconds(), s1/c, cpu(wcpu[0]), longest/c, pool.LowerBound(ms[0], 2)/c, best/c, slow, cpu2,
		expected/c, measured/c, measured/expected), true
}

// loadNote says how loaded the machine was when a table was measured
// (the 1-minute load average over its CPUs), so that a table taken on a
// busy machine says so.
func loadNote() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return fmt.Sprintf("Measured with a load average of %s on %d CPUs.\n", f[0], runtime.NumCPU())
}

// writeSection replaces the "## heading" section of docs/budgets.md (up to
// the next "## " heading), or appends it.
func writeSection(t *testing.T, heading, section string) {
	path := filepath.Join(*shotsDir, "..", "budgets.md")
	old, _ := os.ReadFile(path)
	s := string(old)
	mark := "\n## " + heading + "\n"
	head, rest, found := strings.Cut(s, mark)
	tail := ""
	if found {
		if k := strings.Index(rest, "\n## "); k >= 0 {
			tail = rest[k+1:]
		}
	} else {
		head = s
	}
	out := strings.TrimRight(head, "\n") + "\n\n" + strings.TrimRight(section, "\n") + "\n"
	if tail != "" {
		out += "\n" + tail
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Error(err)
	}
}
