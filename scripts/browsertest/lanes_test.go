//go:build browser

package browsertest

// The timeline of a large machine is a window onto its lanes (wasm/
// laneview.go): the canvas is at most 560 CSS pixels tall, its host
// scrolls the rest, and a scroll redraws the lanes brought into view.

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// windowPaintedJS counts, per lane (row) wholly inside the canvas window
// (below the 18-pixel axis), the columns whose pixels are not the
// empty-lane colour, as paintedJS does: {row: count}. Rows are CPUs in
// order, or by LLC when the page publishes laneRows (rowCPU).
const windowPaintedJS = `(function () {
  var c = document.getElementById("tl-canvas"), g = c.getContext("2d"), s = window.schedplay, out = {};
  for (var l = 0; l < (s.laneRows || s.drawn).length; l++) {
    var top = s.lanes[0] + l * s.lanes[1];
    if (top < 18 || top + s.lanes[1] > c.height) continue;
    var d = g.getImageData(0, top + s.lanes[1] - 3, c.width, 1).data, n = 0;
    for (var x = 0; x < c.width; x++) if (d[4*x] !== 0x22 || d[4*x+1] !== 0x29 || d[4*x+2] !== 0x33) n++;
    out[l] = n;
  }
  return out; })()`

func TestTimelineLaneWindow(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	// 200 hogs on 256 CPUs: busy lanes and idle ones.
	sc := `{"version":1,"name":"lanes","topology":"epyc-milan-2s64c","kernel":{"version":"v6.18"},"duration":"20ms","seed":1,
 "tasks":[{"name":"hog","instances":200,"loop":-1,"program":[{"run":"1s"}]}]}`
	tb.openTab("json")
	tb.applyJSON(sc)
	tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === "" && window.schedplay.drawn.length === 256`, 3*time.Minute)

	win := eval[[]float64](tb, `window.schedplay.laneWindow`)
	lanes := eval[[]float64](tb, `window.schedplay.lanes`)
	full := eval[float64](tb, `document.getElementById("tl-host").scrollHeight`)
	ch := eval[float64](tb, `document.getElementById("tl-canvas").height`)
	t.Logf("window %v, lanes %v, canvas height %.0f, host scroll height %.0f", win, lanes, ch, full)
	if win[0] != 560 || ch != 560 || win[1] != 0 {
		t.Fatalf("canvas window %v (height %.0f): want 560 pixels at scroll 0", win, ch)
	}
	if want := 18 + 256*lanes[1]; full != want || lanes[0] != 18 {
		t.Fatalf("host scroll height %.0f, first lane at %.0f: want the whole timeline, %.0f pixels, lane 0 at 18", full, lanes[0], want)
	}

	check := func(scroll int) {
		t.Helper()
		drawn := eval[[]int](tb, `window.schedplay.drawn`)
		cpu := rowCPU(tb)
		painted := eval[map[string]int](tb, windowPaintedJS)
		if len(painted) < 80 {
			t.Fatalf("scroll %d: %d whole lanes in the window, want about 90", scroll, len(painted))
		}
		busy, idle := 0, 0
		for k, n := range painted {
			var l int
			fmt.Sscan(k, &l)
			if top := int(lanes[0]) + l*int(lanes[1]); top < 18 {
				t.Fatalf("lane %d counted above the axis", l)
			}
			if d := drawn[cpu(l)]; n < d-gridSlack || n > d+gridSlack {
				t.Fatalf("scroll %d: lane %d (CPU %d) has %d columns painted, %d drawn", scroll, l, cpu(l), n, d)
			}
			if drawn[cpu(l)] > 0 {
				busy++
			} else {
				idle++
			}
		}
		t.Logf("scroll %d: lanes %d..%d in the window (%d busy, %d idle)", scroll, minKey(painted), maxKey(painted), busy, idle)
		if busy == 0 {
			t.Fatalf("scroll %d: no busy lane in the window", scroll)
		}
	}
	check(0)

	// Scroll the host: the page redraws the lanes now in view.
	eval[bool](tb, `(document.getElementById("tl-host").scrollTop = 700, true)`)
	tb.waitFor(`window.schedplay.laneWindow[1] === 700 && !window.schedplay.painting`, 10*time.Second)
	lanes = eval[[]float64](tb, `window.schedplay.lanes`)
	if lanes[0] != 18-700 {
		t.Fatalf("after scrolling 700 pixels the first lane's top is %.0f, want %d", lanes[0], 18-700)
	}
	check(700)

	// The tooltip names the lane under the pointer, scroll included: a
	// busy lane in the middle of the window.
	drawn := eval[[]int](tb, `window.schedplay.drawn`)
	most := 0
	for _, n := range drawn {
		most = max(most, n)
	}
	lane, row := -1, -1 // busy across the whole canvas
	cpu := rowCPU(tb)
	for l := (700 / int(lanes[1])) + 40; l < len(drawn); l++ {
		if drawn[cpu(l)] == most {
			lane, row = cpu(l), l
			break
		}
	}
	if lane < 0 {
		t.Fatalf("no busy lane below the window's middle: drawn %v", drawn)
	}
	y := lanes[0] + float64(row)*lanes[1] + 2
	eval[bool](tb, fmt.Sprintf(`(function () {
  var c = document.getElementById("tl-canvas"), r = c.getBoundingClientRect();
  c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + r.width * 0.5, clientY: r.top + %.0f, bubbles: true}));
  return true; })()`, y))
	tip := eval[string](tb, `document.getElementById("tl-tip").textContent`)
	if !strings.Contains(tip, fmt.Sprintf(" on CPU%d\n", lane)) {
		t.Fatalf("tooltip at lane %d: %q", lane, tip)
	}

	// Shift+wheel over the canvas scrolls the lanes (as Chromium sends it,
	// horizontal) and leaves the zoom alone.
	vp := eval[string](tb, `JSON.stringify(window.schedplay.viewport)`)
	eval[bool](tb, `(function () {
  var c = document.getElementById("tl-canvas"), r = c.getBoundingClientRect();
  c.dispatchEvent(new WheelEvent("wheel", {deltaX: 140, deltaY: 0, shiftKey: true, clientX: r.left + 100, clientY: r.top + 100, bubbles: true, cancelable: true}));
  return true; })()`)
	tb.waitFor(`window.schedplay.laneWindow[1] === 840`, 10*time.Second)
	if got := eval[string](tb, `JSON.stringify(window.schedplay.viewport)`); got != vp {
		t.Fatalf("Shift+wheel changed the viewport: %s -> %s", vp, got)
	}

	// Shift+Down and Shift+Up scroll the lanes by a quarter window (140
	// pixels); a plain Down is left to the page.
	tb.key("ArrowDown", true)
	tb.waitFor(`window.schedplay.laneWindow[1] === 980`, 10*time.Second)
	tb.key("ArrowUp", true)
	tb.key("ArrowUp", true)
	tb.waitFor(`window.schedplay.laneWindow[1] === 700`, 10*time.Second)
	tb.key("ArrowDown", false)
	time.Sleep(300 * time.Millisecond)
	if got := eval[[]float64](tb, `window.schedplay.laneWindow`); got[1] != 700 {
		t.Fatalf("a plain ArrowDown scrolled the lanes to %v", got)
	}
	if got := eval[string](tb, `JSON.stringify(window.schedplay.viewport)`); got != vp {
		t.Fatalf("Shift+Up/Down changed the viewport: %s -> %s", vp, got)
	}

	// A pinned A run's lanes follow the current run's lanes, both ways.
	tb.click("#pin-a")
	tb.applyJSON(strings.Replace(sc, `"seed":1`, `"seed":2`, 1))
	tb.waitFor(`window.schedplay.done === true && !!document.getElementById("tl-a-canvas")`, 3*time.Minute)
	eval[bool](tb, `(document.getElementById("tl-host").scrollTop = 900, true)`)
	tb.waitFor(`document.getElementById("tl-a-host").scrollTop === 900 && window.schedplay.laneWindow[1] === 900`, 10*time.Second)
	eval[bool](tb, `(document.getElementById("tl-a-host").scrollTop = 300, true)`)
	tb.waitFor(`document.getElementById("tl-host").scrollTop === 300 && window.schedplay.laneWindow[1] === 300`, 10*time.Second)
}

// rowCPU maps a timeline row to the CPU it draws (window.schedplay.laneRows,
// published when the lanes are grouped by LLC; a row per CPU otherwise).
func rowCPU(tb *tab) func(row int) int {
	rows := eval[[]int](tb, `window.schedplay.laneRows || []`)
	return func(row int) int {
		if row < len(rows) {
			return rows[row]
		}
		return row
	}
}

func minKey(m map[string]int) int {
	best := 1 << 30
	for k := range m {
		var l int
		fmt.Sscan(k, &l)
		best = min(best, l)
	}
	return best
}

func maxKey(m map[string]int) int {
	best := -1
	for k := range m {
		var l int
		fmt.Sscan(k, &l)
		best = max(best, l)
	}
	return best
}

// TestBudgetsRows measures TestBudgets' two long-run rows alone (the
// smp-8 million-slice run and the 256-CPU run, each the first run after a
// fresh page load), with the main thread's CPU time over each run. It
// uses only figures every build publishes, so it can be run against an
// older dist/ (-dist) to compare builds under the same machine load.
func TestBudgetsRows(t *testing.T) {
	for _, c := range []struct{ name, js string }{{"smp-8", millionSlices}, {"256-CPU", epyc1024}} {
		tb := newTab(t)
		tb.open("/")
		tb.waitDone()
		cpu0 := tb.mainThreadCPU()
		longest, nlong, cpu := longRunTasks(tb, c.js)
		cpu1 := tb.mainThreadCPU()
		t.Logf("%s: longest task %.0f ms wall, %.1f ms CPU; %d over 50 ms; main-thread CPU over the run %.0f ms (script %.0f, layout %.0f)",
			c.name, longest, cpu, nlong, 1000*(cpu1["TaskDuration"]-cpu0["TaskDuration"]),
			1000*(cpu1["ScriptDuration"]-cpu0["ScriptDuration"]), 1000*(cpu1["LayoutDuration"]-cpu0["LayoutDuration"]))
		tb.cancel()
	}
}
