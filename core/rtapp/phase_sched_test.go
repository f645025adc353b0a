package rtapp

import (
	"reflect"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// TestPhaseSchedImport: rt-app's per-phase policy/priority/dl-* become
// setattr steps at the phase starts, the priority read as the nice value
// for the fair policies and the RT priority for FIFO/RR; a file whose
// phases only restate the thread's parameters gets none.
func TestPhaseSchedImport(t *testing.T) {
	sc, _, err := Import([]byte(`{ "global": { "duration": 1 }, "tasks": { "a": { "policy": "SCHED_OTHER", "priority": 0, "loop": -1, "phases": {
		"p0": { "run": 1000, "sleep": 1000 },
		"p1": { "policy": "SCHED_FIFO", "priority": 20, "loop": 2, "run": 500 },
		"p2": { "priority": 30, "run": 100 },
		"p3": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "run": 500 },
		"p4": { "policy": "SCHED_OTHER", "priority": 5, "run": 100 } } } } }`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range sc.Tasks[0].Program {
		if st.Kind == "setattr" {
			a := st.SetAttr
			nice := "-"
			if a.Nice != nil {
				nice = string(rune('0' + *a.Nice))
			}
			got = append(got, a.Policy+"/"+nice+"/"+string(rune('0'+a.Priority/10))+"/"+scenario.FormatDuration(a.DLRuntime)+"/"+scenario.FormatDuration(a.DLPeriod))
		}
	}
	want := []string{"SCHED_FIFO/-/2/0s/0s", "SCHED_FIFO/-/3/0s/0s", "SCHED_DEADLINE/-/0/1ms/10ms", "SCHED_OTHER/5/0/0s/0s"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("setattr steps %q, want %q", got, want)
	}
	// The step precedes the phase's loop: rt-app sets the parameters once
	// per phase start.
	if p := sc.Tasks[0].Program; p[2].Kind != "setattr" || p[3].Kind != "loop" {
		t.Errorf("phase p1 imported as %s, %s; want setattr then loop", p[2].Kind, p[3].Kind)
	}
	same, _, err := Import([]byte(`{ "tasks": { "a": { "policy": "SCHED_FIFO", "priority": 10, "phases": {
		"p0": { "policy": "SCHED_FIFO", "run": 1000 }, "p1": { "priority": 10, "run": 10 } } } } }`))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range same.Tasks[0].Program {
		if st.Kind == "setattr" {
			t.Errorf("restated parameters imported as a setattr step: %+v", st.SetAttr)
		}
	}
	_, _, err = Import([]byte(`{ "tasks": { "a": { "phases": { "p0": { "policy": "SCHED_RR", "priority": 0, "run": 1 } } } } }`))
	if err == nil || !strings.Contains(err.Error(), "tasks.a.phases.p0.priority") || !strings.Contains(err.Error(), "1..99") {
		t.Errorf("RR priority 0: %v, want an error at tasks.a.phases.p0.priority", err)
	}
}

// TestPhaseSchedRoundTrip: setattr and nice steps export as per-phase
// scheduling keys and import back to the same run (event stream).
func TestPhaseSchedRoundTrip(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "duration": "1s", "tasks": [
		{ "name": "a", "loop": -1, "program": [
			{ "setattr": { "policy": "SCHED_OTHER", "nice": 0 } }, { "run": "3ms" }, { "sleep": "1ms" },
			{ "loop": { "count": 3, "program": [ { "setattr": { "policy": "SCHED_FIFO", "priority": 20 } }, { "run": "500us" }, { "sleep": "200us" } ] } },
			{ "setattr": { "policy": "SCHED_OTHER", "nice": 7 } }, { "run": "2ms" }, { "sleep": "300us" },
			{ "nice": 3 }, { "run": "1ms" }, { "sleep": "200us" },
			{ "setattr": { "policy": "SCHED_DEADLINE", "dl_runtime": "1ms", "dl_period": "5ms" } }, { "run": "2ms" }, { "sleep": "100us" } ] },
		{ "name": "h", "instances": 3, "loop": -1, "program": [ { "run": "3ms" }, { "sleep": "1ms" } ] } ] }`)
	out, _, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"policy" : "SCHED_FIFO",` + "\n\t\t\t\t\t\"priority\" : 20", `"priority" : 7`, `"priority" : 3`, `"dl-runtime" : 1000`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("Import(Export): %v\n%s", err, out)
	}
	back.Topology, back.Seed, back.Duration = sc.Topology, sc.Seed, sc.Duration
	const d = 100 * sched.Millisecond
	want, n := runStream(t, sc, d)
	got, m := runStream(t, back, d)
	if got != want || n != m {
		t.Errorf("the imported export runs differently: %d events, want %d\n%s", m, n, out)
	}
}

// TestPhaseSchedExportRefusals: what rt-app's phase parameters cannot say
// is an error naming the step.
func TestPhaseSchedExportRefusals(t *testing.T) {
	for _, c := range []struct{ src, path, msg string }{
		{`{ "name": "a", "program": [ { "nice": 3, "task": "b" }, { "run": "1ms" } ] }, { "name": "b", "program": [ { "run": -1 } ] }`,
			"tasks[0].program[0].task", "thread itself only"},
		{`{ "name": "a", "policy": "SCHED_FIFO", "priority": 3, "program": [ { "nice": 3 }, { "run": "1ms" } ] }`,
			"tasks[0].program[0].nice", "set a fair policy first"},
		{`{ "name": "a", "program": [ { "loop": { "count": 2, "program": [ { "run": "1ms" }, { "nice": 1 } ] } } ] }`,
			"tasks[0].program[0].loop.program[1].nice", "at a phase's start only"},
		{`{ "name": "a", "program": [ { "run": "1ms" }, { "nice": 1 } ] }`,
			"tasks[0].program[1].nice", "ends the program"},
		{`{ "name": "a", "program": [ { "run": "1ms" }, { "nice": 1 }, { "run": "1ms" } ] }`,
			"tasks[0].program", "start the program with a setattr step"},
	} {
		sc := decode(t, `{ "version": 1, "topology": "smp-2", "tasks": [ `+c.src+` ] }`)
		_, _, err := Export(sc)
		if err == nil || !strings.Contains(err.Error(), c.path+": ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: Export = %v; want %s: ...%s", c.src, err, c.path, c.msg)
		}
	}
}
