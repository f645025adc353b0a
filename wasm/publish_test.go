package main

import (
	"encoding/json"
	"testing"

	"schedplay/core/metrics"
)

// tasksJSON is parsed by the page's JSON.parse: it must be JSON, with
// every task under its name, whatever the name holds.
func TestTasksJSON(t *testing.T) {
	rep := &metrics.Report{Tasks: []metrics.Task{
		{Name: "hog/0", RuntimeNs: 1500000000, Switches: 7},
		{Name: "we\"ird\\name\n\x01é", RuntimeNs: 3, Switches: 0},
	}}
	rep.Tasks[0].WakeupLatencyNs.P99 = 42
	var got map[string]struct {
		RuntimeNs float64 `json:"runtime_ns"`
		Switches  float64 `json:"switches"`
		LatP99Ns  float64 `json:"lat_p99_ns"`
	}
	text := tasksJSON(rep)
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	if len(got) != 2 {
		t.Fatalf("%d tasks in %s", len(got), text)
	}
	if h := got["hog/0"]; h.RuntimeNs != 1500000000 || h.Switches != 7 || h.LatP99Ns != 42 {
		t.Errorf("hog/0: %+v", h)
	}
	if w, ok := got["we\"ird\\name\n\x01é"]; !ok || w.RuntimeNs != 3 {
		t.Errorf("escaped name lost: %s", text)
	}
	if tasksJSON(&metrics.Report{}) != "{}" {
		t.Error("no tasks: want {}")
	}
}
