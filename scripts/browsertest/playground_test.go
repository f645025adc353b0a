//go:build browser

package browsertest

// The playground end to end: first visit, preset, timeline lanes, a knob,
// the share URL in a fresh tab, the embed page in another page's iframe,
// a broken scenario in the JSON editor.

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The first visit shows the default scenario running, then finished, with
// slices drawn on its one CPU.
func TestFirstVisitRuns(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	if p := eval[string](tb, `window.schedplay.preset`); p != "demo/periodic-vs-hog" {
		t.Fatalf("first visit preset %q", p)
	}
	drawn := eval[[]int](tb, `window.schedplay.drawn`)
	if len(drawn) != 1 || drawn[0] < 100 {
		t.Fatalf("drawn columns per CPU %v: want one lane with slices across the canvas", drawn)
	}
	if n := eval[int](tb, `document.querySelectorAll("#task-table tbody tr").length`); n != 2 {
		t.Fatalf("task table has %d rows, want 2", n)
	}
}

// Picking a preset runs it; the timeline has slices on exactly the CPUs the
// scenario uses (both tasks are pinned to CPU 2 of an 8-CPU machine); a
// knob changes the result; the share URL restores it in a fresh tab.
func TestPresetKnobShare(t *testing.T) {
	const preset = "demo/sched-idle-wakeup-cfs"
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", preset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, preset), 60*time.Second)
	drawn := eval[[]int](tb, `window.schedplay.drawn`)
	if len(drawn) != 8 {
		t.Fatalf("%d lanes, want 8", len(drawn))
	}
	for cpu, n := range drawn {
		if (cpu == 2) != (n > 0) {
			t.Fatalf("drawn columns per CPU %v: want slices on CPU 2 only", drawn)
		}
	}
	before := eval[map[string]any](tb, `window.schedplay.tasks`)
	beforeJS := eval[string](tb, `JSON.stringify(window.schedplay.tasks)`)

	// The patch of the Aug 2020 thread: the idle task gets no sleeper credit.
	tb.openTab("kernel")
	tb.click("#feat-SCHED_IDLE_NO_SLEEPER_CREDIT")
	tb.waitFor(`window.schedplay.done && JSON.stringify(window.schedplay.tasks) !== `+fmt.Sprintf("%q", beforeJS), 60*time.Second)
	after := eval[map[string]any](tb, `window.schedplay.tasks`)
	if reflect.DeepEqual(after, before) {
		t.Fatal("toggling SCHED_IDLE_NO_SLEEPER_CREDIT changed nothing")
	}

	tb.click("#share")
	tb.waitFor(`document.querySelector("#share-link") && document.querySelector("#share-link").value.indexOf("#s=") > 0`, 10*time.Second)
	link := eval[string](tb, `document.querySelector("#share-link").value`)
	if !strings.HasPrefix(link, baseURL+"/") || !strings.Contains(eval[string](tb, `location.hash`), "s=") {
		t.Fatalf("share link %q / location not updated", link)
	}

	fresh := newTab(t)
	fresh.do()
	fresh.open(strings.TrimPrefix(link, baseURL))
	fresh.waitDone()
	if got := eval[map[string]any](fresh, `window.schedplay.tasks`); !reflect.DeepEqual(got, after) {
		t.Fatalf("shared link restored a different run:\n got  %s\n want %s", got, after)
	}
	fresh.openTab("kernel")
	if !eval[bool](fresh, `document.querySelector("#feat-SCHED_IDLE_NO_SLEEPER_CREDIT").checked`) {
		t.Fatal("shared link lost the feature toggle")
	}
	fresh.screenshot("shared-link")
}

// The embed page runs inside an iframe of another local page, with minimal
// chrome and slices drawn.
func TestEmbedInIframe(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.click("#share")
	tb.waitFor(`document.querySelector("#embed-snippet") && document.querySelector("#embed-snippet").value.indexOf("embed.html#s=") > 0`, 10*time.Second)
	snippet := eval[string](tb, `document.querySelector("#embed-snippet").value`)
	if !strings.HasPrefix(snippet, "<iframe ") {
		t.Fatalf("snippet %q", snippet)
	}
	frag := eval[string](tb, `location.hash`)
	host := newTab(t)
	host.do()
	host.do(chromedpNavigate(baseURL + "/host.html?frag=" + strings.ReplaceAll(frag, "#", "")))
	frame := `document.getElementById("embed").contentWindow`
	host.waitFor(frame+`.schedplay && `+frame+`.schedplay.done === true`, 60*time.Second)
	drawn := eval[[]int](host, frame+`.schedplay.drawn`)
	if len(drawn) != 1 || drawn[0] == 0 {
		t.Fatalf("embedded timeline drawn %v", drawn)
	}
	if eval[bool](host, `!!document.getElementById("embed").contentDocument.querySelector("aside")`) {
		t.Fatal("embed page shows the full chrome (side panel)")
	}
	host.screenshot("embed")
}

// A broken scenario pasted into the JSON editor shows the error at its
// field path, and nothing runs.
func TestBrokenScenarioShowsPath(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	text := eval[string](tb, `document.querySelector("#json").value`)
	broken := strings.Replace(text, `"name": "periodic"`, `"name": "periodic", "nice": 99`, 1)
	if broken == text {
		t.Fatalf("could not find the periodic group in %s", text)
	}
	tb.applyJSON(broken)
	tb.waitFor(`window.schedplay.jsonError && window.schedplay.jsonError.path === "tasks[1].nice"`, 10*time.Second)
	shown := eval[string](tb, `document.querySelector("#json-error").textContent`)
	if !strings.Contains(shown, "tasks[1].nice") || !strings.Contains(shown, "-20..19") {
		t.Fatalf("error shown as %q", shown)
	}
	tb.screenshot("json-error")

	tb.applyJSON(`{"version": 1, "tasks": [`)
	tb.waitFor(`window.schedplay.jsonError && window.schedplay.jsonError.msg.indexOf("not valid JSON") === 0`, 10*time.Second)
}

// A long run executes in the worker, and the main thread stays responsive
// meanwhile: no long task (Long Tasks API) near a frame-dropping length,
// and a timer on the page keeps firing.
func TestRunsInWorker(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	if e := eval[string](tb, `window.schedplay.engine`); e != "worker" {
		t.Fatalf("engine %q, want the run in the worker", e)
	}
	const long = `{"version":1,"name":"test/long","topology":"smp-8","kernel":{"version":"v6.18"},"duration":"1s","seed":1,
 "tasks":[{"name":"yielder","instances":16,"loop":-1,"program":[{"run":"20us"},{"yield":true}]}]}`
	eval[bool](tb, `(window.__longTasks = [], window.__gap = 0, window.__last = performance.now(),
  window.__tick = setInterval(function () { var n = performance.now(); window.__gap = Math.max(window.__gap, n - window.__last); window.__last = n; }, 10), true)`)
	tb.openTab("json")
	tb.applyJSON(long)
	tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === "" && window.schedplay.slices > 100000`, 3*time.Minute)
	longest := eval[float64](tb, `window.__longTasks.reduce(function (a, b) { return Math.max(a, b); }, 0)`)
	gap := eval[float64](tb, `(clearInterval(window.__tick), window.__gap)`)
	t.Logf("worker run: %.0f ms, %.0f slices; longest main-thread task %.0f ms (%d over 50 ms: %s), longest timer gap %.0f ms, longest ingest %.1f ms, render %.1f ms, draw %.1f ms",
		eval[float64](tb, `window.schedplay.runMs`), eval[float64](tb, `window.schedplay.slices`), longest,
		eval[int](tb, `window.__longTasks.length`), eval[string](tb, `JSON.stringify(window.__longTasks)`), gap, eval[float64](tb, `window.schedplay.maxIngestMs`), eval[float64](tb, `window.schedplay.maxRenderMs`), eval[float64](tb, `window.schedplay.drawMs`))
	// Generous limits: the machine is shared, and the page-wide Vugu render
	// at the start and end of a run is still ~200 ms; the budget (100 ms) is
	// measured by TestBudgets. On the main thread this run blocks for
	// hundreds of milliseconds at a time.
	if longest > 500 || gap > 600 {
		t.Fatalf("main thread blocked: longest task %.0f ms, longest timer gap %.0f ms", longest, gap)
	}
	if eval[string](tb, `window.schedplay.engine`) != "worker" {
		t.Fatal("the run fell back to the main thread")
	}
}

// The machine-model knobs: hw.cstates and a numeric cost become scenario
// keys (shown in the JSON editor, with the machine's default as the
// placeholder), change the run, and clearing the cost restores the default.
func TestHWKnobs(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openSection("hw")
	if ph := eval[string](tb, `document.querySelector("#hw-ctx_switch_ns").placeholder`); ph == "" {
		t.Fatal("hw.ctx_switch_ns has no default placeholder")
	}
	before := eval[string](tb, `JSON.stringify(window.schedplay.tasks)`)
	tb.click("#hw-cstates")
	tb.waitFor(`JSON.parse(window.schedplay.scenarioJSON).hw && JSON.parse(window.schedplay.scenarioJSON).hw.cstates === "off"`, 10*time.Second)
	tb.change("#hw-ctx_switch_ns", "50000")
	tb.waitFor(`JSON.parse(window.schedplay.scenarioJSON).hw.ctx_switch_ns === "50000"`, 10*time.Second)
	tb.waitFor(`window.schedplay.done && JSON.stringify(window.schedplay.tasks) !== `+fmt.Sprintf("%q", before), 60*time.Second)
	tb.change("#hw-ctx_switch_ns", "")
	tb.waitFor(`!("ctx_switch_ns" in JSON.parse(window.schedplay.scenarioJSON).hw)`, 10*time.Second)
	tb.click("#pi")
	tb.waitFor(`JSON.parse(window.schedplay.scenarioJSON).pi === true`, 10*time.Second)
}
