package rtapp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// exampleOutcomes is what every Debian rt-app 1.0 example does on import:
// "" imports, anything else is the error's path and a piece of its message.
var exampleOutcomes = map[string]struct{ path, msg string }{
	"browser-long.json": {},
	// SCHED_FIFO with rt-app's default RT priority 10.
	"cpufreq_governor_efficiency/calibration.json": {},
	"cpufreq_governor_efficiency/dvfs.json":        {},
	"browser-short.json":                           {},
	"merge/global.json":                            {"tasks", "missing"},
	"merge/resources.json":                         {"tasks", "missing"},
	"merge/thread0.json":                           {"tasks.thread0.exec", "rt-app 0.x thread grammar"},
	"merge/thread1.json":                           {"tasks.thread1.exec", "rt-app 0.x thread grammar"},
	"merge/thread2.json":                           {"tasks.thread2.exec", "rt-app 0.x thread grammar"},
	"merge/thread3.json":                           {"tasks.thread3.exec", "rt-app 0.x thread grammar"},
	"mp3-long.json":                                {},
	"mp3-short.json":                               {},
	"spreading-tasks.json":                         {},
	"template.json":                                {},
	"tutorial/example1.json":                       {},
	"tutorial/example2.json":                       {},
	"tutorial/example3.json":                       {},
	"tutorial/example4.json":                       {},
	"tutorial/example5.json":                       {},
	"tutorial/example6.json":                       {},
	"tutorial/example7.json":                       {},
	"tutorial/example8.json":                       {},
	"video-long.json":                              {},
	"video-short.json":                             {},
}

func exampleFiles(t testing.TB) []string {
	var files []string
	root := filepath.Join("testdata", "examples")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// TestDebianExamples imports every example of Debian's rt-app package
// (copied to testdata/examples): each imports or fails with a precise error.
func TestDebianExamples(t *testing.T) {
	files := exampleFiles(t)
	if len(files) != len(exampleOutcomes) {
		t.Errorf("%d example files, %d expected outcomes: update exampleOutcomes", len(files), len(exampleOutcomes))
	}
	for _, f := range files {
		want, ok := exampleOutcomes[f]
		if !ok {
			t.Errorf("%s: no expected outcome", f)
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		sc, warns, err := Import(data)
		if want.path == "" {
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			if err := sc.Validate(); err != nil {
				t.Errorf("%s: imported scenario invalid: %v", f, err)
			}
			for _, w := range warns {
				t.Logf("%s: warning: %s", f, w)
			}
			continue
		}
		var se *scenario.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want an error at %s", f, err, want.path)
			continue
		}
		if se.Path != want.path || !strings.Contains(se.Msg, want.msg) {
			t.Errorf("%s: got %q, want path %s and a message containing %q", f, err, want.path, want.msg)
		}
	}
}

// In the installed package too, if it is there: nothing new went unnoticed.
func TestInstalledExamplesAreCopied(t *testing.T) {
	const dir = "/usr/share/doc/rt-app/examples"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("rt-app package not installed")
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if _, ok := exampleOutcomes[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s is not in testdata/examples", rel)
		}
		return nil
	})
}

func mustImport(t *testing.T, src string) (*scenario.Scenario, []Warning) {
	t.Helper()
	sc, w, err := Import([]byte(src))
	if err != nil {
		t.Fatalf("Import: %v\n%s", err, src)
	}
	return sc, w
}

func importErr(t *testing.T, src string) *scenario.Error {
	t.Helper()
	_, _, err := Import([]byte(src))
	var se *scenario.Error
	if !errors.As(err, &se) {
		t.Fatalf("Import: got %v, want a *scenario.Error\n%s", err, src)
	}
	return se
}

func hasWarning(ws []Warning, path, sub string) bool {
	for _, w := range ws {
		if w.Path == path && strings.Contains(w.Msg, sub) {
			return true
		}
	}
	return false
}

// TestS5 imports the rt-app file of S5 (docs/VALIDATION.md) verbatim and checks
// that it is the workload of demo/sched-idle-wakeup-cfs: the same task
// groups and programs, and, on the preset's machine and kernel, the same
// schedule to the nanosecond.
func TestS5(t *testing.T) {
	for _, f := range []string{"s5-sched-idle.json", "s5-commented.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		sc, warns, err := Import(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !hasWarning(warns, "global.duration", "-1") {
			t.Errorf("%s: no warning for duration -1: %v", f, warns)
		}
		pre, err := scenario.Preset("demo/sched-idle-wakeup-cfs")
		if err != nil {
			t.Fatal(err)
		}
		// task_idle's loop of 2000 x 16 ms outlasts the preset's run.
		if got := sc.Tasks[1].Loop; got != 2000 || sched.Time(got)*16*sched.Millisecond <= pre.Duration {
			t.Errorf("%s: task_idle loop %d", f, got)
		}
		sc.Tasks[1].Loop = -1
		if a, b := workload(sc), workload(pre); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: workload differs from the preset\n got %s\nwant %s", f, a, b)
		}
		// On the preset's machine, kernel and duration: the same run.
		sc.Topology, sc.Kernel, sc.Duration, sc.Seed, sc.Features, sc.Sysctl = pre.Topology, pre.Kernel, pre.Duration, pre.Seed, pre.Features, pre.Sysctl
		if a, b := runMetrics(t, sc), runMetrics(t, pre); a != b {
			t.Errorf("%s: imported run differs from the preset's\n got %s\nwant %s", f, a, b)
		}
	}
}

// workload renders what a scenario asks the tasks to do, normalised: SCHED_OTHER
// spelled out, timer slack/slice left out (rt-app has neither), loop
// steps of count 1 inlined, timer refs renamed in order of first use.
func workload(sc *scenario.Scenario) string {
	var out []scenario.Task
	for _, t := range sc.Tasks {
		t.Policy = policyName(t.Policy)
		if t.Policy == "SCHED_NORMAL" {
			t.Policy = "SCHED_OTHER"
		}
		t.TimerSlack, t.Slice = nil, 0
		if t.Policy == "SCHED_DEADLINE" { // the defaulted parameters, written out
			if t.DLDeadline == 0 {
				t.DLDeadline = t.DLPeriod
			}
			if t.DLPeriod == 0 {
				t.DLPeriod = t.DLDeadline
			}
		}
		refs := map[string]string{}
		t.Program = normalize(t.Program, refs, false)
		if p, stuck := truncateForever(t.Program); stuck {
			t.Program, t.Loop = p, -1
		}
		out = append(out, t)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// Loops inside loops are unrolled, as Export does (rt-app phases do not nest).
func normalize(steps []scenario.Step, refs map[string]string, inLoop bool) []scenario.Step {
	var out []scenario.Step
	for _, st := range steps {
		switch st.Kind {
		case "loop":
			body := normalize(st.Loop.Program, refs, true)
			if st.Loop.Count == 1 || inLoop && st.Loop.Count > 1 {
				for n := 0; n < st.Loop.Count; n++ {
					out = append(out, body...)
				}
				continue
			}
			st.Loop = &scenario.Loop{Count: st.Loop.Count, Program: body}
		case "timer":
			tm := *st.Timer
			if _, ok := refs[tm.Ref]; !ok {
				refs[tm.Ref] = "t" + string(rune('0'+len(refs)))
			}
			tm.Ref = refs[tm.Ref]
			if tm.Mode == "" {
				tm.Mode = "absolute"
			}
			st.Timer = &tm
		}
		out = append(out, st)
	}
	return out
}

// newSim builds sc and creates its simulation.
func newSim(t *testing.T, sc *scenario.Scenario) *sched.Sim {
	t.Helper()
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

func runMetrics(t *testing.T, sc *scenario.Scenario) string {
	t.Helper()
	sim := newSim(t, sc)
	col := metrics.New(sim.NumCPUs())
	sim.Attach(col)
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(col.Build(sim, "s5"))
	return string(b)
}

func TestEventOrderAndSuffixes(t *testing.T) {
	sc, warns := mustImport(t, `{ "tasks": { "a": { "loop": 3,
		"sleep1": 5, "run0": 10, "runtime3": 7, "run": 1, "yield": "", "sleep": 2 } },
		"global": { "duration": 2 } }`)
	got := sc.Tasks[0]
	want := []scenario.Step{{Kind: "sleep", Sleep: 5 * usec}, {Kind: "run", Run: 10 * usec}, {Kind: "run", Run: 7 * usec},
		{Kind: "run", Run: 1 * usec}, {Kind: "yield"}, {Kind: "sleep", Sleep: 2 * usec}}
	if !reflect.DeepEqual(got.Program, want) || got.Loop != 3 || sc.Duration != 2*sec {
		t.Errorf("got %+v loop %d duration %s", got.Program, got.Loop, sc.Duration)
	}
	if !hasWarning(warns, "tasks.a.runtime3", "imported as \"run\"") {
		t.Errorf("no runtime warning: %v", warns)
	}
}

func TestDuplicateKeysKeptInOrder(t *testing.T) {
	sc, warns := mustImport(t, `{ "tasks": { "a": { "run": 1, "sleep": 2, "run": 3, } }, }`)
	want := []scenario.Step{{Kind: "run", Run: 1 * usec}, {Kind: "sleep", Sleep: 2 * usec}, {Kind: "run", Run: 3 * usec}}
	if !reflect.DeepEqual(sc.Tasks[0].Program, want) {
		t.Errorf("got %+v", sc.Tasks[0].Program)
	}
	if !hasWarning(warns, "tasks.a", "repeated keys run") {
		t.Errorf("no duplicate warning: %v", warns)
	}
}

func TestPhases(t *testing.T) {
	sc, _ := mustImport(t, `{ "tasks": { "t": { "instance": 2, "cpus": [1, 3], "priority": 5, "delay": 1500,
		"phases": {
			"light": { "loop": 10, "run": 1000, "timer": { "ref": "unique", "period": 30000 } },
			"once":  { "cpus": [3, 1], "sleep": 100 },
			"heavy": { "loop": 10, "run": 4000, "timer": { "ref": "unique", "period": 30000, "mode": "absolute" } } } } },
		"global": { "duration": 3 } }`)
	tk := sc.Tasks[0]
	if tk.Instances != 2 || tk.Nice != 5 || tk.Start != 1500*usec || tk.Loop != -1 || !reflect.DeepEqual(tk.CPUs, []int{1, 3}) || sc.Topology != "smp-4" {
		t.Errorf("task %+v topology %s", tk, sc.Topology)
	}
	p := tk.Program
	if len(p) != 3 || p[0].Kind != "loop" || p[0].Loop.Count != 10 || p[1].Kind != "sleep" || p[2].Loop.Count != 10 {
		t.Fatalf("program %+v", p)
	}
	// One timer resource "unique": absolute for every use once any use says so.
	if m0, m2 := p[0].Loop.Program[1].Timer.Mode, p[2].Loop.Program[1].Timer.Mode; m0 != "absolute" || m2 != "absolute" {
		t.Errorf("modes %s %s, want absolute (rt-app's timer resource)", m0, m2)
	}
}

func TestTimerDefaultsAndSharing(t *testing.T) {
	sc, warns := mustImport(t, `{ "tasks": {
		"a": { "instance": 2, "run": 10, "timer": { "ref": "tick", "period": 1000 } },
		"b": { "run": 10, "timer": { "ref": "uniqueB", "period": 1000 } } } }`)
	if m := sc.Tasks[0].Program[1].Timer.Mode; m != "relative" {
		t.Errorf("default mode %q, want relative (rt-app's default)", m)
	}
	if !hasWarning(warns, "tasks.a.timer", "shared by 2 threads") {
		t.Errorf("no shared-timer warning: %v", warns)
	}
	if hasWarning(warns, "tasks.b.timer", "shared") {
		t.Errorf("unique timer reported shared: %v", warns)
	}
	if !hasWarning(warns, "", "no global section") {
		t.Errorf("no warning for the missing global: %v", warns)
	}
}

func TestFork(t *testing.T) {
	sc, warns := mustImport(t, `{ "tasks": {
		"parent": { "loop": 2, "run": 100, "fork": "child", "sleep": 1000 },
		"child": { "instance": 0, "loop": 1, "run": 50 } } }`)
	if len(sc.Tasks) != 2 || sc.Tasks[1].Parent != "parent" || sc.Tasks[1].Instances != 1 || sc.Tasks[0].Program[1].Fork != "child" {
		t.Errorf("got %+v", sc.Tasks)
	}
	if !hasWarning(warns, "tasks.parent.fork", "Debian's rt-app 1.0 ignores") {
		t.Errorf("warnings %v", warns)
	}
	se := importErr(t, `{ "tasks": { "p": { "run": 1, "fork": "c" }, "c": { "run": 1 } } }`)
	if se.Path != "tasks.c.instance" {
		t.Errorf("got %v", se)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, path, msg string }{
		{`{ "tasks": { "a": { "policy": "SCHED_FIFO", "priority": 0, "run": 1 } } }`, "tasks.a.priority", "the RT priority, 1..99"},
		{`{ "tasks": { "a": { "policy": "SCHED_DEADLINE", "run": 1 } } }`, "tasks.a", "needs dl-runtime"},
		{`{ "tasks": { "a": { "policy": "SCHED_DEADLINE", "dl-runtime": 20000, "dl-period": 10000, "run": 1 } } }`, "tasks.a", "runtime <= deadline <= period"},
		{`{ "tasks": { "a": { "policy": "SCHED_DEADLINE", "dl-runtime": -5, "run": 1 } } }`, `tasks.a["dl-runtime"]`, "positive"},
		{`{ "global": { "pi_enabled": 1 }, "tasks": { "a": { "run": 1 } } }`, "global.pi_enabled", "true or false"},
		{`{ "tasks": { "a": { "run": 1, "lock": 5 } } }`, "tasks.a.lock", "name of a mutex"},
		{`{ "tasks": { "a": { "policy": "SCHED_NORMAL", "run": 1 } } }`, "tasks.a.policy", "unknown policy"},
		{`{ "tasks": { "a": { "priority": 30, "run": 1 } } }`, "tasks.a.priority", "-20..19"},
		{`{ "tasks": { "a": { "run": "10" } } }`, "tasks.a.run", "want an integer"},
		{`{ "tasks": { "a": { "run": -5 } } }`, "tasks.a.run", "-1 for forever"},
		{`{ "tasks": { "a": { "sleep": -5 } } }`, "tasks.a.sleep", ">= 0"},
		{`{ "tasks": { "a": { "loop": 1 } } }`, "tasks.a", "No events found"},
		{`{ "tasks": { "a": { "cpus": [], "run": 1 } } }`, "tasks.a.cpus", "empty"},
		{`{ "tasks": { "a": { "run": 1, "timer": { "ref": "x" } } } }`, "tasks.a.timer.period", "missing"},
		{`{ "tasks": { "a": { "run": 1, "timer": { "period": 0 } } } }`, "tasks.a.timer.period", "positive"},
		{`{ "tasks": { "a": { "run": 1, "unlock": "m" } } }`, "tasks.a.unlock", "not locked earlier"},
		{`{ "tasks": { "a": { "run": 1, "lock": "m" } } }`, "tasks.a", "ends holding mutex"},
		{`{ "tasks": { "a": { "lock": "m", "run": 1, "lock1": "m" } } }`, "tasks.a.lock1", "already locked"},
		{`{ "tasks": { "a": { "run": 1, "signal": 3 } } }`, "tasks.a.signal", "name of a resource"},
		{`{ "tasks": { "a": { "run": 1, "wait": "c" } } }`, "tasks.a.wait", "want an object"},
		{`{ "tasks": { "a": { "instance": 2, "run": 1, "barrier": "b" }, "c": { "run": 1, "barrier": "b" } } }`, "tasks.a.barrier", "rt-app counts 2 barrier events"},
		{`{ "tasks": { "a": { "loop": 0, "phases": { "p": { "run": 1 } } } } }`, "tasks.a.loop", "none of its phases"},
		{`{ "tasks": { "a": { "run": 1, "cpus": [99] } } }`, "tasks.a.cpus[0]", "no built-in smp-N"},
		{`{ "tasks": { "a": { "run": 1 } }, "global": { "duration": 7200 } }`, "global.duration", "limit"},
		{`{ "tasks": { "a": { "instance": 0, "run": 1 } } }`, "tasks", "nothing would run"},
		{`{ "tasks": [] }`, "tasks", "want an object"},
		{`[1]`, "", "top level"},
		{`{ "tasks": { "a": { "run": 1 } } `, "", "line 1 column 1: unterminated object"},
		{`{ "tasks": { "a": { "run": 1 /* } } }`, "", "unterminated /* comment"},
	} {
		se := importErr(t, c.src)
		if se.Path != c.path || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s\n got %q\nwant path %q and %q", c.src, se, c.path, c.msg)
		}
	}
}

func TestNamesAndIgnoredKeys(t *testing.T) {
	sc, warns := mustImport(t, `{ "tasks": { "NPDecoder-CL": { "run": 10, "sleep": 10, "taskgroup": "/x" },
		"NPDecoder_CL": { "run": 1, "sleep": 1 } }, "global": { "duration": 1, "frag": 1, "logdir": "./" }, "extra": 1 }`)
	if sc.Tasks[0].Name != "NPDecoder_CL" || sc.Tasks[1].Name != "NPDecoder_CL_2" {
		t.Errorf("names %s %s", sc.Tasks[0].Name, sc.Tasks[1].Name)
	}
	if sc.Tasks[0].Cgroup != "/x" || sc.Tasks[1].Cgroup != "" {
		t.Errorf("taskgroups %q %q, want /x and none", sc.Tasks[0].Cgroup, sc.Tasks[1].Cgroup)
	}
	for _, w := range []struct{ path, sub string }{
		{`tasks["NPDecoder-CL"]`, "renamed"},
		{"global.frag", "unknown global key"},
		{"global", "logdir"},
		{"extra", "unknown top-level key"},
	} {
		if !hasWarning(warns, w.path, w.sub) {
			t.Errorf("no warning %s %q in %v", w.path, w.sub, warns)
		}
	}
}

func TestMemAndIorunBecomeRun(t *testing.T) {
	sc, warns := mustImport(t, `{ "tasks": { "a": { "run": 1, "mem": 1000, "iorun": 100000, "sleep": 10 } } }`)
	p := sc.Tasks[0].Program
	if p[1].Run != 100 || p[2].Run != 10000 {
		t.Errorf("got %+v", p)
	}
	if !hasWarning(warns, "tasks.a.mem", "memset") || !hasWarning(warns, "tasks.a.iorun", "memset") {
		t.Errorf("warnings %v", warns)
	}
}

// TestPhaseAffinity: rt-app's per-phase "cpus" (tutorial example8: phases
// on CPU 0, 1, then the thread's CPU 2) import as affinity steps at the
// phases whose mask changes, and the thread runs on those CPUs in turn.
func TestPhaseAffinity(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "examples", "tutorial", "example8.json"))
	if err != nil {
		t.Fatal(err)
	}
	sc, _, err := Import(data)
	if err != nil {
		t.Fatal(err)
	}
	var masks [][]int
	for _, st := range sc.Tasks[0].Program {
		if st.Kind == "affinity" {
			masks = append(masks, st.Affinity)
		}
	}
	if fmt.Sprint(masks) != "[[0] [1] [2]]" || fmt.Sprint(sc.Tasks[0].CPUs) != "[2]" || sc.Topology != "smp-4" {
		t.Fatalf("affinity steps %v, thread cpus %v, topology %s", masks, sc.Tasks[0].CPUs, sc.Topology)
	}
	sim := newSim(t, sc)
	var on []sched.CPUID
	sim.Attach(sinkFunc(func(e *sched.Event) {
		if e.Kind == sched.EvSwitch && e.Next == 0 && (len(on) == 0 || on[len(on)-1] != e.CPU) {
			on = append(on, e.CPU)
		}
	}))
	sim.RunUntil(9 * sched.Millisecond)
	// Created on its thread-level CPU 2, the thread moves to CPU 0 at
	// once (phase 1), then 1 and 2 every 1.5 ms.
	if fmt.Sprint(on) != "[2 0 1 2 0 1 2]" {
		t.Errorf("thread0 ran on CPUs %v, want 2, then 0 1 2 0 1 2 (1.5 ms each)", on)
	}
}

type sinkFunc func(e *sched.Event)

func (f sinkFunc) Event(e *sched.Event) { f(e) }
