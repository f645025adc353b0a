package scenario

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// hog is a minimal valid task group.
const hog = `{"name":"hog","program":[{"run":-1}]}`

// doc returns a version-1 document with extra top-level members (a JSON
// fragment ending in a comma, or "") and the given task groups.
func doc(extra string, tasks ...string) string {
	return `{"version":1,` + extra + `"tasks":[` + strings.Join(tasks, ",") + `]}`
}

// task returns a task group named name with extra members and a program.
func task(name, extra, program string) string {
	return fmt.Sprintf(`{"name":%q,%s"program":[%s]}`, name, extra, program)
}

// asError returns err as a *Error or fails the test.
func asError(t *testing.T, what string, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: got %T %v, want *scenario.Error", what, err, err)
	}
	return e
}

// buildSMT decodes js, sets hw.smt=smt, and builds the scenario after an
// Encode round trip (what a share link does to it).
func buildSMT(t *testing.T, js, smt string) sched.Config {
	t.Helper()
	sc, err := Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("hw.smt=" + smt); err != nil {
		t.Fatal(err)
	}
	again, err := Decode(sc.Encode())
	if err != nil {
		t.Fatalf("re-decode: %v", err)
	}
	cfg, err := again.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// mustPreset loads a built-in scenario.
func mustPreset(t testing.TB, name string) *Scenario {
	t.Helper()
	sc, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// roundTrip checks Decode(Encode(sc)) deep-equals sc.
func roundTrip(t testing.TB, sc *Scenario) {
	t.Helper()
	js := sc.Encode()
	back, err := Decode(js)
	if err != nil {
		t.Fatalf("Decode(Encode(sc)) = %v\n%s", err, js)
	}
	if !reflect.DeepEqual(back, sc) {
		t.Fatalf("round trip changed the scenario:\n got %#v\nwant %#v\n%s", back, sc, js)
	}
}

// randScenario builds a random valid scenario from r.
func randScenario(r *rand.Rand) *Scenario {
	sc := New()
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	sc.Name = pick("", "rand", "a \"quoted\" <name> & ünïcode")
	sc.Description = pick("", "line one\nline two", "\u2028\t\\")
	sc.Topology = pick("smp-1", "smp-2", "smp-4", "smp-8", "smp-64")
	ncpu := map[string]int{"smp-1": 1, "smp-2": 2, "smp-4": 4, "smp-8": 8, "smp-64": 64}[sc.Topology]
	sc.Kernel.Version = pick(sched.ProfileNames()...)
	sc.Kernel.HZ = []int{0, 100, 250, 300, 1000}[r.IntN(5)]
	sc.Kernel.Preempt = pick("", "none", "voluntary", "full", "lazy")
	if sc.Kernel.Preempt == "lazy" && sc.Kernel.Version != "v6.18" {
		sc.Kernel.Preempt = "full" // the lazy model arrived in v6.13
	}
	prof, _ := sched.ProfileByName(sc.Kernel.Version)
	for _, f := range sched.Features() {
		if r.IntN(4) == 0 {
			on := r.IntN(2) == 0
			if f.AppliesTo(prof.Version()) { // others are refused (feature_versions.go)
				sc.Features[f.String()] = on
			}
		}
	}
	for _, k := range sched.SysctlKeys() {
		if r.IntN(4) == 0 {
			sc.Sysctl[k.Name] = k.Min + r.Int64N(min(k.Max, 1<<30)-k.Min+1)
		}
	}
	sc.Duration = Duration(1 + r.Int64N(int64(10*sched.Second)))
	sc.Seed = uint64(r.IntN(1 << 31))
	n := 1 + r.IntN(4)
	for i := range n {
		t := Task{Name: fmt.Sprintf("t%d.x_%d", i, r.IntN(100)), Instances: 1 + r.IntN(3), Loop: -1}
		t.Policy = pick("", "SCHED_OTHER", "SCHED_NORMAL", "SCHED_BATCH", "SCHED_IDLE")
		t.Nice = r.IntN(40) - 20
		if r.IntN(2) == 0 {
			t.CPUs = []int{r.IntN(ncpu), r.IntN(ncpu)}
		}
		if r.IntN(3) == 0 {
			t.Loop = 1 + r.IntN(5)
		}
		if r.IntN(3) == 0 {
			t.Start = Duration(r.Int64N(int64(sc.Duration) + 1))
		}
		if r.IntN(3) == 0 {
			d := Duration(r.Int64N(int64(sched.Second) + 1))
			t.TimerSlack = &d
		}
		if r.IntN(3) == 0 {
			t.Slice = 100*sched.Microsecond + Duration(r.Int64N(int64(100*sched.Millisecond-100*sched.Microsecond)+1))
		}
		t.Program = randProgram(r, 0)
		sc.Tasks = append(sc.Tasks, t)
	}
	if r.IntN(2) == 0 { // a forked child of the first group
		child := Task{Name: "child", Instances: 1, Parent: sc.Tasks[0].Name, Loop: 1,
			Program: []Step{{Kind: "run", Run: Duration(r.Int64N(int64(sched.Millisecond)))}, {Kind: "exit"}}}
		sc.Tasks[0].Program = append(sc.Tasks[0].Program, Step{Kind: "fork", Fork: "child"})
		sc.Tasks = append(sc.Tasks, child)
	}
	return sc
}

// randProgram returns a random program that always consumes time.
func randProgram(r *rand.Rand, depth int) []Step {
	dur := func() Duration {
		switch r.IntN(3) {
		case 0:
			return Duration(1 + r.Int64N(1000))
		case 1:
			return Duration(1+r.Int64N(1000)) * sched.Microsecond
		}
		return Duration(1 + r.Int64N(int64(100*sched.Millisecond)))
	}
	prog := []Step{{Kind: "run", Run: dur()}}
	for range r.IntN(4) {
		switch k := r.IntN(7); {
		case k == 0:
			prog = append(prog, Step{Kind: "sleep", Sleep: dur()})
		case k == 1:
			mode := []string{"absolute", "relative"}[r.IntN(2)]
			prog = append(prog, Step{Kind: "timer", Timer: &Timer{Ref: fmt.Sprint("tm", r.IntN(2)), Period: dur(), Mode: mode}})
		case k == 2:
			prog = append(prog, Step{Kind: "yield"})
		case k == 3 && depth < 3:
			prog = append(prog, Step{Kind: "loop", Loop: &Loop{Count: 1 + r.IntN(3), Program: randProgram(r, depth+1)}})
		case k == 4:
			prog = append(prog, Step{Kind: "run", Run: sched.Forever})
		default:
			prog = append(prog, Step{Kind: "run", Run: dur()})
		}
	}
	return prog
}
