//go:build browser

package browsertest

// Big machines that read (issue 19): zoomed out, a 144-CPU timeline's
// lanes show the dominant task group's colour at each column's busy
// fraction (wasm/view/density.go), not white wakeup ticks over merged
// busy/idle stripes.

import (
	"strings"
	"testing"
	"time"
)

// laneColoursJS reads, for every lane wholly inside the canvas window, the
// bar's last row: the distinct colours other than the empty lane's and
// white (wakeup ticks), the busy columns and how many are white.
const laneColoursJS = `(function () {
  var c = document.getElementById("tl-canvas"), g = c.getContext("2d"), s = window.schedplay, out = [];
  var rows = s.laneRows || s.drawn.map(function (_, i) { return i; });
  for (var l = 0; l < rows.length; l++) {
    var top = s.lanes[0] + l * s.lanes[1];
    if (top < 18 || top + s.lanes[1] > c.height) continue;
    var d = g.getImageData(0, top + s.lanes[1] - 3, c.width, 1).data, cols = {}, busy = 0, white = 0, n = 0;
    for (var x = 0; x < c.width; x++) {
      var r = d[4*x], gg = d[4*x+1], b = d[4*x+2];
      if (r === 0x22 && gg === 0x29 && b === 0x33) continue;
      busy++;
      if (r === 255 && gg === 255 && b === 255) { white++; continue; }
      var k = r + "," + gg + "," + b;
      if (!cols[k]) { cols[k] = 1; n++; }
    }
    out.push({lane: rows[l], colours: n, busy: busy, white: white, drawn: rows[l] >= 0 ? s.drawn[rows[l]] : busy});
  }
  return out; })()`

type laneColours struct {
	Lane, Colours, Busy, White, Drawn int
}

// openNewidle144 opens seed/newidle-rt-latency (xeon-4s18c, 144 CPUs:
// cyclictest on every CPU, hackbench pairs and kernel-build jobs) from the
// preset list and cuts it to 100 ms in the Workload tab. (Pasting its JSON
// into the JSON tab instead crashes the page: the editor's text does not
// fit in Vugu's render buffer.)
func openNewidle144(tb *tab) {
	tb.t.Helper()
	tb.change("#preset", "seed/newidle-rt-latency")
	tb.waitFor(`window.schedplay.preset === "seed/newidle-rt-latency"`, 20*time.Second)
	tb.openTab("workload")
	tb.change("#duration", "100ms")
}

func TestBigMachineLanesRead(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	openNewidle144(tb)
	tb.waitFor(`window.schedplay.done === true && window.schedplay.drawn.length === 144 && window.schedplay.scenarioJSON.indexOf('"duration": "100ms"') >= 0`, 3*time.Minute)
	tb.key("0", false) // the whole run
	lanes := eval[[]laneColours](tb, laneColoursJS)
	if len(lanes) < 50 {
		t.Fatalf("%d whole lanes in the window, want about 90", len(lanes))
	}
	multi, busy, white := 0, 0, 0
	for _, l := range lanes {
		if l.Busy < l.Drawn-gridSlack || l.Busy > l.Drawn+gridSlack {
			t.Errorf("lane %d: %d columns painted, %d drawn", l.Lane, l.Busy, l.Drawn)
		}
		if l.Colours > 2 {
			multi++
		}
		busy += l.Busy
		white += l.White
	}
	t.Logf("%d lanes in the window, %d with more than two colours; %d busy columns, %d of them white", len(lanes), multi, busy, white)
	if multi < len(lanes)*3/4 {
		t.Errorf("%d of %d lanes draw more than two colours (besides the empty lane and white ticks): want most", multi, len(lanes))
	}
	if busy == 0 || white*10 > busy {
		t.Errorf("%d of %d busy columns are white: the lanes read as wakeup ticks, not as what ran", white, busy)
	}
	tb.screenshot("bigmach-density")

	// Collapse LLC 1 (CPUs 18-35 and their siblings 90-107): its 36 lanes
	// give way to one summary lane, drawn, in their place.
	if rows := eval[[]int](tb, `window.schedplay.laneRows`); len(rows) != 144 || rows[18] != 72 || rows[36] != 18 {
		t.Fatalf("lane rows %v: want 144 by LLC, LLC 0's SMT siblings (72..) after its cores", rows)
	}
	tb.click("#llc-1")
	tb.waitFor(`window.schedplay.laneRows.length === 109`, 10*time.Second)
	rows := eval[[]int](tb, `window.schedplay.laneRows`)
	for _, c := range rows {
		if c >= 18 && c < 36 || c >= 90 && c < 108 {
			t.Fatalf("CPU %d of the collapsed LLC still has a lane: %v", c, rows)
		}
	}
	if rows[36] != -2 {
		t.Fatalf("row 36 is %d, want LLC 1's summary lane (-2)", rows[36])
	}
	if d := eval[[]int](tb, `window.schedplay.drawn`); d[18] != -1 || d[107] != -1 || d[0] <= 0 {
		t.Errorf("drawn CPU 18 %d, 107 %d, 0 %d: want the collapsed CPUs not drawn, CPU 0 drawn", d[18], d[107], d[0])
	}
	lh := eval[[]float64](tb, `window.schedplay.lanes`)[1]
	if full := eval[float64](tb, `document.getElementById("tl-host").scrollHeight`); full != 18+109*lh {
		t.Errorf("host %.0f px tall, want 109 lanes of %.0f px below the axis", full, lh)
	}
	summary := false
	for _, l := range eval[[]laneColours](tb, laneColoursJS) {
		if l.Lane == -2 {
			summary = true
			t.Logf("summary lane: %d busy columns, %d colours", l.Busy, l.Colours)
			if l.Busy*2 < eval[int](tb, `document.getElementById("tl-canvas").width`) || l.Colours < 3 {
				t.Errorf("LLC 1's summary lane: %d busy columns, %d colours: want the group's busy share drawn across the run", l.Busy, l.Colours)
			}
		}
	}
	if !summary {
		t.Error("no summary lane in the window")
	}
	tb.screenshot("bigmach-collapsed")
	tb.click("#llc-1")
	tb.waitFor(`window.schedplay.laneRows.length === 144`, 10*time.Second)
}

// The side panel's task table of seed/newidle-rt-latency (44 task groups)
// shows the hackbench and kbuild families as one row each, expands a family
// on a click, and scrolls within its bounded box instead of running off the
// panel.
func TestTaskTableFamilies(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	openNewidle144(tb)
	tb.waitFor(`!!document.querySelector("#family-hackbench")`, 20*time.Second)
	rows := `document.querySelectorAll("#groups-scroll tbody tr").length`
	if n := eval[int](tb, rows); n != 3 {
		t.Errorf("%d table rows with the families closed, want 3 (cyclictest, hackbench*, kbuild*)", n)
	}
	if h := eval[string](tb, `document.querySelector("#family-hackbench").textContent`); !strings.Contains(h, "hackbench* (36 groups)") {
		t.Errorf("hackbench family row %q", h)
	}
	tb.click("#family-hackbench button")
	tb.waitFor(rows+` === 39`, 10*time.Second)
	box := eval[[]float64](tb, `(function () { var b = document.getElementById("groups-scroll");
  return [b.clientHeight, b.scrollHeight, b.getBoundingClientRect().height]; })()`)
	t.Logf("open family: table box %.0f px tall, %.0f px of rows", box[0], box[1])
	if box[2] > 341 || box[1] <= box[0] {
		t.Errorf("table box %.0f px tall holding %.0f px: want it bounded (340 px) and scrolling", box[2], box[1])
	}
	if n := eval[int](tb, `document.querySelectorAll("#groups-scroll tr.member").length`); n != 36 {
		t.Errorf("%d member rows under the open family, want 36", n)
	}
	tb.screenshot("task-families")
	tb.click("#family-hackbench button")
	tb.waitFor(rows+` === 3`, 10*time.Second)
}

// TestBudgetsRedrawDensity measures (logs; not part of make test's
// assertions) the timeline redraw with the density drawing: the
// million-slice smp-8 run and the 256-CPU run (epyc-milan-2s64c, 16 LLC
// groups), worst of the zoom sequence TestBudgets uses, and the 256-CPU
// redraw with one LLC collapsed.
func TestBudgetsRedrawDensity(t *testing.T) {
	worst := func(tb *tab) float64 {
		w := 0.0
		for _, key := range []string{"0", "+", "+", "ArrowRight", "-", "-", "0"} {
			tb.key(key, false)
			d := eval[float64](tb, `window.schedplay.drawMs`)
			t.Logf("redraw after %q: %.1f ms (raster, putImageData, labels: %s)", key, d, eval[string](tb, `JSON.stringify(window.schedplay.drawBreakdown)`))
			w = max(w, d)
		}
		return w
	}
	for _, c := range []struct{ name, js string }{{"smp-8, 1M slices", millionSlices}, {"256-CPU", epyc1024}} {
		tb := newTab(t)
		tb.open("/")
		tb.waitDone()
		tb.openTab("json")
		tb.applyJSON(c.js)
		tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === ""`, 5*time.Minute)
		slices := eval[float64](tb, `window.schedplay.slices`)
		t.Logf("%s (%.2fM slices): worst redraw of 7 %.1f ms (budget 16 ms)", c.name, slices/1e6, worst(tb))
		if c.name == "256-CPU" {
			tb.click("#llc-0")
			tb.waitFor(`window.schedplay.laneRows.length === 241`, 10*time.Second)
			t.Logf("%s with LLC 0 collapsed: worst redraw of 7 %.1f ms", c.name, worst(tb))
		}
		tb.cancel()
	}
}
