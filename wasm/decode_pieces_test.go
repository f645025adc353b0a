package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/runner"
)

// The piecewise decoders build what json.Unmarshal builds, from a real
// run's report and task list, and yield when a piece runs over budget.
func TestDecodeInPiecesMatchesUnmarshal(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"smp-4","duration":"50ms","seed":3,
 "tasks":[{"name":"hog","instances":3,"loop":-1,"program":[{"run":"2ms"}]},
  {"name":"sleeper","instances":5,"nice":-3,"loop":-1,"program":[{"run":"100us"},{"sleep":"1ms"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runner.NewEngine(sc.Encode())
	if err != nil {
		t.Fatal(err)
	}
	for !runner.Step(eng.Sim, 1<<20, 1024, nil) {
	}
	infos := eng.NewTaskInfos()
	repJS, _ := json.Marshal(eng.Report())
	infoJS, _ := json.Marshal(infos)

	clock := 0.0
	p := &pieces{budgetMs: 2, now: func() float64 { clock++; return clock }, yield: func() {}}
	gotRep, err := decodeReport(string(repJS), p)
	if err != nil {
		t.Fatal(err)
	}
	var wantRep any
	json.Unmarshal(repJS, &wantRep)
	var gotAny any
	b, _ := json.Marshal(gotRep)
	json.Unmarshal(b, &gotAny)
	if !reflect.DeepEqual(gotAny, wantRep) {
		t.Errorf("report decoded in pieces differs:\n got %s\nwant %s", b, repJS)
	}
	var want metrics.Report
	json.Unmarshal(repJS, &want)
	if !reflect.DeepEqual(*gotRep, want) {
		t.Errorf("report decoded in pieces differs from json.Unmarshal's:\n got %+v\nwant %+v", *gotRep, want)
	}
	if len(gotRep.Tasks) != 8 || len(gotRep.CPUs) != 4 || gotRep.Events == 0 || gotRep.Topology != "smp-4" {
		t.Errorf("report: %d tasks, %d CPUs, %d events, topology %q", len(gotRep.Tasks), len(gotRep.CPUs), gotRep.Events, gotRep.Topology)
	}
	gotInfos, err := decodeTaskInfos(string(infoJS), p)
	if err != nil {
		t.Fatal(err)
	}
	var wantInfos []sched.TaskInfo
	json.Unmarshal(infoJS, &wantInfos)
	if !reflect.DeepEqual(gotInfos, wantInfos) {
		t.Errorf("task list decoded in pieces differs:\n got %+v\nwant %+v", gotInfos, wantInfos)
	}
	if p.Yields == 0 {
		t.Error("a clock over budget at every element made no yield")
	}

	for _, bad := range []string{`[1]`, `{"tasks":{}}`, `{"cpus":[1]}`, `{"seed":"x"}`, `{"tasks":[`} {
		if _, err := decodeReport(bad, p); err == nil {
			t.Errorf("report %s: want an error", bad)
		}
	}
	if _, err := decodeTaskInfos(`{"a":1}`, p); err == nil {
		t.Error("task list that is an object: want an error")
	}
}
