package main

// The page without a worker (the host has none, as a browser without Web
// Workers): runs, exports and experiments go to the runner's service on
// the page and come back through the same queue and handlers as the
// worker's answers.

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"schedplay/core/sched"
	"schedplay/wasm/runner"
	"schedplay/wasm/view"
)

// testEnv is the event-env lock the DOM renderer would hold.
type testEnv struct{ mu sync.RWMutex }

func (e *testEnv) Lock()         { e.mu.Lock() }
func (e *testEnv) UnlockOnly()   { e.mu.Unlock() }
func (e *testEnv) UnlockRender() { e.mu.Unlock() }
func (e *testEnv) RLock()        { e.mu.RLock() }
func (e *testEnv) RUnlock()      { e.mu.RUnlock() }

// until polls cond under the lock for up to a minute.
func until(t *testing.T, env *testEnv, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		env.Lock()
		ok := cond()
		env.UnlockOnly()
		if ok {
			return
		}
	}
	t.Fatalf("%s: not within a minute", what)
}

func TestRunOnPageWithoutWorker(t *testing.T) {
	env := &testEnv{}
	a := NewApp(env, false)
	a.Start()
	until(t, env, "the first run", func() bool { return a.Run != nil && a.Run.Done() && !a.Ctl.Running })
	env.Lock()
	r, engine, runErr := a.Run, a.Ctl.engine, a.Ctl.Err
	env.UnlockOnly()
	if engine != "main" || runErr != "" {
		t.Fatalf("engine %q, error %q", engine, runErr)
	}

	// The same run with the timeline on the engine itself.
	eng, err := runner.NewEngine(a.Sc.Encode())
	if err != nil {
		t.Fatal(err)
	}
	direct := view.NewTimeline(eng.Sim.NumCPUs())
	direct.SetUtilGrid(eng.Sim.Config().Duration, view.UtilBuckets)
	eng.Sim.Attach(direct)
	for !runner.Step(eng.Sim, 1<<30, 1024, nil) {
	}
	direct.IndexLOD()
	if r.Timeline.NumSlices() == 0 || !reflect.DeepEqual(r.Timeline.Lanes, direct.Lanes) {
		t.Fatalf("page run: %d slices, the engine's %d", r.Timeline.NumSlices(), direct.NumSlices())
	}
	if rep := eng.Report(); !reflect.DeepEqual(*r.Report(), rep) {
		t.Fatal("page run's report differs from the engine's")
	}
	if last := sched.TaskID(r.NumTasks() - 1); r.TaskInfo(last) != eng.Sim.TaskInfo(last) || r.NumTasks() != eng.Sim.NumTasks() {
		t.Fatalf("%d tasks, want %d", r.NumTasks(), eng.Sim.NumTasks())
	}

	// An export re-runs the scenario on the page and ends the export.
	env.Lock()
	a.Export("ftrace")
	env.UnlockOnly()
	until(t, env, "the export", func() bool { return a.exportKind == "" })
	env.Lock()
	notice := a.Notice
	env.UnlockOnly()
	if len(notice) < 14 || notice[:14] != "Exported trace" {
		t.Fatalf("notice %q, want the export done", notice)
	}

	// A cancelled run stops; a newer one supersedes it.
	env.Lock()
	a.SetKey("duration=30s")
	a.CancelRun()
	a.SetKey("duration=50ms")
	env.UnlockOnly()
	until(t, env, "the newer run", func() bool { return a.Run.Done() && !a.Ctl.Running })
	env.Lock()
	defer env.UnlockOnly()
	if a.Run.Duration() != 50*sched.Millisecond || a.Ctl.Err != "" {
		t.Fatalf("run of %v, error %q", a.Run.Duration(), a.Ctl.Err)
	}
}
