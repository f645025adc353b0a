package protocol

// Every message survives its wire form (struct -> Msg -> the object's
// fields -> Msg -> struct) in its direction, and a message of the other
// direction or an unknown type is an error, not a zero message.

import (
	"reflect"
	"strings"
	"testing"
)

// roundTrip passes m through a map as the JS sides pass it through an
// object (Buf carried beside it, as the transfer does).
func roundTrip(m Message) Msg {
	obj := map[string]any{}
	w := m.Wire()
	w.Fields(func(k string, v any) { obj[k] = v })
	got := FromFields(func(k string) string { s, _ := obj[k].(string); return s }, func(k string) float64 {
		switch v := obj[k].(type) {
		case int:
			return float64(v)
		case float64:
			return v
		}
		return 0
	})
	got.Buf = w.Buf
	return got
}

func TestRequestsRoundTrip(t *testing.T) {
	for _, m := range []Message{
		Run{ID: 3, Scenario: `{"version":1}`},
		Cancel{ID: 4},
		Export{ID: 5, Kind: "perfetto", Scenario: "{}", Provenance: `{"preset":"demo/x"}`},
		CancelExport{ID: 6},
		OpenTrace{ID: 7},
		Thread{ID: 8, Scenario: "{}", Runs: 2},
		Thread{ID: 9, Scenario: "{}"},
		Sweep{ID: 10, Scenario: "{}", Spec: `{"runs":1}`},
		Job{ID: 11, BatchSpec: BatchSpec{Kind: KindThread, Scenario: "{}", Runs: 3}, Index: 0},
		Job{ID: 12, BatchSpec: BatchSpec{Kind: KindSweep, Scenario: "{}", Spec: `{"runs":2}`}, Index: 899},
		Evaluate{ID: 13, BatchSpec: BatchSpec{Kind: KindThread, Scenario: "{}"}, Results: `["a","b"]`},
		Crash{},
		Warm{BatchSpec: BatchSpec{Kind: KindThread, Scenario: "{}", Runs: 2}},
	} {
		got, err := ParseRequest(roundTrip(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%T: got %+v, %v; want %+v", m, got, err, m)
		}
	}
}

func TestRepliesRoundTrip(t *testing.T) {
	for _, m := range []Message{
		Batch{ID: 1, Now: 123456789, Events: 1 << 40, Tasks: `[{"ID":0}]`, Buf: []byte{1, 2, 3}},
		Batch{ID: 1, Now: 5},
		Done{ID: 2, Report: "{}"},
		Done{ID: 2, Error: "admission: too much"},
		TraceHeader{ID: 3, CPUs: 4, Now: 2e9, Events: 1234, Summary: "4 CPUs", Replay: `{"version":1}`},
		TraceError{ID: 3, Error: "x.txt: line 2: bad"},
		ExportProgress{ID: 4, Fraction: 0.25},
		ExportFile{ID: 4, Kind: "ftrace", Buf: []byte("# tracer")},
		ExportError{ID: 4, Error: "no"},
		ThreadProgress{ID: 5, Progress: Progress{Fraction: 0.5, Finished: 2, Total: 4, Current: "a, seed 1"}},
		ThreadDone{ID: 5, Report: "{}"},
		SweepProgress{ID: 6, Progress: Progress{Fraction: 1, Finished: 4, Total: 4, Current: "x"}},
		SweepDone{ID: 6, Error: "metric: no"},
		Fatal{Error: "worker error"},
		JobProgress{ID: 7, Index: 12, Fraction: 0.75},
		JobDone{ID: 7, Index: 0, Result: `{"v":{}}`},
		JobDone{ID: 7, Index: 3, Error: "run stopped"},
		JobDone{ID: 7, Index: 2, Result: `{"v":{}}`, WorkMs: 812.5, PlanMs: 31.25, WaitMs: 2.5},
		Heap{Bytes: 123 << 20},
	} {
		got, err := ParseReply(roundTrip(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%T: got %+v, %v; want %+v", m, got, err, m)
		}
	}
}

// The keys are the ones site/worker.js and the page have always used.
func TestWireKeys(t *testing.T) {
	keys := map[string]any{}
	Batch{ID: 1, Now: 2, Events: 3, Tasks: "[]"}.Wire().Fields(func(k string, v any) { keys[k] = v })
	want := map[string]any{"type": "batch", "id": 1, "now": 2.0, "events": 3.0, "tasks": "[]"}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("batch fields %v, want %v", keys, want)
	}
}

func TestWrongDirectionIsAnError(t *testing.T) {
	if _, err := ParseRequest(Batch{ID: 1}.Wire()); err == nil || !strings.Contains(err.Error(), `"batch"`) {
		t.Errorf("a batch parsed as a request: %v", err)
	}
	if _, err := ParseReply(Msg{Type: "sweep"}); err == nil {
		t.Error("a sweep request parsed as a reply")
	}
	if _, err := ParseReply(Msg{Type: "nonsense"}); err == nil {
		t.Error("an unknown type parsed")
	}
}
