//go:build js && wasm

package main

// The worker's JS side under Node: messages built as the page builds them
// go through handle to the service, and its answers come back through
// postMessage. A run's batches rebuild the run's timeline; a cancel
// delivered by the event loop during a yield stops the run; loops that
// yield at the same time each get their wake-up.

import (
	"encoding/json"
	"reflect"
	"syscall/js"
	"testing"
	"time"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/runner"
	"schedplay/wasm/view"
)

// captured is what the worker posted, and a signal per final message.
type captured struct {
	msgs []js.Value
	end  chan js.Value
}

// capture replaces the worker's postMessage; final messages (types in
// final) are also sent on end. onMsg, if set, sees every message.
func capture(t *testing.T, onMsg func(js.Value), final ...string) *captured {
	c := &captured{end: make(chan js.Value, 16)}
	prev := js.Global().Get("postMessage")
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0]
		c.msgs = append(c.msgs, m)
		if onMsg != nil {
			onMsg(m)
		}
		for _, typ := range final {
			if m.Get("type").String() == typ {
				c.end <- m
			}
		}
		return nil
	})
	js.Global().Set("postMessage", f)
	t.Cleanup(func() { js.Global().Set("postMessage", prev); f.Release() })
	return c
}

// wait returns the next final message (failing after a minute).
func (c *captured) wait(t *testing.T) js.Value {
	t.Helper()
	select {
	case m := <-c.end:
		return m
	case <-time.After(time.Minute):
		t.Fatal("no final message within a minute")
		return js.Undefined()
	}
}

// object is a JS message object with the given fields.
func object(fields map[string]any) js.Value {
	m := js.Global().Get("Object").New()
	for k, v := range fields {
		m.Set(k, v)
	}
	return m
}

func TestRunMessage(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "done")
	sj := scenarioJSON("50ms")
	w.handle(object(map[string]any{"type": "run", "id": 3, "scenario": string(sj)}))
	done := c.wait(t)
	sc, _ := scenario.Decode(sj)
	r, err := view.NewRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	direct := view.NewTimeline(r.NumCPUs())
	direct.SetUtilGrid(r.Duration(), view.UtilBuckets)
	for _, m := range c.msgs {
		if m.Get("type").String() != "batch" {
			continue
		}
		var infos []sched.TaskInfo
		if s := m.Get("tasks"); s.Type() == js.TypeString {
			if err := json.Unmarshal([]byte(s.String()), &infos); err != nil {
				t.Fatal(err)
			}
		}
		u8 := js.Global().Get("Uint8Array").New(m.Get("buf"))
		buf := make([]byte, u8.Length())
		js.CopyBytesToGo(buf, u8)
		if err := r.Ingest(buf, sched.Time(m.Get("now").Float()), int64(m.Get("events").Float()), infos); err != nil {
			t.Fatal(err)
		}
	}
	var rep metrics.Report
	if err := json.Unmarshal([]byte(done.Get("report").String()), &rep); err != nil || done.Get("id").Int() != 3 {
		t.Fatalf("done %v: %v", done.Get("id"), err)
	}
	// The same run with the timeline on the engine itself.
	eng, _ := runner.NewEngine(sj)
	eng.Sim.Attach(direct)
	for !runner.Step(eng.Sim, 1<<30, 1024, nil) {
	}
	direct.IndexLOD()
	if r.Timeline.NumSlices() == 0 || !reflect.DeepEqual(r.Timeline.Lanes, direct.Lanes) {
		t.Fatalf("streamed timeline of %d slices, the engine's %d", r.Timeline.NumSlices(), direct.NumSlices())
	}
	if rep.Tasks[0].Switches == 0 || r.NumTasks() != eng.Sim.NumTasks() {
		t.Fatalf("report %d switches, %d tasks described of %d", rep.Tasks[0].Switches, r.NumTasks(), eng.Sim.NumTasks())
	}
}

func TestRunMessageCancelledDuringYield(t *testing.T) {
	w := newWorker()
	var cancel js.Func
	cancel = js.FuncOf(func(js.Value, []js.Value) any {
		w.handle(object(map[string]any{"type": "cancel", "id": 4}))
		return nil
	})
	defer cancel.Release()
	batches := 0
	c := capture(t, func(m js.Value) {
		if m.Get("type").String() == "batch" {
			batches++
			if batches == 1 { // a cancel message as a timer task: it runs in a yield
				js.Global().Call("setTimeout", cancel, 0)
			}
		}
	}, "done")
	w.handle(object(map[string]any{"type": "run", "id": 4, "scenario": string(scenarioJSON("20s"))}))
	time.Sleep(time.Second) // an uncancelled run posts a batch every 50 ms
	if len(c.end) != 0 {
		t.Fatal("a cancelled run finished")
	}
	if batches == 0 || batches > 3 {
		t.Fatalf("%d batches before the cancel was seen", batches)
	}
}

// A bad request answers with its error; an unknown type is ignored.
func TestBadMessages(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "done", "exporterror")
	w.handle(object(map[string]any{"type": "nonesuch", "id": 1}))
	w.handle(object(map[string]any{"type": "run", "id": 2, "scenario": "{"}))
	if m := c.wait(t); m.Get("type").String() != "done" || m.Get("error").String() == "" || m.Get("id").Int() != 2 {
		t.Fatalf("bad scenario: %v %v", m.Get("type"), m.Get("error"))
	}
	w.handle(object(map[string]any{"type": "export", "id": 3, "kind": "pcap", "scenario": string(scenarioJSON("1ms"))}))
	if m := c.wait(t); m.Get("type").String() != "exporterror" || len(c.msgs) != 2 {
		t.Fatalf("bad export: %v, %d messages", m.Get("type"), len(c.msgs))
	}
}

// Loops that yield at the same time (a run beside an export) each get
// their own wake-up: none waits forever.
func TestConcurrentYields(t *testing.T) {
	w := newWorker()
	done := make(chan int, 3)
	for g := range 3 {
		go func() {
			for range 20 {
				w.yieldToEventLoop()
			}
			done <- g
		}()
	}
	for range 3 {
		<-done
	}
}
