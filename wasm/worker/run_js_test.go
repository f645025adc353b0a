//go:build js && wasm

package main

// The "run" message under Node: the batches the worker posts between its
// yields (yield_js.go) rebuild the local run's timeline, and a cancel
// delivered by the event loop during a yield stops the run.

import (
	"encoding/json"
	"reflect"
	"syscall/js"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/view"
)

func TestRunMessage(t *testing.T) {
	w := newWorker()
	msgs := capture(t, nil)
	sj := scenarioJSON("50ms")
	w.current = 3
	w.run(3, string(sj))
	sc, _ := scenario.Decode(sj)
	remote, err := view.NewRemoteRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	var done bool
	for _, m := range *msgs {
		switch m.Get("type").String() {
		case "batch":
			var infos []sched.TaskInfo
			if s := m.Get("tasks").String(); s != "" {
				if err := json.Unmarshal([]byte(s), &infos); err != nil {
					t.Fatal(err)
				}
			}
			u8 := js.Global().Get("Uint8Array").New(m.Get("buf"))
			buf := make([]byte, u8.Length())
			js.CopyBytesToGo(buf, u8)
			if err := remote.Ingest(buf, sched.Time(m.Get("now").Float()), int64(m.Get("events").Float()), infos); err != nil {
				t.Fatal(err)
			}
		case "done":
			var rep metrics.Report
			if err := json.Unmarshal([]byte(m.Get("report").String()), &rep); err != nil {
				t.Fatal(err)
			}
			remote.Finish(&rep, nil)
			done = true
		}
	}
	local, _ := view.NewRun(sc)
	for !local.Advance(1 << 20) {
	}
	if !done || remote.Timeline.NumSlices() == 0 || !reflect.DeepEqual(remote.Timeline.Lanes, local.Timeline.Lanes) {
		t.Fatalf("done %v; streamed timeline of %d slices, local %d", done, remote.Timeline.NumSlices(), local.Timeline.NumSlices())
	}
}

func TestRunMessageCancelledDuringYield(t *testing.T) {
	w := newWorker()
	var cancel js.Func
	cancel = js.FuncOf(func(js.Value, []js.Value) any { w.current = -1; return nil })
	defer cancel.Release()
	batches := 0
	msgs := capture(t, func(m js.Value) {
		if m.Get("type").String() == "batch" {
			batches++
			if batches == 1 { // a cancel message as a timer task: it runs in a yield
				js.Global().Call("setTimeout", cancel, 0)
			}
		}
	})
	w.current = 4
	w.run(4, string(scenarioJSON("20s")))
	for _, m := range *msgs {
		if m.Get("type").String() == "done" {
			t.Fatal("a cancelled run finished")
		}
	}
	if batches == 0 || batches > 3 {
		t.Fatalf("%d batches before the cancel was seen", batches)
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
