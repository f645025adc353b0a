//go:build js && wasm

package main

// The "thread" message under Node: the worker's JS side posts progress
// (fraction growing, runs counted) and one "threaddone" whose report is
// the thread's table with its published numbers; a cancel (the run no
// longer current) stops it without a report.

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/view"
)

// capture replaces the worker's postMessage and returns the messages.
func capture(t *testing.T, onMsg func(js.Value)) *[]js.Value {
	var got []js.Value
	prev := js.Global().Get("postMessage")
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		got = append(got, args[0])
		if onMsg != nil {
			onMsg(args[0])
		}
		return nil
	})
	js.Global().Set("postMessage", f)
	t.Cleanup(func() { js.Global().Set("postMessage", prev); f.Release() })
	return &got
}

func threadMsg(t *testing.T, runs int) js.Value {
	m := js.Global().Get("Object").New()
	m.Set("type", "thread")
	m.Set("id", 7)
	m.Set("scenario", seedJSON(t))
	m.Set("runs", runs)
	return m
}

func seedJSON(t *testing.T) string { return string(mustPreset(t)) }

func TestThreadMessage(t *testing.T) {
	w := newWorker()
	msgs := capture(t, nil)
	w.current = 7
	w.runThreadMsg(7, threadMsg(t, 1))
	var last float64
	var progress int
	var done js.Value
	for _, m := range *msgs {
		if m.Get("id").Int() != 7 {
			t.Fatalf("message for run %d", m.Get("id").Int())
		}
		switch m.Get("type").String() {
		case "threadprogress":
			progress++
			f := m.Get("now").Float()
			if f < last || f > 1 || m.Get("cpus").Int() != 2 {
				t.Fatalf("progress %v after %v, %d runs", f, last, m.Get("cpus").Int())
			}
			last = f
		case "threaddone":
			done = m
		default:
			t.Fatalf("unexpected %q", m.Get("type").String())
		}
	}
	if progress == 0 || last != 1 || done.IsUndefined() {
		t.Fatalf("%d progress messages, last %v, done %v", progress, last, done)
	}
	if e := done.Get("error"); !e.IsUndefined() {
		t.Fatalf("error: %s", e.String())
	}
	var rep view.ThreadReport
	if err := json.Unmarshal([]byte(done.Get("report").String()), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Name != "seed/sched-idle-wakeup" || len(rep.Configs) != 2 || len(rep.Tables) != 1 || len(rep.Checks) != 2 ||
		rep.Runs != 1 || !strings.Contains(rep.Markdown, "| the thread's number |") {
		t.Fatalf("report: %+v", rep)
	}
	for _, c := range rep.Tables[0].Rows[0].Cells {
		if !c.Has || c.Text == "" {
			t.Fatalf("empty cell in %+v", rep.Tables[0].Rows[0])
		}
	}
}

func TestThreadMessageCancel(t *testing.T) {
	w := newWorker()
	msgs := capture(t, func(m js.Value) {
		if m.Get("type").String() == "threadprogress" {
			w.current = -1 // what a "cancel" message does
		}
	})
	w.current = 7
	// 100 seeds per cell: far more than one 50 ms chunk can finish, so the
	// run is still going when the cancel lands (with 3 it could finish in
	// the first chunk and post its done message).
	w.runThreadMsg(7, threadMsg(t, 100))
	if len(*msgs) != 1 || (*msgs)[0].Get("type").String() != "threadprogress" {
		t.Fatalf("after a cancel: %d messages", len(*msgs))
	}
}

func TestThreadMessageBadScenario(t *testing.T) {
	w := newWorker()
	msgs := capture(t, nil)
	w.current = 7
	m := threadMsg(t, 1)
	m.Set("scenario", `{"version":1,"topology":"nope"}`)
	w.runThreadMsg(7, m)
	if len(*msgs) != 1 || (*msgs)[0].Get("type").String() != "threaddone" ||
		!strings.Contains((*msgs)[0].Get("error").String(), "tasks: missing") {
		t.Fatalf("bad scenario: %d messages", len(*msgs))
	}
	demo, _ := scenario.Preset("demo/periodic-vs-hog")
	m.Set("scenario", string(demo.Encode()))
	w.runThreadMsg(7, m)
	if len(*msgs) != 2 || !strings.Contains((*msgs)[1].Get("error").String(), "no experiment block") {
		t.Fatalf("a scenario without an experiment block: %d messages", len(*msgs))
	}
}

func mustPreset(t *testing.T) []byte {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 300 * sched.Millisecond
	return sc.Encode()
}
