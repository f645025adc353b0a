package rtapp

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"schedplay/core/scenario"
)

func decode(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// roundTrip exports sc, imports the result and compares the workloads.
func roundTrip(t *testing.T, name string, sc *scenario.Scenario) []byte {
	t.Helper()
	out, _, err := Export(sc)
	if err != nil {
		t.Fatalf("%s: Export: %v", name, err)
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("%s: Import(Export): %v\n%s", name, err, out)
	}
	if a, b := workload(back), workload(sc); a != b {
		t.Errorf("%s: round trip changed the workload\n got %s\nwant %s\n%s", name, a, b, out)
	}
	if back.Duration < sc.Duration {
		t.Errorf("%s: duration %s -> %s", name, sc.Duration, back.Duration)
	}
	return out
}

func TestRoundTripPresets(t *testing.T) {
	for _, p := range scenario.Presets() {
		name := p.Name
		sc, err := scenario.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Export(sc); err != nil {
			t.Logf("%s: not exportable: %v", name, err)
			continue
		}
		roundTrip(t, name, sc)
	}
}

func TestRoundTripShapes(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-4", "duration": "3s", "tasks": [
		{ "name": "a", "instances": 3, "nice": -5, "cpus": [0, 3], "start": "2ms", "loop": 7, "program": [
			{ "run": "1ms" }, { "sleep": "250us" },
			{ "loop": { "count": 4, "program": [ { "run": "100us" }, { "timer": { "ref": "tick", "period": "16ms", "mode": "relative" } } ] } },
			{ "yield": true }, { "timer": { "ref": "tick", "period": "5ms", "mode": "relative" } } ] },
		{ "name": "b", "policy": "SCHED_BATCH", "loop": -1, "program": [
			{ "loop": { "count": 2, "program": [ { "run": "1ms" }, { "loop": { "count": 3, "program": [ { "sleep": "1ms" } ] } } ] } },
			{ "run": -1 } ] },
		{ "name": "c", "loop": -1, "program": [ { "run": "1ms" }, { "fork": "d" }, { "sleep": "10ms" } ] },
		{ "name": "d", "parent": "c", "loop": 1, "program": [ { "run": "1ms" } ] } ] }`)
	out := roundTrip(t, "shapes", sc)
	// The nested loop unrolls: b's first phase (loop 2) has 1 run + 3 sleeps.
	if n := strings.Count(string(out), `"sleep`); n != 1+3+1 {
		t.Errorf("%d sleeps in\n%s", n, out)
	}
}

func TestExportWarningsAndErrors(t *testing.T) {
	sc := decode(t, `{ "version": 1, "duration": "1500ms", "tasks": [
		{ "name": "a", "policy": "SCHED_IDLE", "timer_slack": "1us", "cpu_clock_poll": "2us", "program": [ { "run": "1500ns" }, { "sleep": "1ms" } ] } ] }`)
	_, warns, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ path, sub string }{
		{"duration", "rounded up to 2 s"},
		{"tasks[0].policy", "Debian's rt-app 1.0"},
		{"tasks[0].timer_slack", "left out"},
		{"tasks[0].cpu_clock_poll", "left out"},
		{"tasks[0].program[0].run", "rounded to 2us"},
		{"", "only the workload"},
	} {
		if !hasWarning(warns, w.path, w.sub) {
			t.Errorf("no warning %s %q in %v", w.path, w.sub, warns)
		}
	}
	sc = decode(t, `{ "version": 1, "tasks": [ { "name": "a", "program": [ { "run": "1ms" }, { "exit": true } ] } ] }`)
	_, _, err = Export(sc)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Path != "tasks[0].program[1].exit" {
		t.Errorf("got %v", err)
	}
}

// rtAppBin is the installed rt-app; without one the test is skipped
// (failed in CI, which installs it).
func rtAppBin(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("rt-app")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("rt-app is not installed; .ci/run installs the Debian package rt-app")
		}
		t.Skip("rt-app is not installed (apt-get install rt-app); CI runs this test")
	}
	return bin
}

// runRTApp writes an exported file as name in a fresh directory and runs
// rt-app bin on it there (20 s at most), failing the test if it fails; it
// returns rt-app's output and the directory (its rt-app-*.log thread
// logs). The CPU0 calibration is replaced by a fixed 100 ns per loop: it
// sleeps a second per trial, and the load per loop does not matter for
// "does rt-app run the file".
func runRTApp(t *testing.T, bin string, out []byte, name string) (log, dir string) {
	t.Helper()
	out = []byte(strings.Replace(string(out), `"calibration" : "CPU0"`, `"calibration" : 100`, 1))
	dir = t.TempDir()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, file)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rt-app %s: %v\n%s\n%s", file, err, b, out)
	}
	return string(b), dir
}

// TestRealRTApp runs an exported file with Debian's rt-app for about 1 s.
func TestRealRTApp(t *testing.T) {
	bin := rtAppBin(t)
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "duration": "1s", "tasks": [
		{ "name": "hog", "nice": 5, "cpus": [0], "program": [ { "run": "5ms" } ] },
		{ "name": "periodic", "instances": 2, "loop": -1, "program": [
			{ "run": "200us" }, { "timer": { "ref": "tick", "period": "16ms", "mode": "absolute" } },
			{ "loop": { "count": 3, "program": [ { "run": "100us" }, { "sleep": "1ms" }, { "yield": true } ] } } ] } ] }`)
	out, _, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	log, dir := runRTApp(t, bin, out, "exported.json")
	if !strings.Contains(log, "Exiting") {
		t.Errorf("rt-app ran no thread:\n%s", log)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "rt-app-*.log"))
	if len(logs) != 3 {
		t.Errorf("%d thread logs, want 3 (hog + 2 periodic): %v", len(logs), logs)
	}
}

// SCHED_FIFO/SCHED_RR keep their RT priority through export and import
// (rt-app's "priority" is the RT priority for the RT policies).
func TestRoundTripRT(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "duration": "1s", "tasks": [
		{ "name": "f", "policy": "SCHED_FIFO", "priority": 80, "program": [ { "run": "1ms" }, { "sleep": "9ms" } ] },
		{ "name": "r", "policy": "SCHED_RR", "priority": 7, "program": [ { "run": -1 } ] },
		{ "name": "o", "nice": 3, "program": [ { "run": -1 } ] } ] }`)
	out := roundTrip(t, "rt", sc)
	for _, want := range []string{`"policy" : "SCHED_FIFO",
			"priority" : 80`, `"policy" : "SCHED_RR",
			"priority" : 7`, `"priority" : 3`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
}

// SCHED_DEADLINE parameters, mutexes, a condition wait on a mutex and
// pi_enabled survive export and import.
const deadlineLocksScenario = `{ "version": 1, "topology": "smp-2", "duration": "1s", "pi": true, "tasks": [
		{ "name": "d", "policy": "SCHED_DEADLINE", "dl_runtime": "2ms", "dl_deadline": "8ms", "dl_period": "10ms", "program": [
			{ "lock": "m" }, { "run": "1ms" }, { "unlock": "m" }, { "timer": { "ref": "t", "period": "10ms", "mode": "absolute" } } ] },
		{ "name": "w", "loop": -1, "program": [ { "lock": "m" }, { "wait": "q", "mutex": "m" }, { "run": "100us" }, { "unlock": "m" } ] },
		{ "name": "s", "loop": -1, "program": [ { "run": "3ms" }, { "lock": "m" }, { "signal": "q", "cond": true }, { "unlock": "m" }, { "sleep": "5ms" } ] } ] }`

func TestRoundTripDeadlineLocks(t *testing.T) {
	sc := decode(t, deadlineLocksScenario)
	out := roundTrip(t, "deadline-locks", sc)
	for _, want := range []string{`"dl-runtime" : 2000`, `"dl-period" : 10000`, `"dl-deadline" : 8000`,
		`"pi_enabled" : true`, `"lock0" : "m"`, `"wait1" : { "ref" : "q", "mutex" : "m" }`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatal(err)
	}
	if !back.PI || back.Tasks[0].DLDeadline != 8000*usec {
		t.Errorf("imported %+v", back.Tasks[0])
	}
}

// TestRealRTAppDeadlineLocks runs the exported deadline/mutex file with
// Debian's rt-app for about 1 s (sched_setattr() needs root).
func TestRealRTAppDeadlineLocks(t *testing.T) {
	bin, err := exec.LookPath("rt-app")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs rt-app and root (SCHED_DEADLINE)")
	}
	out, _, err := Export(decode(t, deadlineLocksScenario))
	if err != nil {
		t.Fatal(err)
	}
	log, _ := runRTApp(t, bin, out, "exported.json")
	if strings.Contains(log, "Failed") || !strings.Contains(log, "Exiting") {
		t.Errorf("rt-app did not run the file cleanly:\n%s", log)
	}
}
