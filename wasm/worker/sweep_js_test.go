//go:build js && wasm

package main

// The "sweep" message under Node: progress with the number of runs, one
// "sweepdone" whose report has the CLI's CSV and a table per metric; a
// bad value is an error naming the key.

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/report"
)

func sweepMsg(t *testing.T, spec experiment.SweepSpec) js.Value {
	sc, err := scenario.Preset("demo/nice-shares")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 100 * sched.Millisecond
	js1, _ := json.Marshal(spec)
	return object(map[string]any{"type": "sweep", "id": 9, "scenario": string(sc.Encode()), "spec": string(js1)})
}

func TestSweepMessage(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "sweepdone")
	w.handle(sweepMsg(t, experiment.SweepSpec{Axes: []string{"kernel.hz=100,1000"}, Runs: 2, Metrics: []string{"switches"}}))
	c.wait(t)
	msgs := &c.msgs
	var done js.Value
	progress := 0
	for _, m := range *msgs {
		switch m.Get("type").String() {
		case "sweepprogress":
			progress++
			if m.Get("cpus").Int() != 4 {
				t.Fatalf("%d runs, want 2 points x 2", m.Get("cpus").Int())
			}
		case "sweepdone":
			done = m
		}
	}
	if progress == 0 || done.IsUndefined() || !done.Get("error").IsUndefined() {
		t.Fatalf("%d progress messages, done %v", progress, done)
	}
	var rep report.SweepReport
	if err := json.Unmarshal([]byte(done.Get("report").String()), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.CSV, "kernel.hz,seed,stat,switches\n100,1,value,") || len(rep.Tables) != 1 || len(rep.Tables[0].Rows) != 2 {
		t.Fatalf("report %+v", rep)
	}
}

func TestSweepMessageBadValue(t *testing.T) {
	w := newWorker()
	c := capture(t, nil, "sweepdone")
	w.handle(sweepMsg(t, experiment.SweepSpec{Axes: []string{"kernel.hz=100,7"}, Runs: 1}))
	c.wait(t)
	msgs := &c.msgs
	if len(*msgs) != 1 || !strings.Contains((*msgs)[0].Get("error").String(), "kernel.hz=7") {
		t.Fatalf("bad value: %d messages", len(*msgs))
	}
}
