//go:build js && wasm

package main

// The "thread" message under Node: the worker posts progress
// (fraction growing, runs counted) and one "threaddone" whose report is
// the thread's table with its published numbers; a cancel (the run no
// longer current) stops it without a report.

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/report"
)

func threadMsg(t *testing.T, runs int) js.Value {
	return object(map[string]any{"type": "thread", "id": 7, "scenario": seedJSON(t), "runs": runs})
}

func seedJSON(t *testing.T) string { return string(mustPreset(t)) }

func TestThreadMessage(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "threaddone")
	w.handle(threadMsg(t, 1))
	c.wait(t)
	msgs := &c.msgs
	var last float64
	var progress int
	var done js.Value
	for _, m := range *msgs {
		if m.Get("type").String() == "heap" {
			continue // after the end: the worker's memory, for the page's pool
		}
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
	var rep report.ThreadReport
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
	var w *worker
	c := capture(t, func(m js.Value) {
		if m.Get("type").String() == "threadprogress" {
			w.handle(object(map[string]any{"type": "cancel", "id": 7}))
		}
	}, "threaddone")
	w = newWorker()
	// 100 seeds per cell: far more than one 50 ms chunk can finish, so the
	// run is still going when the cancel lands (with 3 it could finish in
	// the first chunk and post its done message).
	w.handle(threadMsg(t, 100))
	time.Sleep(500 * time.Millisecond)
	// (A heap message is a previous test's request ending: posted after
	// its final message, it can land in this test's capture.)
	var msgs []js.Value
	for _, m := range c.msgs {
		if m.Get("type").String() != "heap" {
			msgs = append(msgs, m)
		}
	}
	c.msgs = msgs
	if len(c.msgs) != 1 || c.msgs[0].Get("type").String() != "threadprogress" {
		var ty []string
		for _, m := range c.msgs {
			ty = append(ty, m.Get("type").String())
		}
		t.Fatalf("after a cancel: %d messages %v", len(c.msgs), ty)
	}
}

func TestThreadMessageBadScenario(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "threaddone")
	m := threadMsg(t, 1)
	m.Set("scenario", `{"version":1,"topology":"nope"}`)
	w.handle(m)
	c.wait(t)
	if len(c.msgs) != 1 || c.msgs[0].Get("type").String() != "threaddone" ||
		!strings.Contains(c.msgs[0].Get("error").String(), "tasks: missing") {
		t.Fatalf("bad scenario: %d messages", len(c.msgs))
	}
	demo, _ := scenario.Preset("demo/periodic-vs-hog")
	m.Set("scenario", string(demo.Encode()))
	w.handle(m)
	c.wait(t)
	if len(c.msgs) != 2 || !strings.Contains(c.msgs[1].Get("error").String(), "no experiment block") {
		t.Fatalf("a scenario without an experiment block: %d messages", len(c.msgs))
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

// A pool job: progress of that job, its result, then the worker's heap.
func TestJobMessage(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "jobdone")
	w.handle(object(map[string]any{"type": "job", "id": 9, "kind": "thread", "scenario": seedJSON(t), "runs": 1, "job": 1}))
	c.wait(t)
	time.Sleep(50 * time.Millisecond) // the heap message follows in the same task
	var types []string
	for _, m := range c.msgs {
		typ := m.Get("type").String()
		if typ != "heap" && m.Get("id").Int() != 9 {
			continue // a previous test's request ending
		}
		if typ != "jobprogress" || len(types) == 0 || types[len(types)-1] != "jobprogress" {
			types = append(types, typ)
		}
		if typ == "jobdone" && (m.Get("job").Int() != 1 || !m.Get("error").IsUndefined() ||
			!strings.HasPrefix(m.Get("report").String(), "r1 27:topology smp-8")) { // wasm/runner/jobresult.go
			t.Fatalf("jobdone %v %v %v", m.Get("job"), m.Get("error"), m.Get("report"))
		}
		if typ == "heap" && m.Get("now").Float() < 1<<20 {
			t.Fatalf("heap %v bytes", m.Get("now").Float())
		}
	}
	// Another test's request may end meanwhile (its heap message): the
	// job's own messages are its progress, its result, and a heap after.
	got := strings.Join(types, ",")
	if _, after, ok := strings.Cut(got, "jobdone"); !ok || !strings.Contains(after, "heap") {
		t.Fatalf("messages %s: want the job's progress, its result, then the heap", got)
	}
}
