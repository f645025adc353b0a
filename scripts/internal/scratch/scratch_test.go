package scratch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNameParsesBack(t *testing.T) {
	r := Run{NS: 4026531836, PID: 4242}
	n := r.Name("schedplay-realkernel")
	if n != "schedplay-realkernel-4026531836-4242" {
		t.Fatalf("Name = %q", n)
	}
	if got, ok := parse("schedplay-realkernel", n); !ok || got != r {
		t.Fatalf("parse(%q) = %+v %v, want %+v", n, got, ok, r)
	}
	for _, bad := range []string{"schedplay-realkernel", "schedplay-realkernel-", "schedplay-realkernel-1",
		"schedplay-realkernel-1-", "schedplay-realkernel-x-2", "schedplay-realkernel-1-0", "schedplay-realkernel-1-02",
		"schedplay-realkernelx-1-2", "schedplay-realkernel-1-2-3", "schedplay-replay-1-2"} {
		if r, ok := parse("schedplay-realkernel", bad); ok {
			t.Errorf("parse(%q) = %+v, want no match", bad, r)
		}
	}
}

func TestSelfNameDiffersByPID(t *testing.T) {
	s := Self()
	if s.PID != os.Getpid() {
		t.Fatalf("Self().PID = %d, want %d", s.PID, os.Getpid())
	}
	other := s
	other.PID++
	if s.Name("b") == other.Name("b") {
		t.Fatalf("two runs share the name %q", s.Name("b"))
	}
	if !Alive(s.PID) {
		t.Fatalf("Alive(own PID %d) = false", s.PID)
	}
}

// TestStale: only dead runs of this namespace are stale; this run, live
// runs, other namespaces, the bare old name and other bases are kept.
func TestStale(t *testing.T) {
	self := Run{NS: 7, PID: 100}
	alive := func(pid int) bool { return pid == 200 }
	entries := []string{"b-7-300", "b-7-100", "b-7-200", "b-8-301", "b", "b-7-299", "c-7-302", "b-7-abc", "other"}
	got := Stale("b", entries, self, alive)
	if want := []string{"b-7-299", "b-7-300"}; !slices.Equal(got, want) {
		t.Fatalf("Stale = %v, want %v", got, want)
	}
}

// TestSweep removes a dead run's nested directories (as a cgroup scratch
// parent with child groups looks) and leaves the rest.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	self := Run{NS: 7, PID: 100}
	for _, d := range []string{"b-7-300/P/X", "b-7-300/Q", "b-7-100/A", "b-7-200", "b", "b-8-300"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "b-7-301"), nil, 0o644); err != nil { // a file, not an instance
		t.Fatal(err)
	}
	removed, err := Sweep(dir, "b", self, func(pid int) bool { return pid == 200 }, RemoveTree)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "b-7-300")}; !slices.Equal(removed, want) {
		t.Fatalf("removed %v, want %v", removed, want)
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if want := []string{"b", "b-7-100", "b-7-200", "b-7-301", "b-8-300"}; !slices.Equal(left, want) {
		t.Fatalf("left %v, want %v", left, want)
	}
	if r, err := Sweep(filepath.Join(dir, "missing"), "b", self, Alive, os.Remove); err != nil || r != nil {
		t.Fatalf("missing dir: %v %v, want nothing", r, err)
	}
	// A removal that fails is reported with the path.
	os.MkdirAll(filepath.Join(dir, "b-7-400", "busy"), 0o755)
	if _, err := Sweep(dir, "b", self, func(int) bool { return false }, os.Remove); err == nil {
		t.Fatal("rmdir of a non-empty directory: no error")
	}
}
