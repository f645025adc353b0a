//go:build browser

package browsertest

// The playground in Firefox (issue 3: "works in current Chromium and
// Firefox"), against the same local server as the Chromium tests and
// reading back the same page state (window.schedplay). The harness first
// proves it sees errors; the first visit runs the default scenario in the
// worker with slices on its CPU, the timeline zooms on a real wheel and
// keys, and an export downloads a file; a gallery preset runs with slices
// on exactly its CPUs, the share URL restores the run in a fresh tab, the
// embed page runs inside another page's iframe; and no page logs a console
// error, throws, or gets a failed HTTP response or download.

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// paintedJS counts, per lane of the main timeline canvas in the document
// given, the columns whose pixels (the lane bar's bottom row) are not the
// empty-lane colour (laneColor #222933, wasm/view/raster.go): what really
// reached the canvas, beside window.schedplay.drawn, which the page
// computes before putImageData. The time-axis grid lines (a few
// semi-transparent columns) count too, hence gridSlack.
const paintedJS = `(function (doc) {
  var c = doc.getElementById("tl-canvas"), g = c.getContext("2d"), s = doc.defaultView.schedplay, out = [];
  for (var l = 0; l < s.drawn.length; l++) {
    var d = g.getImageData(0, s.lanes[0] + l * s.lanes[1] + s.lanes[1] - 3, c.width, 1).data, n = 0;
    for (var x = 0; x < c.width; x++) if (d[4*x] !== 0x22 || d[4*x+1] !== 0x29 || d[4*x+2] !== 0x33) n++;
    out.push(n);
  }
  return out; })(%s)`

const gridSlack = 30

// checkPainted compares the canvas's pixels with drawn, lane by lane.
func checkPainted(t *testing.T, tb *fxTab, doc string, drawn []int) {
	t.Helper()
	painted := fxEval[[]int](tb, fmt.Sprintf(paintedJS, doc))
	t.Logf("canvas columns painted per lane %v, drawn %v", painted, drawn)
	if len(painted) != len(drawn) {
		t.Fatalf("canvas lanes %v, drawn %v", painted, drawn)
	}
	for l := range drawn {
		if painted[l] < drawn[l]-gridSlack || painted[l] > drawn[l]+gridSlack {
			t.Fatalf("lane %d: %d columns painted on the canvas, %d drawn (all lanes: painted %v, drawn %v)",
				l, painted[l], drawn[l], painted, drawn)
		}
	}
}

func TestFirefox(t *testing.T) {
	ff := startFirefox(t)
	var share string // the share URL made in GalleryPresetShare, opened in EmbedInIframe

	// The checks below are only as good as the error capture: a console
	// error, an exception (also in a worker), an unhandled rejection and a
	// 404 must all be seen.
	t.Run("ErrorsAreSeen", func(t *testing.T) {
		tb := ff.newTab(t)
		tb.navigate("/favicon.svg")
		mark := ff.problemCount()
		fxEval[bool](tb, `(console.error("probe-console"), setTimeout(function () { throw new Error("probe-throw"); }, 0),
  Promise.reject(new Error("probe-reject")), fetch("/probe-missing"),
  new Worker(URL.createObjectURL(new Blob(["console.error('probe-worker')"]))), true)`)
		want := []string{"probe-console", "probe-throw", "probe-reject", "/probe-missing", "probe-worker"}
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := strings.Join(ff.problemsSince(mark), "\n")
			missing := ""
			for _, w := range want {
				if !strings.Contains(got, w) {
					missing = w
				}
			}
			if missing == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the harness did not see %q; it saw:\n%s", missing, got)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("FirstVisit", func(t *testing.T) {
		mark := ff.problemCount()
		defer ff.noProblems(t, mark)
		tb := ff.newTab(t)
		t0 := time.Now()
		tb.open("/")
		tb.waitDone()
		t.Logf("first visit: default scenario done %v after navigation", time.Since(t0).Round(time.Millisecond))
		if p := fxEval[string](tb, `window.schedplay.preset`); p != "demo/periodic-vs-hog" {
			t.Fatalf("first visit preset %q", p)
		}
		if e := fxEval[string](tb, `window.schedplay.engine`); e != "worker" {
			t.Fatalf("engine %q, want the run in the Web Worker", e)
		}
		drawn := fxEval[[]int](tb, `window.schedplay.drawn`)
		if len(drawn) != 1 || drawn[0] < 100 {
			t.Fatalf("drawn columns per CPU %v: want one lane with slices across the canvas", drawn)
		}
		checkPainted(t, tb, "document", drawn)
		if n := fxEval[int](tb, `document.querySelectorAll("#task-table tbody tr").length`); n != 2 {
			t.Fatalf("task table has %d rows, want 2", n)
		}

		// Real (trusted) input, where browsers differ: the mouse wheel over
		// the timeline zooms in, "+" halves the span, "0" shows the whole
		// run; the pointer over a slice shows its tooltip, a click sets the
		// cursor (the runqueue panel), a drag pans.
		whole := tb.span()
		box := fxEval[[]float64](tb, `(function () { var r = document.getElementById("tl-canvas").getBoundingClientRect();
  return [r.left + r.width / 2, r.bottom - 8, r.width]; })()`) // mid-canvas, inside CPU0's lane
		tb.input(map[string]any{"type": "wheel", "id": "wheel", "actions": []any{map[string]any{
			"type": "scroll", "x": int(box[0]), "y": int(box[1]), "deltaX": 0, "deltaY": -300}}})
		tb.waitFor(fmt.Sprintf(`window.schedplay.viewport[1] - window.schedplay.viewport[0] < %v`, whole*0.9), 5*time.Second)
		wheeled := tb.span()
		tb.input(map[string]any{"type": "key", "id": "keys", "actions": []any{
			map[string]any{"type": "keyDown", "value": "+"}, map[string]any{"type": "keyUp", "value": "+"}}})
		tb.waitFor(fmt.Sprintf(`window.schedplay.viewport[1] - window.schedplay.viewport[0] < %v`, wheeled*0.6), 5*time.Second)
		tb.input(map[string]any{"type": "key", "id": "keys", "actions": []any{
			map[string]any{"type": "keyDown", "value": "0"}, map[string]any{"type": "keyUp", "value": "0"}}})
		tb.waitFor(fmt.Sprintf(`window.schedplay.viewport[1] - window.schedplay.viewport[0] === %v`, whole), 5*time.Second)
		t.Logf("timeline span %.0f ms, after the wheel %.1f ms", whole/1e6, wheeled/1e6)

		x, y := int(box[0]), int(box[1])
		tb.input(map[string]any{"type": "pointer", "id": "mouse", "actions": []any{
			map[string]any{"type": "pointerMove", "x": x, "y": y}}})
		tb.waitFor(`getComputedStyle(document.getElementById("tl-tip")).display !== "none" &&
  /\(pid \d+\) on CPU0/.test(document.getElementById("tl-tip").textContent)`, 5*time.Second)
		tb.input(map[string]any{"type": "pointer", "id": "mouse", "actions": []any{
			map[string]any{"type": "pointerDown", "button": 0}, map[string]any{"type": "pointerUp", "button": 0}}})
		tb.waitFor(`document.getElementById("rq-title") && document.getElementById("rq-title").textContent.indexOf("Runqueues at") === 0 &&
  document.querySelectorAll("#rq-list li").length === 1`, 5*time.Second)
		tb.input(map[string]any{"type": "key", "id": "keys", "actions": []any{
			map[string]any{"type": "keyDown", "value": "+"}, map[string]any{"type": "keyUp", "value": "+"}}})
		tb.waitFor(fmt.Sprintf(`window.schedplay.viewport[1] - window.schedplay.viewport[0] === %v`, whole/2), 5*time.Second)
		from := fxEval[[]float64](tb, `window.schedplay.viewport`)[0]
		tb.input(map[string]any{"type": "pointer", "id": "mouse", "actions": []any{
			map[string]any{"type": "pointerMove", "x": x, "y": y},
			map[string]any{"type": "pointerDown", "button": 0},
			map[string]any{"type": "pointerMove", "x": x - 200, "y": y, "duration": 200},
			map[string]any{"type": "pointerUp", "button": 0}}})
		// Dragging 200 px left shows later times: 200/width of the span.
		want := from + 200/box[2]*whole/2
		tb.waitFor(fmt.Sprintf(`Math.abs(window.schedplay.viewport[0] - %v) < %v`, want, 0.02*whole), 5*time.Second)

		// An export is a real download (a Blob URL clicked, then revoked at
		// once): the file lands with the bytes the page made.
		tb.click("#export-rtapp")
		tb.waitFor(`window.schedplay.lastExport && window.schedplay.lastExport.name === "rtapp.json"`, 10*time.Second)
		made := fxEval[string](tb, `window.schedplay.lastExport.text`)
		// Firefox writes NAME.part and renames it when the download is done.
		file := filepath.Join(ff.downloadDir, "rtapp.json")
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if _, err := os.Stat(file); err == nil {
				break
			}
			if time.Now().After(deadline) {
				names, _ := filepath.Glob(filepath.Join(ff.downloadDir, "*"))
				t.Fatalf("no download of rtapp.json into %s (found %v)", ff.downloadDir, names)
			}
		}
		if got, err := os.ReadFile(file); err != nil || string(got) != made || !strings.Contains(made, `"tasks"`) {
			t.Fatalf("downloaded rtapp.json (%v) differs from the export:\n%s\n---\n%s", err, got, made)
		}
	})

	t.Run("GalleryPresetShare", func(t *testing.T) {
		mark := ff.problemCount()
		defer ff.noProblems(t, mark)
		const preset = "demo/sched-idle-wakeup-cfs" // both tasks pinned to CPU 2 of 8
		tb := ff.newTab(t)
		tb.open("/")
		tb.waitDone()
		tb.click("#open-gallery")
		card := "#card-" + strings.ReplaceAll(preset, "/", "-")
		tb.waitFor(`document.querySelector("`+card+` .open-preset") !== null`, 10*time.Second)
		tb.click(card + " .open-preset")
		tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, preset), 90*time.Second)
		drawn := fxEval[[]int](tb, `window.schedplay.drawn`)
		if len(drawn) != 8 {
			t.Fatalf("%d lanes, want 8", len(drawn))
		}
		for cpu, n := range drawn {
			if (cpu == 2) != (n > 0) {
				t.Fatalf("drawn columns per CPU %v: want slices on CPU 2 only", drawn)
			}
		}
		checkPainted(t, tb, "document", drawn)
		if e := fxEval[string](tb, `window.schedplay.engine`); e != "worker" {
			t.Fatalf("engine %q after the preset, want the worker", e)
		}
		// A knob, so the share URL carries more than the preset.
		before := fxEval[string](tb, `JSON.stringify(window.schedplay.tasks)`)
		tb.openTab("kernel")
		tb.click("#feat-SCHED_IDLE_NO_SLEEPER_CREDIT")
		tb.waitFor(`window.schedplay.done && JSON.stringify(window.schedplay.tasks) !== `+fmt.Sprintf("%q", before), 90*time.Second)
		want := fxEval[map[string]any](tb, `window.schedplay.tasks`)

		tb.click("#share")
		tb.waitFor(`document.querySelector("#share-link") && document.querySelector("#share-link").value.indexOf("#s=") > 0`, 10*time.Second)
		link := fxEval[string](tb, `document.querySelector("#share-link").value`)
		if !strings.HasPrefix(link, baseURL+"/") || !strings.Contains(fxEval[string](tb, `location.hash`), "s=") {
			t.Fatalf("share link %q / location not updated", link)
		}
		share = fxEval[string](tb, `location.hash`)

		fresh := ff.newTab(t)
		fresh.open(strings.TrimPrefix(link, baseURL))
		fresh.waitDone()
		if got := fxEval[map[string]any](fresh, `window.schedplay.tasks`); !reflect.DeepEqual(got, want) {
			t.Fatalf("shared link restored a different run:\n got  %v\n want %v", got, want)
		}
		fresh.openTab("kernel")
		if !fxEval[bool](fresh, `document.querySelector("#feat-SCHED_IDLE_NO_SLEEPER_CREDIT").checked`) {
			t.Fatal("shared link lost the feature toggle")
		}
		if d := fxEval[[]int](fresh, `window.schedplay.drawn`); len(d) != 8 || d[2] == 0 {
			t.Fatalf("shared link drew %v: want slices on CPU 2 of 8", d)
		}
	})

	t.Run("EmbedInIframe", func(t *testing.T) {
		if share == "" {
			t.Skip("no share URL (GalleryPresetShare failed)")
		}
		mark := ff.problemCount()
		defer ff.noProblems(t, mark)
		host := ff.newTab(t)
		host.navigate("/host.html?frag=" + strings.ReplaceAll(share, "#", ""))
		frame := `document.getElementById("embed").contentWindow`
		host.waitFor(frame+`.schedplay && `+frame+`.schedplay.done === true`, 90*time.Second)
		drawn := fxEval[[]int](host, frame+`.schedplay.drawn`)
		if len(drawn) != 8 || drawn[2] == 0 {
			t.Fatalf("embedded timeline drawn %v: want slices on CPU 2 of 8", drawn)
		}
		checkPainted(t, host, `document.getElementById("embed").contentDocument`, drawn)
		if e := fxEval[string](host, frame+`.schedplay.engine`); e != "worker" {
			t.Fatalf("embed engine %q, want the worker", e)
		}
		if fxEval[bool](host, `!!document.getElementById("embed").contentDocument.querySelector("aside")`) {
			t.Fatal("embed page shows the full chrome (side panel)")
		}
	})
}
