package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"schedplay/core/scenario"
)

// runJSON runs the CLI and returns its stdout, failing on a non-zero exit.
func runJSON(t *testing.T, args ...string) string {
	t.Helper()
	code, out, stderr := cli(t, "", args...)
	if code != 0 {
		t.Fatalf("schedplay %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return out
}

// keysOf returns the sorted keys of a JSON object.
func keysOf(t *testing.T, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want a JSON object, got %T", v)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// hasKeys checks that obj has every key of want (fields may be added).
func hasKeys(t *testing.T, what string, obj any, want ...string) {
	t.Helper()
	got := keysOf(t, obj)
	for _, w := range want {
		if i := sort.SearchStrings(got, w); i == len(got) || got[i] != w {
			t.Errorf("%s: no %q (has %v)", what, w, got)
		}
	}
}

func TestRunMetricsJSON(t *testing.T) {
	out := runJSON(t, "run", "-preset", "demo/nice-shares", "-duration", "2s", "-o", "json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	hasKeys(t, "metrics", doc, "schema", "scenario", "topology", "kernel", "seed", "duration_ns", "events", "tasks", "cpus")
	if doc["schema"] != "schedplay.metrics/v1" || doc["scenario"] != "demo/nice-shares" || doc["topology"] != "smp-1" ||
		doc["kernel"] != "v6.18" || doc["seed"] != 1.0 || doc["duration_ns"] != 2e9 {
		t.Errorf("header: %v", doc)
	}
	if ev, _ := doc["events"].(float64); ev <= 0 {
		t.Errorf("events = %v", doc["events"])
	}
	tasks, _ := doc["tasks"].([]any)
	if len(tasks) != 2 {
		t.Fatalf("tasks: %v", doc["tasks"])
	}
	var runtime []float64
	for i, tk := range tasks {
		hasKeys(t, "task", tk, "name", "pid", "policy", "nice", "rt_priority", "runtime_ns", "wait_ns", "sleep_ns",
			"switches", "involuntary_switches", "migrations", "wakeups", "wakeup_latency_ns")
		m := tk.(map[string]any)
		hasKeys(t, "wakeup_latency_ns", m["wakeup_latency_ns"], "count", "mean", "p50", "p90", "p99", "max")
		wantName := []string{"nice0-0", "nice5-1"}[i]
		if m["name"] != wantName || m["policy"] != "SCHED_OTHER" || m["nice"] != float64(5*i) {
			t.Errorf("task %d: name %v policy %v nice %v", i, m["name"], m["policy"], m["nice"])
		}
		runtime = append(runtime, m["runtime_ns"].(float64))
	}
	cpus, _ := doc["cpus"].([]any)
	if len(cpus) != 1 {
		t.Fatalf("cpus: %v", doc["cpus"])
	}
	hasKeys(t, "cpu", cpus[0], "id", "busy_ns", "idle_ns", "switches", "ipis", "idle_state_ns")
	if _, ok := cpus[0].(map[string]any)["idle_state_ns"].(map[string]any); !ok {
		t.Errorf("idle_state_ns is not an object")
	}
	// Weights 1024 and 335: 75.3% / 24.7%. The CPU starts idle in C1 with
	// the tick stopped (smp-1: POLL + C1 1/1 us, nothing armed), so the
	// first task runs after the default hw costs of leaving idle: C1 exit
	// latency 1000 + tick restart (1000 + 2 clock-event programs of 1000)
	// + idle_exit 300 + schedule_idle 200 + pick 300 = 4800 ns. Later
	// switches between the two tasks are charged inside their runtime.
	share := runtime[0] / (runtime[0] + runtime[1])
	if share < 0.748 || share > 0.758 || runtime[0]+runtime[1] != 2e9-4800 {
		t.Errorf("nice 0 share %.4f of %v ns; want 0.753 of 2e9-4800", share, runtime[0]+runtime[1])
	}
}

func TestRunFlags(t *testing.T) {
	out := runJSON(t, "run", "-preset", "demo/fork-burst", "-duration", "100ms", "-kernel", "v5.8", "-topology", "smp-2",
		"-seed", "9", "-set", "kernel.hz=1000", "-set", "features.START_DEBIT=off", "-o", "json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["kernel"] != "v5.8" || doc["topology"] != "smp-2" || doc["seed"] != 9.0 || doc["duration_ns"] != 1e8 {
		t.Errorf("flags not applied: kernel %v topology %v seed %v duration %v", doc["kernel"], doc["topology"], doc["seed"], doc["duration_ns"])
	}
	if cpus := doc["cpus"].([]any); len(cpus) != 2 {
		t.Errorf("%d CPUs, want 2", len(cpus))
	}
	code, text, _ := cli(t, "", "run", "-preset", "demo/nice-shares", "-duration", "100ms")
	if code != 0 || text == "" || json.Valid([]byte(text)) {
		t.Errorf("default -o text: exit %d, output:\n%s", code, text)
	}
}

func TestMetricsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-preset", "demo/periodic-vs-hog", "-duration", "300ms"}
	want := runJSON(t, append(args, "-o", "json")...)
	code, stdout, stderr := cli(t, "", append(args, "-metrics", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if json.Valid([]byte(stdout)) {
		t.Errorf("-metrics FILE with -o text printed JSON on stdout")
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("metrics file differs from -o json output:\n%s\nwant\n%s", got, want)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v; want only m.json (no temporary files)", names)
	}
	// "-" is standard output.
	if out := runJSON(t, append(args, "-metrics", "-")...); out != want {
		t.Errorf("-metrics - printed:\n%s\nwant\n%s", out, want)
	}
	// A directory that does not exist: an error, and nothing written.
	code, _, _ = cli(t, "", append(args, "-metrics", filepath.Join(dir, "nope", "m.json"))...)
	if code == 0 {
		t.Error("-metrics into a missing directory succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("failed write left files: %v", ents)
	}
}

func TestURLThenRun(t *testing.T) {
	for _, p := range scenario.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			u := strings.TrimSpace(runJSON(t, "url", "-preset", p.Name))
			if !strings.HasPrefix(u, "https://schedplay.github.io/#s=") || strings.Contains(u, "\n") {
				t.Fatalf("url printed %q", u)
			}
			frag := u[strings.IndexByte(u, '#'):]
			want := runJSON(t, "run", "-preset", p.Name, "-duration", "20ms", "-o", "json")
			for _, arg := range []string{u, frag, frag[1:]} {
				if got := runJSON(t, "run", "-duration", "20ms", "-o", "json", arg); got != want {
					t.Errorf("run %.40s... differs from run -preset %s:\n%s\nwant\n%s", arg, p.Name, got, want)
				}
			}
		})
	}
	// url of a file and of standard input give the same URL.
	js := `{"version":1,"name":"x","tasks":[{"name":"a","program":[{"run":"1ms"},{"sleep":"1ms"}]}]}`
	p := writeFile(t, "x.json", js)
	a := runJSON(t, "url", p)
	code, b, _ := cli(t, js, "url", "-")
	if code != 0 || a != b {
		t.Errorf("url FILE = %q, url - = %q (exit %d)", a, b, code)
	}
	if got := runJSON(t, "url", "-base", "http://localhost:8080/", p); !strings.HasPrefix(got, "http://localhost:8080/#s=") {
		t.Errorf("url -base: %q", got)
	}
}

func TestRunDeterministic(t *testing.T) {
	for _, p := range scenario.Presets() {
		dur := "300ms"
		if testing.Short() {
			dur = "50ms" // make check
		}
		if p.Name == "seed/newidle-rt-latency" {
			dur = "20ms" // 144 CPUs under a dense load
		}
		args := []string{"run", "-preset", p.Name, "-duration", dur, "-seed", "7", "-o", "json"}
		a, b := runJSON(t, args...), runJSON(t, args...)
		if a != b {
			t.Errorf("%s: two runs with the same seed differ", p.Name)
		}
	}
	js := `{"version":1,"name":"s","topology":"smp-4","seed":3,"duration":"200ms","tasks":[{"name":"w","instances":6,"program":[{"run":"3ms"},{"sleep":"1ms"}]}]}`
	p := writeFile(t, "s.json", js)
	a := runJSON(t, "run", "-o", "json", p)
	code, b, _ := cli(t, js, "run", "-o", "json", "-")
	if code != 0 || a != b {
		t.Errorf("file and stdin runs differ")
	}
}

// TestMetricsFileMode checks that the atomic write leaves the permissions
// an ordinary file gets (0666 less the umask), not os.CreateTemp's 0600.
func TestMetricsFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	runJSON(t, "run", "-preset", "demo/nice-shares", "-duration", "10ms", "-metrics", path)
	ref := filepath.Join(t.TempDir(), "ref")
	if err := os.WriteFile(ref, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	a, err1 := os.Stat(path)
	b, err2 := os.Stat(ref)
	if err1 != nil || err2 != nil || a.Mode().Perm() != b.Mode().Perm() {
		t.Errorf("metrics file mode %v, ordinary file %v (%v %v)", a.Mode(), b.Mode(), err1, err2)
	}
}
