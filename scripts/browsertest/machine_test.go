//go:build browser

package browsertest

// The machine drawing (nested topology boxes that double as the heat map),
// trace exports made by the worker, and the structure behind the
// main-thread budget (results folded while streaming, not recomputed at
// the end).

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"schedplay/wasm/view"
)

// pickTopology chooses a topology and waits for the rerun to finish.
func pickTopology(tb *tab, name string) {
	tb.t.Helper()
	tb.change("#topology", name)
	tb.waitFor(fmt.Sprintf(`document.querySelector("#topology").value === %q && window.schedplay.done &&
  window.schedplay.drawn.length === document.querySelectorAll("#machine-svg rect.cpu").length`, name), 60*time.Second)
}

func TestMachineDrawing(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()

	// Two sockets: a package box each, one LLC per socket with its CPUs
	// listed the Linux way, an SMT core box per physical core.
	pickTopology(tb, "icelake-2s32c")
	count := func(sel string) int {
		return eval[int](tb, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	}
	if n := count("#machine-svg rect.m-package"); n != 2 {
		t.Errorf("icelake-2s32c: %d package boxes, want 2", n)
	}
	if n := count("#machine-svg rect.m-core"); n != 64 {
		t.Errorf("icelake-2s32c: %d core boxes, want 64", n)
	}
	if n := count("#machine-svg rect.cpu"); n != 128 {
		t.Errorf("icelake-2s32c: %d CPU cells, want 128", n)
	}
	llcs := eval[string](tb, `Array.from(document.querySelectorAll("#machine-svg rect.m-llc title")).map(function (e) { return e.textContent; }).join("|")`)
	if llcs != "LLC 0 (CPUs 0-31,64-95)|LLC 1 (CPUs 32-63,96-127)" {
		t.Errorf("icelake-2s32c LLC boxes %q", llcs)
	}
	// The heat map: a CPU whose timeline lane has nothing drawn is
	// idle-coloured, and some CPU is not (both cover the visible window).
	drawn := eval[[]int](tb, `window.schedplay.drawn`)
	fills := eval[[]string](tb, `Array.from({length: 128}, function (_, i) { return document.getElementById("cpu-box-" + i).getAttribute("fill"); })`)
	idle, busy := view.Heat(0).Hex(), 0
	for c, f := range fills {
		if drawn[c] == 0 && f != idle {
			t.Fatalf("CPU %d: fill %s but nothing drawn on its lane", c, f)
		}
		if f != idle {
			busy++
		}
	}
	if busy == 0 {
		t.Fatal("no busy CPU on the heat map")
	}
	// Tooltips: no <title> per cell; the one shared <title> moves into
	// the cell under the pointer and says that CPU's busy share.
	for _, c := range []int{5, 77} {
		eval[bool](tb, fmt.Sprintf(`(document.getElementById("cpu-box-%d").dispatchEvent(new MouseEvent("mouseover", {bubbles: true})), true)`, c))
		tip := eval[string](tb, fmt.Sprintf(`(document.querySelector("#cpu-box-%d > title") || {textContent: ""}).textContent`, c))
		if want := fmt.Sprintf("CPU%d: ", c); !strings.HasPrefix(tip, want) || !strings.Contains(tip, "% busy in ") {
			t.Errorf("CPU %d tooltip %q, want %q...%% busy in ...", c, tip, want)
		}
	}
	if n := count("#machine-svg rect.cpu title"); n != 1 {
		t.Errorf("%d <title> elements in CPU cells, want 1 (the shared one)", n)
	}

	// Hybrid: the E-cores' two L2 clusters are boxes; the P-cores are SMT
	// core boxes.
	pickTopology(tb, "alderlake-6p8e")
	if n := count("#machine-svg rect.m-cluster"); n != 2 {
		t.Errorf("alderlake-6p8e: %d cluster boxes, want 2", n)
	}
	if n := count("#machine-svg rect.m-core"); n != 6 {
		t.Errorf("alderlake-6p8e: %d core boxes, want 6", n)
	}
	labels := eval[string](tb, `Array.from(document.querySelectorAll("#machine-svg .box-label")).map(function (e) { return e.textContent; }).join("|")`)
	if !strings.Contains(labels, "cluster 10 (CPUs 16-19)") {
		t.Errorf("alderlake-6p8e labels %q: want cluster 10 (CPUs 16-19)", labels)
	}
	tb.screenshot("machine-alderlake")

	// 256 CPUs: compact cells, the drawing stays within a screen.
	pickTopology(tb, "epyc-milan-2s64c")
	if n := count("#machine-svg rect.cpu"); n != 256 {
		t.Errorf("epyc-milan-2s64c: %d CPU cells", n)
	}
	if h := eval[float64](tb, `document.getElementById("machine-svg").getBoundingClientRect().height`); h > 600 {
		t.Errorf("epyc-milan-2s64c drawing %.0f px high", h)
	}
	// A page render that changes neither the topology nor the window
	// neither rebuilds the drawing nor resends its colours.
	builds, sends := eval[float64](tb, `window.schedplay.machineBuilds`), eval[float64](tb, `window.schedplay.machineSends`)
	tb.openTab("json")
	tb.openTab("workload")
	tb.waitFor(`document.querySelectorAll("#machine-svg rect.cpu").length === 256`, 10*time.Second)
	if b, s := eval[float64](tb, `window.schedplay.machineBuilds`), eval[float64](tb, `window.schedplay.machineSends`); b != builds || s != sends {
		t.Errorf("switching tabs: drawing built %v -> %v times, heat sent %v -> %v times; want both unchanged", builds, b, sends, s)
	}
}

// ftrace and Perfetto exports come from the worker (a re-run of the
// scenario shown) and name the run's tasks.
func TestTraceExports(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.click("#export-ftrace")
	tb.waitFor(`window.schedplay.lastExport && window.schedplay.lastExport.name === "trace.txt"`, 60*time.Second)
	text := eval[string](tb, `window.schedplay.lastExport.text || ""`)
	if !strings.Contains(text, "sched_switch:") || !strings.Contains(text, "hog") {
		t.Fatalf("ftrace export: %.300s", text)
	}
	tb.click("#export-perfetto")
	tb.waitFor(`window.schedplay.lastExport.name === "trace.json" && window.schedplay.exporting === ""`, 60*time.Second)
	if n := eval[float64](tb, `window.schedplay.lastExport.bytes`); n < 1000 {
		t.Fatalf("Perfetto export of %v bytes", n)
	}
}

// The end of a long run reads results folded while it streamed (latency
// histogram, utilisation grid) instead of walking every slice inside the
// final render; the final render's cost is logged beside the long tasks.
func TestLongRunFoldsResults(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	short := strings.Replace(millionSlices, `"duration":"3s"`, `"duration":"1s"`, 1)
	short = strings.Replace(short, `"tasks":[`, `"tasks":[{"name":"sleeper","instances":4,"loop":-1,"program":[{"run":"50us"},{"sleep":"300us"}]},`, 1)
	tb.openTab("json")
	tb.applyJSON(short)
	tb.waitFor(`window.schedplay.running === true || window.schedplay.done === true`, 10*time.Second)
	tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === "" && window.schedplay.slices > 300000`, 3*time.Minute)
	t.Logf("%.0f slices; longest render %.1f ms, longest ingest %.1f ms; long tasks %s; slow page work %s",
		eval[float64](tb, `window.schedplay.slices`), eval[float64](tb, `window.schedplay.maxRenderMs`),
		eval[float64](tb, `window.schedplay.maxIngestMs`), eval[string](tb, `JSON.stringify(window.__longTasks)`),
		eval[string](tb, `JSON.stringify(window.schedplay.slowSpans)`))
	tb.waitFor(`window.schedplay.utilFolded !== undefined`, 5*time.Second)
	if !eval[bool](tb, `window.schedplay.utilFolded`) {
		t.Error("the utilisation chart walked the slices at the end of the run")
	}
	if n := eval[int](tb, `document.querySelectorAll("#hist rect").length`); n == 0 {
		t.Error("no latency histogram")
	}
}

// TestDOMSize logs how many elements each part of the page has, per tab of
// the side panel: a full Vugu render costs in proportion (it re-sends the
// whole tree), and only the selected tab is in the page.
func TestDOMSize(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	for _, name := range []string{"workload", "kernel", "json"} {
		tb.openTab(name)
		t.Logf("DOM with the %s tab: %s", name, eval[string](tb, `JSON.stringify({all: document.querySelectorAll("body *").length,
  machine: document.querySelectorAll(".machine *").length, knobs: document.querySelectorAll(".knobs *").length,
  workload: document.querySelectorAll(".workload *").length, editor: document.querySelectorAll(".editor *").length,
  metrics: document.querySelectorAll("#metrics *").length, header: document.querySelectorAll("header *").length,
  jsonChars: (document.querySelector("#json") || {value: ""}).value.length})`))
	}
	if n := eval[int](tb, `document.querySelectorAll(".knobs, .workload").length`); n != 0 {
		t.Errorf("%d knobs/workload panels in the page with the JSON tab selected, want 0", n)
	}
	tb.openSection("sysctl")
	if n := eval[int](tb, `document.querySelectorAll(".knobs .sysctl").length`); n == 0 {
		t.Error("the opened sysctls section shows no sysctl")
	}
	// A section the user opened stays open across the next run's renders.
	// (NEXT_BUDDY: the default preset is v6.18, where the CFS-only
	// features are disabled.)
	tb.click("#feat-NEXT_BUDDY")
	tb.waitFor(`window.schedplay.scenarioJSON.indexOf("NEXT_BUDDY") >= 0 && window.schedplay.done`, 60*time.Second)
	if got := eval[string](tb, `document.querySelector("#sec-sysctl").getAttribute("aria-expanded")`); got != "true" {
		t.Errorf("the sysctls section closed after a run (aria-expanded %q)", got)
	}
}

// TestMachineRebuildCost logs the main thread's CPU time (thread time: a
// loaded machine does not stretch it) of building the 256-CPU drawing, as
// after a topology change: the <svg>'s children are removed and a tab
// switch renders the page, whose after-render step rebuilds them; the same
// tab switches without the removal are subtracted. A measurement, not a
// gate; it uses only the page's DOM, so it runs against an older dist/
// (-dist) too.
func TestMachineRebuildCost(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	pickTopology(tb, "epyc-milan-2s64c")
	const rounds = 10
	switches := func(clear bool) map[string]float64 {
		c0 := tb.mainThreadCPU()
		for i := range rounds {
			if clear {
				eval[bool](tb, `(document.getElementById("machine-svg").innerHTML = "", true)`)
			}
			tb.openTab([]string{"json", "workload"}[i%2])
			tb.waitFor(`document.querySelectorAll("#machine-svg rect.cpu").length === 256`, 10*time.Second)
			time.Sleep(150 * time.Millisecond) // the style and layout of the next frame
		}
		c1 := tb.mainThreadCPU()
		d := map[string]float64{}
		for _, k := range []string{"TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration"} {
			d[k] = 1000 * (c1[k] - c0[k]) / rounds
		}
		return d
	}
	plain := switches(false)
	rebuilt := switches(true)
	d := func(k string) float64 { return rebuilt[k] - plain[k] }
	// The page's part alone: parsing the drawing's markup and the style
	// and layout that follow, the fastest of 10 (wall time; the fastest is
	// the one least stretched by other load).
	dom := eval[float64](tb, `(function () {
  var svg = document.getElementById("machine-svg"), s = svg.innerHTML, best = 1e9;
  for (var i = 0; i < 10; i++) {
    svg.innerHTML = ""; document.body.offsetHeight;
    var t0 = performance.now(); svg.innerHTML = s; document.body.offsetHeight;
    best = Math.min(best, performance.now() - t0);
  }
  return best; })()`)
	t.Logf("256-CPU machine drawing rebuild: %.1f ms main-thread CPU (script %.1f, layout %.1f, style %.1f; a tab switch alone %.1f ms); markup parse, style and layout %.1f ms; %d elements in the drawing",
		d("TaskDuration"), d("ScriptDuration"), d("LayoutDuration"), d("RecalcStyleDuration"), plain["TaskDuration"], dom,
		eval[int](tb, `document.querySelectorAll("#machine-svg *").length`))
}
