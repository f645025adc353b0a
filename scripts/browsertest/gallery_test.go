//go:build browser

package browsertest

// The gallery and the thread experiments: the gallery lists every preset
// with the seed threads first, opens seed/sched-idle-wakeup ready to run,
// runs its thread's experiment in the worker (runs=1 for a quick look) and
// shows the thread's table with both configurations and the thread's
// numbers with pass/FAIL; the A/B toggles run A then B into the A/B view;
// hostile strings in a pasted scenario's experiment block stay text.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
)

// cliMarkdown is what `schedplay compare -preset NAME -runs N -o markdown`
// prints, computed natively as the CLI does (Plan, Execute, EvaluateThread,
// the shared renderer).
func cliMarkdown(t *testing.T, preset string, runs int) string {
	sc, err := scenario.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	e := sc.Experiment
	jobs, err := experiment.Plan(sc, preset, experiment.ThreadConfigs(e), runs)
	if err != nil {
		t.Fatal(err)
	}
	var vals []experiment.Values
	var labels []string
	ncpu := 0
	for i, j := range jobs {
		r, err := experiment.Execute(j)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, experiment.Measure(r))
		if i%(len(e.Configs)*runs) == 0 {
			labels = append(labels, fmt.Sprintf("topology %s, kernel %s", r.Report.Topology, r.Report.Kernel))
		}
		ncpu = max(ncpu, j.Cfg.Machine.NumCPUs())
	}
	var groups []string
	for _, g := range sc.Tasks {
		groups = append(groups, g.Name)
	}
	names, err := experiment.Resolve(e.Metrics, groups, ncpu)
	if err != nil {
		t.Fatal(err)
	}
	res, err := experiment.EvaluateThread(e, names, experiment.ThreadCube(e, vals, runs), experiment.CenterMean)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for i := 0; i < runs; i++ {
		seeds = append(seeds, jobs[i].Seed)
	}
	return (&experiment.ThreadRender{Name: preset, Runs: runs, Seeds: seeds, Labels: labels, Res: res, Prov: scenario.ProvenanceOf(sc), Build: scenario.BuildVersion()}).Markdown()
}

const seedPreset = "seed/sched-idle-wakeup"

func TestGalleryThreadExperiment(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()

	tb.click("#open-gallery")
	tb.waitFor(`document.querySelector("#gallery .cards .card") !== null`, 10*time.Second)
	cards := eval[[]string](tb, `Array.from(document.querySelectorAll("#gallery .card .card-name")).map(function(e){return e.textContent})`)
	presets := eval[[]string](tb, `Array.from(document.querySelectorAll("#preset option")).map(function(e){return e.value}).filter(function(v){return v})`)
	if len(cards) != len(presets) || len(cards) < 9 {
		t.Fatalf("gallery cards %v, presets %v", cards, presets)
	}
	if !strings.HasPrefix(cards[0], "seed/") {
		t.Fatalf("first card %q: want the seed presets first", cards[0])
	}
	tb.screenshot("gallery")
	card := "#card-seed-sched-idle-wakeup"
	subject := eval[string](tb, `document.querySelector("`+card+` .card-thread").textContent`)
	if !strings.Contains(subject, "avoid vruntime compensation for SCHED_IDLE task") || !strings.Contains(subject, "2020-08") {
		t.Fatalf("card thread line %q", subject)
	}
	if k := eval[string](tb, `document.querySelector("`+card+` .kind").textContent`); k != "emergent" {
		t.Fatalf("card kind %q", k)
	}

	tb.click(card + " .open-preset")
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done && !window.schedplay.thread.gallery`, seedPreset), 60*time.Second)
	opts := eval[[]string](tb, `Array.from(document.querySelectorAll("#ab-b option")).map(function(e){return e.textContent})`)
	if strings.Join(opts, "|") != "v5.8|v5.8 + patch" {
		t.Fatalf("A/B toggles %v", opts)
	}
	if r := eval[string](tb, `document.querySelector("#thread-runs").value`); r != "5" {
		t.Fatalf("runs control %q: want the block's 5", r)
	}

	tb.change("#thread-runs", "1")
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.running === false && window.schedplay.thread.fails !== undefined`, 120*time.Second)
	st := eval[map[string]any](tb, `window.schedplay.thread`)
	if st["total"] != 2.0 || st["finished"] != 2.0 || st["error"] != "" {
		t.Fatalf("thread state %v: want 2 runs (2 configurations x 1 run)", st)
	}
	heads := eval[[]string](tb, `Array.from(document.querySelectorAll("#thread-result .thread-table thead th")).map(function(e){return e.textContent})`)
	if strings.Join(heads, "|") != "metric|unit|better|v5.8|v5.8 + patch" {
		t.Fatalf("table header %v", heads)
	}
	rows := eval[[][]string](tb, `Array.from(document.querySelectorAll("#thread-result .thread-table tbody tr")).map(function(r){
  return Array.from(r.children).map(function(c){return c.textContent})})`)
	if len(rows) != 4 {
		t.Fatalf("table rows %v", rows)
	}
	for _, r := range rows {
		if len(r) != 5 || r[3] == "-" || r[4] == "-" || !strings.Contains(r[4], "%)") {
			t.Fatalf("row %v: want a value per configuration and B's change", r)
		}
	}
	checks := eval[[][]string](tb, `Array.from(document.querySelectorAll("#thread-checks tbody tr")).map(function(r){
  return Array.from(r.children).map(function(c){return c.textContent})})`)
	if len(checks) != 2 {
		t.Fatalf("thread's numbers %v", checks)
	}
	fails := 0
	for _, c := range checks {
		if len(c) != 5 || (c[4] != "pass" && c[4] != "FAIL") || c[1] == "" || c[2] == "-" {
			t.Fatalf("check row %v: want thread, simulator, tolerance, pass/FAIL", c)
		}
		if c[4] == "FAIL" {
			fails++
		}
	}
	if float64(fails) != st["fails"] {
		t.Fatalf("%d FAIL rows, state says %v", fails, st["fails"])
	}
	if n := eval[int](tb, `document.querySelectorAll("#thread-result svg.bars rect.bar").length`); n != 8 {
		t.Fatalf("%d bars: want 4 metrics x 2 configurations", n)
	}
	tb.do(chromedp.ScrollIntoView("#thread"))
	tb.screenshot("thread")
	md := eval[string](tb, `document.querySelector("#thread-md").textContent`)
	if want := cliMarkdown(t, seedPreset, 1); !sameButBuild(md, want) {
		t.Fatalf("the page's Markdown differs from compare -preset -runs 1 -o markdown:\n%s\n---\n%s", md, want)
	}

	// A/B toggles: B then A swapped, run into the A/B view.
	tb.change("#ab-a", "1")
	tb.change("#ab-b", "0")
	tb.click("#run-ab")
	tb.waitFor(`document.querySelector("#compare table") !== null && window.schedplay.done`, 60*time.Second)
	tb.openTab("kernel")
	if !eval[bool](tb, `document.querySelector("#feat-SCHED_IDLE_NO_SLEEPER_CREDIT").checked === false`) {
		t.Fatal("B (v5.8) should run with SCHED_IDLE_NO_SLEEPER_CREDIT off")
	}
}

// Names, subjects and configuration names of a pasted scenario are text.
func TestThreadStringsEscaped(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", seedPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, seedPreset), 60*time.Second)
	tb.openTab("json")
	eval[bool](tb, `(function(){ var s = JSON.parse(document.querySelector("#json").value);
  s.name = '<img id="xss1" src="x" onerror="window.__xss=1">';
  s.experiment.thread = '<script>window.__xss=2</script><b id="xss2">t</b>';
  s.experiment.explain = '<i id="xss3">e</i>';
  s.experiment.configs[1].name = '<b id="xss4">patch</b>';
  s.experiment.reference[1].config = s.experiment.configs[1].name;
  var e = document.querySelector("#json"); e.value = JSON.stringify(s);
  e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true}));
  return true; })()`)
	tb.click("#apply-json")
	tb.waitFor(`document.querySelector("#thread .thread-subject") !== null && document.querySelector("#thread .thread-subject").textContent.indexOf("<script>") >= 0`, 20*time.Second)
	tb.change("#thread-runs", "1")
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.running === false && window.schedplay.thread.fails !== undefined`, 120*time.Second)
	if n := eval[int](tb, `document.querySelectorAll("#xss1, #xss2, #xss3, #xss4").length`); n != 0 {
		t.Fatalf("%d injected elements in the page", n)
	}
	if eval[bool](tb, `window.__xss !== undefined`) {
		t.Fatal("injected script ran")
	}
	if th := eval[string](tb, `document.querySelectorAll("#thread-result thead th")[4].textContent`); th != `<b id="xss4">patch</b>` {
		t.Fatalf("configuration header %q: want the name as text", th)
	}
}

// bigThread is an experiment with a 144-CPU variant (288 tasks): seconds
// of simulation in the worker, with progress and time left on the page;
// progress reaches the DOM without page renders. (Long tasks and the
// longest message handling are logged, not asserted: they are wall time,
// and on a loaded machine the worker starves the main thread; the page's
// own re-render when the experiment starts counts there too.)
const bigThread = `{"version":1,"name":"big/thread","topology":"smp-8","kernel":{"version":"v6.18"},"duration":"150ms","seed":1,
 "tasks":[{"name":"w","instances":288,"loop":-1,"program":[{"run":"200us"},{"sleep":"300us"}]}],
 "experiment":{"thread":"a 144-CPU variant","kind":"emergent",
   "configs":[{"name":"A","set":["features.NEXT_BUDDY=off"]},{"name":"B","set":["features.NEXT_BUDDY=on"]}],
   "variants":[{"name":"8 CPUs","set":["topology=smp-8"]},{"name":"144 CPUs","set":["topology=xeon-4s18c"]}],
   "metrics":["latency.p99@w","throughput"],"runs":1}}`

func TestThreadExperimentLarge(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	tb.applyJSON(bigThread)
	tb.waitFor(`document.querySelector("#run-thread") !== null && window.schedplay.done`, 60*time.Second)

	// Cancel: the worker stops within a chunk and runs the next job at once.
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.fraction > 0.05`, 60*time.Second)
	tb.click("#cancel-thread")
	tb.waitFor(`window.schedplay.thread.running === false`, 5*time.Second)
	if eval[bool](tb, `document.querySelector("#thread-result") !== null`) {
		t.Fatal("a cancelled experiment shows results")
	}
	t0 := time.Now()
	tb.click("#run")
	tb.waitDone()
	t.Logf("a run after the cancel finished %v later", time.Since(t0).Round(time.Millisecond))

	// A run started meanwhile supersedes the experiment (the worker moves on).
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.running && window.schedplay.thread.fraction > 0.02`, 60*time.Second)
	tb.click("#run")
	tb.waitFor(`window.schedplay.thread.running === false && document.querySelector("#run-thread") !== null`, 5*time.Second)
	tb.waitDone()

	eval[bool](tb, `(window.__longTasks = [], true)`)
	renders0 := eval[int](tb, `window.schedplay.thread.renders`)
	start := time.Now()
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.finished >= 1 && window.schedplay.thread.running`, 60*time.Second)
	tb.waitFor(`document.querySelector("#thread-progress-text").textContent.indexOf("left") > 0`, 60*time.Second)
	progress := eval[string](tb, `document.querySelector("#thread-progress-text").textContent`)
	tb.waitFor(`window.schedplay.thread.running === false && window.schedplay.thread.fails !== undefined`, 180*time.Second)
	longest := eval[float64](tb, `window.__longTasks.reduce(function (a, b) { return Math.max(a, b); }, 0)`)
	msgMs := eval[float64](tb, `window.schedplay.thread.maxMsgMs`)
	t.Logf("4 runs (2 on 144 CPUs) in %v; progress %q; longest handling of a worker message %.1f ms; "+
		"longest main-thread task %.0f ms (%d over 50 ms)", time.Since(start).Round(time.Millisecond), progress, msgMs,
		longest, eval[int](tb, `window.__longTasks.length`))
	// Progress goes straight into the DOM: the page renders when the
	// experiment starts and when it ends, not per message.
	if n := eval[int](tb, `window.schedplay.thread.renders`) - renders0; n > 3 {
		t.Fatalf("%d page renders during the experiment: want the start and the end only", n)
	}
	if n := eval[int](tb, `document.querySelectorAll("#thread-result .thread-table").length`); n != 2 {
		t.Fatalf("%d tables: want one per variant", n)
	}
	title := eval[string](tb, `document.querySelectorAll("#thread-result .thread-table h3")[1].textContent`)
	if !strings.Contains(title, "144 CPUs") || !strings.Contains(title, "xeon-4s18c") {
		t.Fatalf("second table %q", title)
	}
}
