//go:build browser

package browsertest

// Page renders at 256 CPUs (issue 3): what a render sends and what it
// must leave alone. Vugu v0.4.0 re-sends the whole template on every page
// render (wasm/rendersize.go), so the big parts of the page live outside
// it, filled by the bridge into host elements (wasm/hosts.go): the
// timeline and utilisation canvases, the runqueue list, the machine
// drawing, and the metrics tables and histogram (wasm/results.go).

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"schedplay/core/scenario"
)

// hostedJS lists the bridge-owned nodes a page render must keep.
var hosted = []string{"#tl-canvas", "#util-canvas", "#rq-list", "#task-table", "#cpu-table", "#hist > g", "#machine-svg > *",
	"#preset > option:last-child"}

// markHosted tags each hosted node with an expando property; sameHosted
// says, per node, whether the one now in the page still has it.
func markHosted(tb *tab) {
	tb.t.Helper()
	for _, sel := range hosted {
		if !eval[bool](tb, fmt.Sprintf(`(function () { var e = document.querySelector(%q); if (!e) return false; e.__kept = true; return true; })()`, sel)) {
			tb.t.Fatalf("no %s in the page", sel)
		}
	}
}

func sameHosted(tb *tab) map[string]bool {
	tb.t.Helper()
	out := map[string]bool{}
	for _, sel := range hosted {
		out[sel] = eval[bool](tb, fmt.Sprintf(`(function () { var e = document.querySelector(%q); return !!(e && e.__kept); })()`, sel))
	}
	return out
}

// TestRenderKeepsHosts: a page render (a tab switch) leaves the canvases,
// lists, drawing and tables in place. Before the hosts had dynamic ids,
// each render emptied the static ones (vugugen sets an empty static
// element's innerHTML to "" on every render): the timeline canvas was
// re-created and redrawn in full after every click.
func TestRenderKeepsHosts(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	// A runqueue list needs a cursor: click the timeline.
	tb.clickTimeline(0.4)
	tb.waitFor(`!!document.querySelector("#rq-list li")`, 5*time.Second)
	rq := eval[int](tb, `document.querySelectorAll("#rq-list li").length`)
	// The preset list (wasm/presetlist.go): every preset, and the one
	// shown selected.
	if n, want := eval[int](tb, `document.querySelectorAll("#preset option").length`), len(scenario.Presets()); n != want+1 {
		t.Errorf("%d preset options, want %d presets and the gallery entry", n, want)
	}
	selected := func() string { return eval[string](tb, `document.getElementById("preset").value`) }
	if got, want := selected(), eval[string](tb, `window.schedplay.preset`); got != want || got == "" {
		t.Errorf("preset list shows %q, the page runs preset %q", got, want)
	}
	// ... and a render leaves the list alone (Vugu re-sent every option's
	// value, title, selected state and text with each render).
	// (The select's own attributes are Vugu's: it sets its id each time.)
	eval[bool](tb, `(function () { window.__presetMuts = 0; var sel = document.getElementById("preset");
  new MutationObserver(function (l) { l.forEach(function (m) { if (m.target !== sel || m.type !== "attributes") window.__presetMuts++; }); })
    .observe(sel, {subtree: true, childList: true, attributes: true, characterData: true}); return true; })()`)
	markHosted(tb)
	for _, name := range []string{"json", "kernel", "workload"} {
		tb.openTab(name)
		time.Sleep(200 * time.Millisecond) // the after-render frame
		for sel, same := range sameHosted(tb) {
			if !same {
				t.Errorf("after switching to the %s tab, %s is a new element (a page render replaced it)", name, sel)
			}
		}
	}
	if n := eval[int](tb, `window.__presetMuts`); n != 0 {
		t.Errorf("three page renders made %d DOM mutations in the preset list's options, want none", n)
	}
	if n := eval[int](tb, `document.querySelectorAll("#rq-list li").length`); n != rq {
		t.Errorf("runqueue list has %d rows after the renders, had %d", n, rq)
	}
	if n := eval[int](tb, `document.querySelectorAll("#task-table tbody tr").length`); n != 2 {
		t.Errorf("%d task rows after the renders, want the default preset's 2", n)
	}
	// A new run (Apply in the JSON tab) draws into the same timeline
	// canvas (the note of issue 3: Apply re-created it).
	tb.openTab("json")
	tb.click("#apply-json")
	tb.waitFor(`window.schedplay.running === true || window.schedplay.done === false`, 10*time.Second)
	tb.waitDone()
	if !eval[bool](tb, `document.getElementById("tl-canvas").__kept === true`) {
		t.Error("Apply replaced the timeline canvas")
	}
	if got := selected(); got != "" || eval[string](tb, `window.schedplay.preset`) != "" {
		t.Errorf("after Apply the preset list shows %q, want the gallery entry (the scenario is not a preset)", got)
	}
}

// TestRender256 runs the 256-CPU, 1024-task scenario and checks the page
// render's size (what Vugu re-sends) against a bound, and that every row
// can still be shown: 24 first, then "show N more", and "show all" for
// the 256 CPUs; rows shown do not grow later renders.
func TestRender256(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	tb.applyJSON(epyc1024)
	tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === "" && window.schedplay.drawn.length === 256`, 3*time.Minute)
	rows := func(table string) int {
		return eval[int](tb, fmt.Sprintf(`document.querySelectorAll("#%s tbody tr").length`, table))
	}
	size := func() map[string]int { return eval[map[string]int](tb, `window.schedplay.renderSize`) }
	before := size()
	t.Logf("256-CPU page, JSON tab: render size %v; %d elements in the page; results panel at y=%.0f in a %.0f-pixel window", before,
		eval[int](tb, `document.querySelectorAll("body *").length`), eval[float64](tb, `document.getElementById("metrics").getBoundingClientRect().top`),
		eval[float64](tb, `window.innerHeight`))
	// The bound: the page's controls, not its results. The template with
	// the 24-row tables in it was ~720 elements and ~500 innerHTML sets.
	if before["elements"] > 250 || before["inner"] > 150 {
		t.Errorf("a page render sends %v: want at most 250 elements and 150 innerHTML sets (the results belong outside the template)", before)
	}
	if n, m := rows("task-table"), rows("cpu-table"); n != 24 || m != 24 {
		t.Fatalf("%d task rows and %d CPU rows after the run, want the first 24 of each", n, m)
	}
	if got := eval[string](tb, `document.querySelector("#cpu-table tbody tr:last-child td").textContent`); got != "23" {
		t.Errorf("last CPU row shown is CPU %q, want 23", got)
	}

	c0 := tb.mainThreadCPU()
	tb.click("#more-cpus")
	tb.waitFor(`document.querySelectorAll("#cpu-table tbody tr").length === 88`, 10*time.Second)
	tb.click("#all-cpus")
	tb.waitFor(`document.querySelectorAll("#cpu-table tbody tr").length === 256`, 10*time.Second)
	c1 := tb.mainThreadCPU()
	t.Logf("show more, then all 256 CPUs: %.0f ms main-thread CPU", 1000*(c1["TaskDuration"]-c0["TaskDuration"]))
	if got := eval[string](tb, `document.querySelector("#cpu-table tbody tr:last-child td").textContent`); got != "255" {
		t.Errorf("last CPU row is CPU %q after show all, want 255", got)
	}
	if n := eval[int](tb, `document.querySelectorAll("#more-cpus, #all-cpus").length`); n != 0 {
		t.Errorf("%d CPU row buttons left with every row shown", n)
	}
	// 1024 tasks: pages of 64 on request, no "show all" (the browser's
	// layout of a 1024-row table is over half a second).
	if eval[bool](tb, `!!document.querySelector("#all-tasks")`) {
		t.Error(`a "show all" button for 1024 task rows`)
	}
	c0 = tb.mainThreadCPU()
	tb.click("#more-tasks")
	tb.waitFor(`document.querySelectorAll("#task-table tbody tr").length === 88`, 20*time.Second)
	c1 = tb.mainThreadCPU()
	t.Logf("show 64 more tasks: %.0f ms main-thread CPU (script %.0f, layout %.0f, style %.0f); slow page work %s", 1000*(c1["TaskDuration"]-c0["TaskDuration"]),
		1000*(c1["ScriptDuration"]-c0["ScriptDuration"]), 1000*(c1["LayoutDuration"]-c0["LayoutDuration"]), 1000*(c1["RecalcStyleDuration"]-c0["RecalcStyleDuration"]),
		eval[string](tb, `JSON.stringify(window.schedplay.slowSpans)`))

	// More rows shown, and a render still sends no more than before.
	markHosted(tb)
	for i, name := range []string{"workload", "json", "workload", "json"} {
		c0 := tb.mainThreadCPU()
		tb.openTab(name)
		time.Sleep(300 * time.Millisecond)
		c1 := tb.mainThreadCPU()
		t.Logf("tab switch %d at 256 CPUs, 256 CPU rows and 88 task rows shown: %.1f ms main-thread CPU (script %.1f, layout %.1f, style %.1f); render size %v",
			i, 1000*(c1["TaskDuration"]-c0["TaskDuration"]), 1000*(c1["ScriptDuration"]-c0["ScriptDuration"]),
			1000*(c1["LayoutDuration"]-c0["LayoutDuration"]), 1000*(c1["RecalcStyleDuration"]-c0["RecalcStyleDuration"]), size())
	}
	if after := size(); after["elements"] > before["elements"] || after["inner"] > before["inner"] {
		t.Errorf("render size %v with more rows shown, %v with 24: the rows went into the template", after, before)
	}
	for sel, same := range sameHosted(tb) {
		if !same {
			t.Errorf("%s was replaced by a tab switch", sel)
		}
	}
	if n, m := rows("task-table"), rows("cpu-table"); n != 88 || m != 256 {
		t.Errorf("%d task rows and %d CPU rows after the tab switches, want 88 and 256", n, m)
	}

	// A/B at 256 CPUs: 1024 tasks are compared by their 6 groups (4 rows
	// each) and 4 machine rows, outside the template, not a per-task table
	// of 4,096 rows re-sent by every render.
	tb.click("#pin-a")
	tb.openTab("json")
	tb.applyJSON(strings.Replace(epyc1024, `"seed":1`, `"seed":2`, 1))
	tb.waitFor(`window.schedplay.done === true && document.querySelectorAll("#compare-table tbody tr").length > 0`, 3*time.Minute)
	if n := rows("compare-table"); n != 6*4+4 {
		t.Errorf("A/B table of 1024 tasks in 6 groups: %d rows, want 28", n)
	}
	if got := eval[string](tb, `document.querySelector("#compare-table tbody tr td").textContent`); got != "hog (160 tasks) runtime" {
		t.Errorf("first A/B row %q, want the hog group's runtime", got)
	}
	if ab := size(); ab["elements"] > 250 || ab["inner"] > 150 {
		t.Errorf("with A/B a page render sends %v: want at most 250 elements and 150 innerHTML sets", ab)
	}
	t.Logf("A/B at 256 CPUs: render size %v; slow page work %s", size(), eval[string](tb, `JSON.stringify(window.schedplay.slowSpans)`))
}
