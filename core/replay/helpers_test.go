package replay

import (
	"bytes"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
)

// simTrace runs sc and returns the simulator's ftrace text, imported, with
// the trace's end at the run's end.
func simTrace(t *testing.T, sc *scenario.Scenario) *ftraceimport.Trace {
	t.Helper()
	return importText(t, simText(t, sc), ftraceimport.Options{})
}

// simText runs sc and returns the simulator's ftrace text; the extra
// sinks see the run too.
func simText(t *testing.T, sc *scenario.Scenario, extra ...sched.Sink) string {
	t.Helper()
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := ftrace.NewWriter(&buf, sim.TaskInfo, sim.NumCPUs())
	sim.Attach(w)
	for _, k := range extra {
		if b, ok := k.(interface {
			bind(func(sched.TaskID) sched.TaskInfo)
		}); ok {
			b.bind(sim.TaskInfo)
		}
		sim.Attach(k)
	}
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func preset(t *testing.T, name string, dur sched.Time) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = dur
	return sc
}

// replay infers tr, builds its scenario on topo with the overrides and runs
// it.
func replay(t *testing.T, tr *ftraceimport.Trace, topo string, sets ...string) (*Workload, metrics.Report) {
	t.Helper()
	return replayWith(t, tr, Options{}, ScenarioOptions{Topology: topo}, sets...)
}

// replayWith is replay with the inference's and the scenario's options.
func replayWith(t *testing.T, tr *ftraceimport.Trace, opts Options, so ScenarioOptions, sets ...string) (*Workload, metrics.Report) {
	t.Helper()
	w, err := Infer(tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(so)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := Config(sc, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, sc.Encode())
	}
	rep, err := Run(cfg, "replay")
	if err != nil {
		t.Fatal(err)
	}
	return w, rep
}

// importText imports a trace's text.
func importText(t *testing.T, text string, opts ftraceimport.Options) *ftraceimport.Trace {
	t.Helper()
	tr, err := ftraceimport.Import(strings.NewReader(text), opts)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// taskByPID is the replayed task of a trace pid.
func taskByPID(t *testing.T, rep *metrics.Report, pid int) *metrics.Task {
	t.Helper()
	for i := range rep.Tasks {
		if rep.Tasks[i].PID == pid {
			return &rep.Tasks[i]
		}
	}
	t.Fatalf("no task of pid %d in the replay", pid)
	return nil
}
