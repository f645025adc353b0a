package rtapp

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestAffinityRoundTrip: affinity steps export as per-phase "cpus" and
// import back to the same run (event stream), for a thread with and
// without cpus of its own.
func TestAffinityRoundTrip(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-4", "duration": "1s", "seed": 2, "tasks": [
		{ "name": "a", "cpus": [0, 1], "loop": -1, "program": [
			{ "affinity": [2] }, { "run": "1ms" }, { "sleep": "1ms" },
			{ "loop": { "count": 3, "program": [ { "affinity": [3] }, { "run": "500us" }, { "sleep": "200us" } ] } },
			{ "affinity": "all" }, { "run": "1ms" }, { "sleep": "300us" },
			{ "affinity": [0, 1] }, { "run": "1ms" }, { "sleep": "100us" } ] },
		{ "name": "b", "loop": -1, "program": [
			{ "run": "700us" }, { "sleep": "1ms" }, { "affinity": [1] }, { "run": "2ms" }, { "sleep": "500us" },
			{ "affinity": "all" }, { "run": "300us" } ] },
		{ "name": "h", "instances": 2, "loop": -1, "program": [ { "run": "3ms" }, { "sleep": "1ms" } ] } ] }`)
	out, _, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"cpus" : [0, 1, 2, 3]`) || !strings.Contains(string(out), `"cpus" : [3]`) {
		t.Errorf("export has no per-phase cpus:\n%s", out)
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("Import(Export): %v\n%s", err, out)
	}
	back.Topology, back.Seed, back.Duration = sc.Topology, sc.Seed, sc.Duration
	const d = 60 * sched.Millisecond
	want, n := runStream(t, sc, d)
	got, m := runStream(t, back, d)
	if got != want || n != m {
		t.Errorf("the imported export runs differently: %d events, want %d\n%s", m, n, out)
	}
}

// TestAffinityExportRefusals: what rt-app's phase cpus cannot say is an
// error naming the step and why.
func TestAffinityExportRefusals(t *testing.T) {
	for _, c := range []struct{ src, path, msg string }{
		{`{ "name": "a", "cpus": [0], "program": [ { "run": "1ms" }, { "affinity": [1] }, { "run": "1ms" } ] }`,
			"tasks[0].program", "start the program with an affinity step"},
		{`{ "name": "a", "program": [ { "loop": { "count": 2, "program": [ { "run": "1ms" }, { "affinity": [1] }, { "run": "1ms" } ] } } ] }`,
			"tasks[0].program[0].loop.program[1].affinity", "at a phase's start only"},
		{`{ "name": "a", "program": [ { "run": "1ms" }, { "affinity": [1] } ] }`,
			"tasks[0].program[1].affinity", "ends the program"},
	} {
		sc := decode(t, `{ "version": 1, "topology": "smp-2", "tasks": [ `+c.src+` ] }`)
		_, _, err := Export(sc)
		if err == nil || !strings.Contains(err.Error(), c.path+": ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: Export = %v; want %s: ...%s", c.src, err, c.path, c.msg)
		}
	}
	// With loop 1 there is no next repetition: accepted.
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "tasks": [ { "name": "a", "cpus": [0], "loop": 1, "program": [ { "run": "1ms" }, { "affinity": [1] }, { "run": "1ms" } ] } ] }`)
	if _, _, err := Export(sc); err != nil {
		t.Errorf("loop 1: %v", err)
	}
}
