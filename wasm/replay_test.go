//go:build !(js && wasm)

package main

import (
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/replay"
	"schedplay/wasm/view"
)

// TestReplayTrace: an opened trace offers its inferred workload; Replay
// leaves trace mode with it as the scenario and runs it.
func TestReplayTrace(t *testing.T) {
	env := &testEnv{}
	a := NewApp(env, false)
	a.Start()
	until(t, env, "the first run", func() bool { return a.Run != nil && a.Run.Done() && !a.Ctl.Running })
	trace := "# tracer: nop\n#\n# entries-in-buffer/entries-written: 4/4   #P:2\n" +
		"          <idle>-0       [001] d..2. 100.000000: sched_wakeup: comm=a pid=10 prio=120 target_cpu=001\n" +
		"          <idle>-0       [001] d..2. 100.000020: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n" +
		"               a-10      [001] d..2. 100.001020: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	env.Lock()
	a.Ctl.gen++
	gen := a.Ctl.gen
	a.loadingTrace("t.txt", float64(len(trace)))
	svc := a.Ctl.link.svc.(serviceEngine).s // the host's page engine (enginelink_other.go)
	env.UnlockOnly()
	svc.OpenTrace(gen, "t.txt", float64(len(trace)), func() ([]byte, error) { return []byte(trace), nil })
	until(t, env, "the trace", func() bool { return a.Trace != nil && !a.Trace.Loading })
	env.Lock()
	if a.Trace.Replay == "" {
		env.UnlockOnly()
		t.Fatalf("no replay offered: %q", a.Trace.Summary)
	}
	a.ReplayTrace()
	env.UnlockOnly()
	until(t, env, "the replay's run", func() bool { return a.Run != nil && a.Run.Done() && !a.Ctl.Running })
	env.Lock()
	defer env.UnlockOnly()
	if a.Trace != nil || !strings.HasPrefix(a.Sc.Name, "replay of t.txt") || len(a.Sc.Tasks) != 1 || a.Ctl.Err != "" {
		t.Errorf("after Replay: trace %v, scenario %q with %d tasks, error %q", a.Trace, a.Sc.Name, len(a.Sc.Tasks), a.Ctl.Err)
	}
	if a.A == nil || a.A.Report() == nil || a.A.Report().Kernel != "real" {
		t.Fatalf("the trace is not pinned as A: %+v", a.A)
	}
	if a.originA != nil || a.ABFrom() != "" {
		t.Errorf("A is the trace, but its provenance is a scenario's: %q", a.ABFrom())
	}
	var rows []string
	for _, r := range view.CompareRuns(a.A, a.Run) {
		rows = append(rows, r.Metric)
	}
	if got := strings.Join(rows, "|"); !strings.Contains(got, "a runtime") || !strings.Contains(got, "a switches") {
		t.Errorf("A/B rows %v: want the trace's task a beside the replay's", rows)
	}
	// The fidelity table is the one of the core's pipeline (schedplay
	// replay's) for the same trace and settings.
	f := a.ReplayFidelity()
	ranFirst := a.Run
	if f == nil {
		t.Fatal("no fidelity table after the replay ran")
	}
	want := coreFidelity(t, trace, "t.txt")
	if f.Summary() != want.Summary() || len(f.Rows) != 1 || f.Rows[0] != want.Rows[0] || !f.Rows[0].Found {
		t.Errorf("page fidelity %s %+v\nwant %s %+v", f.Summary(), f.Rows, want.Summary(), want.Rows)
	}
	if a.ReplayBaseFidelity() != nil {
		t.Error("the unchanged replay shown as a changed one")
	}
	// A changed replay (B) is compared with the trace and the unchanged
	// replay.
	a.SetKey("kernel.hz=1000")
	if a.Notice != "" {
		t.Fatalf("kernel.hz=1000: %s", a.Notice)
	}
	env.UnlockOnly()
	until(t, env, "the changed replay's run", func() bool { return a.Run != nil && a.Run.Done() && !a.Ctl.Running && a.Run != ranFirst })
	env.Lock()
	g, base := a.ReplayFidelity(), a.ReplayBaseFidelity()
	if g == nil || base == nil || base.Summary() != want.Summary() || g == base {
		t.Fatalf("after a change: fidelity %v, base %v: want the changed replay beside the unchanged one (%s)", g, base, want.Summary())
	}
	// A run that is not compared with the trace has no table.
	a.UnpinA()
	if a.ReplayFidelity() != nil {
		t.Error("a fidelity table without the trace pinned as A")
	}
}

// coreFidelity is the fidelity of the replay of trace on its default
// machine, through core/replay as schedplay replay runs it.
func coreFidelity(t *testing.T, trace, name string) replay.Fidelity {
	t.Helper()
	tr, err := ftraceimport.Import(strings.NewReader(trace), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := replay.Infer(tr, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(replay.ScenarioOptions{Name: "replay of " + name, Topology: "smp-2"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := replay.Config(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := replay.Run(cfg, sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	trep := tr.Metrics(name)
	return replay.Compare(w, &trep, &rep)
}
