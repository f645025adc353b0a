package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/rtapp"
)

func rtappCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestExportRTAppThenRun(t *testing.T) {
	code, out, stderr := rtappCLI(t, "export-rtapp", "-preset", "demo/sched-idle-wakeup-cfs")
	if code != 0 {
		t.Fatalf("export-rtapp: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "warning: demo/sched-idle-wakeup-cfs: ") || !strings.Contains(stderr, "only the workload") {
		t.Errorf("warnings missing from stderr:\n%s", stderr)
	}
	if _, _, err := rtapp.Import([]byte(out)); err != nil {
		t.Fatalf("exported file does not import: %v\n%s", err, out)
	}
	file := filepath.Join(t.TempDir(), "exported.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := rtappCLI(t, "run", "-topology", "smp-8", "-kernel", "v5.8", "-o", "json", file); code != 0 {
		t.Fatalf("run exported rt-app file: exit %d\n%s", code, stderr)
	}
}

func TestRTAppInputErrors(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "lock.json")
	os.WriteFile(lock, []byte(`// rt-app
{ "tasks": { "a": { "run": 10, "lock": "m", "run1": 5 } } }`), 0o644)
	code, _, stderr := rtappCLI(t, "run", lock)
	if code != 2 || !strings.Contains(stderr, lock) || !strings.Contains(stderr, "ends holding mutex") {
		t.Errorf("exit %d, stderr %q; want 2 naming the file and the mutex held at the end of the thread", code, stderr)
	}
	exit := filepath.Join(dir, "exit.json")
	os.WriteFile(exit, []byte(`{"version":1,"tasks":[{"name":"a","program":[{"run":"1ms"},{"exit":true}]}]}`), 0o644)
	code, _, stderr = rtappCLI(t, "export-rtapp", exit)
	if code != 2 || !strings.Contains(stderr, "tasks[0].program[1].exit") {
		t.Errorf("exit %d, stderr %q; want 2 naming tasks[0].program[1].exit", code, stderr)
	}
}

func TestLooksLikeRTApp(t *testing.T) {
	for src, want := range map[string]bool{
		`{"tasks":{"t":{"instance":1,"run":1000}}}`:                      true,
		`{ "global": { "duration": 1 } }`:                                true,
		"// comment\n{\"tasks\": {\"t\": {\"run\": 1}}}":                 true,
		"/* broken */ {\"tasks\": {":                                     true,
		`{"version":1,"tasks":[{"name":"a","program":[{"run":"1ms"}]}]}`: false,
		`{"tasks":[]}`:           false,
		`{"version":1,"tasks":[`: false,
	} {
		if got := looksLikeRTApp([]byte(src)); got != want {
			t.Errorf("looksLikeRTApp(%q) = %v, want %v", src, got, want)
		}
	}
}
