package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

const perCPUScenario = `{ "version": 1, "name": "pc", "topology": "xeon-4s18c", "duration": "10ms",
  "tasks": [ { "name": "cyc", "per_cpu": true, "policy": "SCHED_FIFO", "priority": 90,
               "program": [ { "timer": { "ref": "t", "period": "1ms" } }, { "run": "10us" } ] },
             { "name": "bg", "instances_per_cpu": 0.75, "program": [ { "run": "1ms" }, { "barrier": "b" } ] } ] }`

// TestPerCPUTasks: per_cpu and instances_per_cpu follow the machine,
// including hw.smt=off, survive Encode, and barriers count the expanded
// instances.
func TestPerCPUTasks(t *testing.T) {
	for _, tc := range []struct {
		smt       string
		ncpu, nbg int
	}{{"on", 144, 108}, {"off", 72, 54}} {
		cfg := buildSMT(t, perCPUScenario, tc.smt)
		if n := cfg.Machine.NumCPUs(); n != tc.ncpu {
			t.Errorf("hw.smt=%s: %d CPUs, want %d", tc.smt, n, tc.ncpu)
		}
		cyc, bg := cfg.Tasks[0], cfg.Tasks[1]
		if cyc.Instances != tc.ncpu || !cyc.PinEach || bg.Instances != tc.nbg || bg.PinEach {
			t.Errorf("hw.smt=%s: cyc %d pinned=%v, bg %d; want %d pinned, %d", tc.smt, cyc.Instances, cyc.PinEach, bg.Instances, tc.ncpu, tc.nbg)
		}
		if b := cfg.Resources[0].Barrier; b != tc.nbg {
			t.Errorf("barrier participants %d, want %d", b, tc.nbg)
		}
	}
}

func TestPerCPUErrors(t *testing.T) {
	for _, tc := range []struct{ old, new, path string }{
		{`"per_cpu": true,`, `"per_cpu": true, "instances": 3,`, "tasks[0].per_cpu"},
		{`"per_cpu": true,`, `"per_cpu": true, "cpus": [1],`, "tasks[0].per_cpu"},
		{`"per_cpu": true,`, `"per_cpu": "yes",`, "tasks[0].per_cpu"},
		{`"instances_per_cpu": 0.75`, `"instances_per_cpu": 0`, "tasks[1].instances_per_cpu"},
		{`"instances_per_cpu": 0.75`, `"instances_per_cpu": 0.75, "instances": 2`, "tasks[1].instances_per_cpu"},
	} {
		src := strings.Replace(perCPUScenario, tc.old, tc.new, 1)
		sc, err := Decode([]byte(src))
		if err == nil {
			_, err = sc.Build(sched.DefaultLimits())
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.new)
			continue
		}
		if e := asError(t, tc.new, err); e.Path != tc.path {
			t.Errorf("%s: path %q, want %q (%v)", tc.new, e.Path, tc.path, err)
		}
	}
}
