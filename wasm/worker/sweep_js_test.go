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
	"schedplay/wasm/view"
)

func sweepMsg(t *testing.T, spec experiment.SweepSpec) js.Value {
	sc, err := scenario.Preset("demo/nice-shares")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 100 * sched.Millisecond
	js1, _ := json.Marshal(spec)
	m := js.Global().Get("Object").New()
	m.Set("type", "sweep")
	m.Set("id", 9)
	m.Set("scenario", string(sc.Encode()))
	m.Set("spec", string(js1))
	return m
}

func TestSweepMessage(t *testing.T) {
	w := newWorker()
	msgs := capture(t, nil)
	w.current = 9
	w.runSweepMsg(9, sweepMsg(t, experiment.SweepSpec{Axes: []string{"kernel.hz=100,1000"}, Runs: 2, Metrics: []string{"switches"}}))
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
	var rep view.SweepReport
	if err := json.Unmarshal([]byte(done.Get("report").String()), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.CSV, "kernel.hz,seed,stat,switches\n100,1,value,") || len(rep.Tables) != 1 || len(rep.Tables[0].Rows) != 2 {
		t.Fatalf("report %+v", rep)
	}
}

func TestSweepMessageBadValue(t *testing.T) {
	w := newWorker()
	msgs := capture(t, nil)
	w.current = 9
	w.runSweepMsg(9, sweepMsg(t, experiment.SweepSpec{Axes: []string{"kernel.hz=100,7"}, Runs: 1}))
	if len(*msgs) != 1 || !strings.Contains((*msgs)[0].Get("error").String(), "kernel.hz=7") {
		t.Fatalf("bad value: %d messages", len(*msgs))
	}
}
