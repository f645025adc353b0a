//go:build browser

package browsertest

// The 256-CPU run's long tasks by rendering phase, in main-thread CPU
// time. TestLongTaskTrace's sampling profiler names the Go functions but
// stretches every task (its sampling thread takes the second core of a
// 2-vCPU machine); this test records only the timeline categories, cheap
// enough to leave the tasks as TestBudgets sees them, and says for each of
// the costliest tasks how much of its CPU went to script, style (how many
// elements), layout (how many objects dirty of how many), paint, HTML
// parsing (innerHTML) and V8's GC. Run it against an older dist/ (-dist)
// to compare builds.

import (
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// phaseCats: top-level tasks and the rendering pipeline's events, no
// sampling profiler.
var phaseCats = []string{"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-v8.gc"}

// invalidations adds Blink's invalidation tracking (why style and layout
// were dirtied, by node) to TestLongTaskPhases' trace: keep it with
// -chrometrace and read the LayoutInvalidationTracking events.
var invalidations = flag.Bool("invalidations", false, "TestLongTaskPhases: also trace style and layout invalidations")

// TestLongTaskPhases runs the 256-CPU scenario after a fresh load (the
// budget's first run) and logs its costliest main-thread tasks by phase.
func TestLongTaskPhases(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	eval[bool](tb, `(window.__longTasks = [], true)`)
	cpu0 := tb.mainThreadCPU()
	cats := phaseCats
	if *invalidations {
		cats = append(cats, "disabled-by-default-devtools.timeline.invalidationTracking")
	}
	tb.startTrace(cats...)
	tb.applyJSON(epyc1024)
	tb.waitFor(`window.schedplay.running === true || window.schedplay.done === true`, 10*time.Second)
	tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === ""`, 5*time.Minute)
	time.Sleep(300 * time.Millisecond)
	data := tb.stopTrace(0)
	cpu1 := tb.mainThreadCPU()
	tasks, err := taskPhases(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("long tasks (Long Tasks API, wall ms) %s; main-thread CPU over the run %.0f ms (script %.0f, layout %.0f, style %.0f); render size %s",
		eval[string](tb, `JSON.stringify(window.__longTasks)`), 1000*(cpu1["TaskDuration"]-cpu0["TaskDuration"]),
		1000*(cpu1["ScriptDuration"]-cpu0["ScriptDuration"]), 1000*(cpu1["LayoutDuration"]-cpu0["LayoutDuration"]),
		1000*(cpu1["RecalcStyleDuration"]-cpu0["RecalcStyleDuration"]), eval[string](tb, `JSON.stringify(window.schedplay.renderSize)`))
	t.Logf("slow page work %s", eval[string](tb, `JSON.stringify(window.schedplay.slowSpans)`))
	for i, pt := range tasks {
		if i == 6 {
			break
		}
		t.Logf("run start, task %d (%.0f ms after the first): %s", pt.index, (pt.start-tasks[0].start)/1000, pt)
	}
	// What the page schedules, not how long it took: a frame that lays
	// out a page render's changes does not also draw every lane (the run
	// start's render and the timeline drawing were one 40-50 ms task), and
	// a run's results appear in two frames (one was a layout of 1,120
	// objects with 620 elements restyled).
	for _, pt := range tasks {
		if pt.dirty >= 200 {
			t.Logf("layout of %d objects: task %d, %s", pt.dirty, pt.index, pt)
		}
		if pt.dirty >= 300 && pt.phases["script"] >= 8 {
			t.Errorf("task %d lays out %d objects and runs %.1f ms of script: a render's layout and a drawing in one task: %s", pt.index, pt.dirty, pt.phases["script"], pt)
		}
		if pt.dirty > 1000 {
			t.Errorf("task %d lays out %d objects: the results in one frame: %s", pt.index, pt.dirty, pt)
		}
	}
	if n := eval[int](tb, `Object.keys(window.schedplay.tasks || {}).length`); n != 1024 {
		t.Errorf("window.schedplay.tasks has %d tasks, want 1024", n)
	}
	if v := eval[float64](tb, `(function () { var s = window.schedplay.tasks || {}, n = 0;
  for (var k in s) { n += s[k].runtime_ns; } return n; })()`); v <= 0 {
		t.Errorf("window.schedplay.tasks: total runtime_ns %v, want > 0", v)
	}
	byCPU := append([]phaseTask(nil), tasks...)
	sort.SliceStable(byCPU, func(i, j int) bool { return byCPU[i].cpuMs > byCPU[j].cpuMs })
	for i, pt := range byCPU {
		if i == 8 || pt.cpuMs < 10 {
			break
		}
		t.Logf("task %d (%.0f ms after the first): %s", pt.index, (pt.start-tasks[0].start)/1000, pt)
	}
}

// phaseTask is one main-thread task and its CPU time by phase.
type phaseTask struct {
	index        int
	start        float64 // trace clock, us
	ms, cpuMs    float64
	kind         string // the task's entry: TimerFire, FireAnimationFrame, EventDispatch, ...
	phases       map[string]float64
	styleElems   int
	dirty, total int
	parsedBytes  int
}

var phaseOf = map[string]string{
	"FunctionCall": "script", "EvaluateScript": "script", "V8.Execute": "script",
	"UpdateLayoutTree": "style", "Layout": "layout", "PrePaint": "prepaint", "Paint": "paint",
	"Layerize": "layerize", "ParseHTML": "parseHTML", "MajorGC": "v8gc", "MinorGC": "v8gc",
	"V8.GCIncrementalMarking": "v8gc",
}

var entries = []string{"FireAnimationFrame", "TimerFire", "EventDispatch", "HandlePostMessage", "ProxyMain::BeginMainFrame"}

// taskPhases returns the top-level tasks of the renderer main thread with
// more than 5 ms of CPU, in time order.
func taskPhases(data []byte) ([]phaseTask, error) {
	evs, mains, err := parseTrace(data)
	if err != nil {
		return nil, err
	}
	var list []traceEvent
	for _, e := range evs {
		if mains[threadKey{e.Pid, e.Tid}] && e.Ph == "X" {
			list = append(list, e)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Ts < list[j].Ts })
	var out []phaseTask
	end := -1.0
	for i, e := range list {
		if !strings.Contains(e.Cat, "toplevel") || e.Ts < end {
			continue
		}
		end = e.Ts + e.Dur
		if e.Tdur < 5000 {
			continue
		}
		pt := phaseTask{index: len(out), start: e.Ts, ms: e.Dur / 1000, cpuMs: e.Tdur / 1000, phases: map[string]float64{}}
		lastEnd := map[string]float64{} // per phase: nested events are not counted twice
		for _, c := range list[i+1:] {
			if c.Ts >= end {
				break
			}
			if pt.kind == "" {
				for _, k := range entries {
					if c.Name == k {
						pt.kind = k
					}
				}
			}
			ph, ok := phaseOf[c.Name]
			if !ok || c.Ts < lastEnd[ph] {
				continue
			}
			lastEnd[ph] = c.Ts + c.Dur
			pt.phases[ph] += c.Tdur / 1000
			var a struct {
				BeginData struct {
					Dirty int `json:"dirtyObjects"`
					Total int `json:"totalObjects"`
				} `json:"beginData"`
				ElementCount int `json:"elementCount"`
				ParsedBytes  int `json:"parsed_bytes"`
			}
			json.Unmarshal(c.Args, &a)
			pt.styleElems += a.ElementCount
			pt.dirty += a.BeginData.Dirty
			pt.total = max(pt.total, a.BeginData.Total)
			pt.parsedBytes += a.ParsedBytes
		}
		out = append(out, pt)
	}
	return out, nil
}

func (pt phaseTask) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %.1f ms CPU (%.1f ms wall):", pt.kind, pt.cpuMs, pt.ms)
	for _, ph := range []string{"script", "style", "layout", "prepaint", "paint", "layerize", "parseHTML", "v8gc"} {
		if v := pt.phases[ph]; v >= 0.5 {
			fmt.Fprintf(&b, " %s %.1f", ph, v)
			switch ph {
			case "style":
				fmt.Fprintf(&b, " (%d elements)", pt.styleElems)
			case "layout":
				fmt.Fprintf(&b, " (%d of %d objects)", pt.dirty, pt.total)
			case "parseHTML":
				fmt.Fprintf(&b, " (%d bytes)", pt.parsedBytes)
			}
		}
	}
	return b.String()
}
