package main

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
)

func mustPreset(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// An edited preset lists exactly the keys changed, and undoing them gives
// the preset back byte for byte.
func TestDiffKeysAndUndo(t *testing.T) {
	const name = "demo/sched-idle-wakeup-cfs"
	base, sc := mustPreset(t, name), mustPreset(t, name)
	if d := diffKeys(base, sc); len(d) != 0 {
		t.Fatalf("unchanged preset differs: %v", d)
	}
	for _, kv := range []string{"kernel.hz=1000", "features.SCHED_IDLE_NO_SLEEPER_CREDIT=on"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	d := diffKeys(base, sc)
	if len(d) != 2 || d[0].Key != "kernel.hz" || d[0].Value != "1000" || d[1].Key != "features.SCHED_IDLE_NO_SLEEPER_CREDIT" {
		t.Fatalf("diff %+v", d)
	}
	if !strings.Contains(diffText(d[0]), "kernel.hz = 1000 (preset: ") {
		t.Fatalf("diff text %q", diffText(d[0]))
	}
	for _, k := range d {
		if err := undoKey(sc, base, k.Key); err != nil {
			t.Fatal(err)
		}
	}
	if string(sc.Encode()) != string(base.Encode()) {
		t.Fatal("undoing every key did not give the preset back")
	}
}

// An edit no key names (a task group's nice value in the JSON) shows as
// the catch-all difference.
func TestDiffKeysOther(t *testing.T) {
	const name = "demo/periodic-vs-hog"
	base := mustPreset(t, name)
	text := strings.Replace(string(base.Encode()), `"name":"hog"`, `"name":"hog2"`, 1)
	if text == string(base.Encode()) {
		t.Fatal("no hog group in the preset")
	}
	sc, err := scenario.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	d := diffKeys(base, sc)
	if len(d) == 0 || d[len(d)-1].Key != otherKey {
		t.Fatalf("diff %+v: want the task-group edit", d)
	}
}

// A stored entry reads back; a corrupt or oversized one is an error with a
// reason, never a panic.
func TestDecodeStored(t *testing.T) {
	sc := mustPreset(t, "demo/periodic-vs-hog")
	p, err := rememberable(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeStored(p)
	if err != nil || string(back.Encode()) != string(sc.Encode()) {
		t.Fatalf("round trip: %v", err)
	}
	for _, bad := range []string{"%%%", "AAAA", p[:len(p)/2], strings.Repeat("A", maxRemembered+1)} {
		if _, err := decodeStored(bad); err == nil {
			t.Fatalf("corrupt entry %.20q accepted", bad)
		}
	}
}

// A scenario too large for the address bar is refused with a message
// naming its size.
func TestRememberableTooLarge(t *testing.T) {
	sc := mustPreset(t, "demo/periodic-vs-hog")
	sc.Description = randomText(2 * maxRemembered)
	if _, err := rememberable(sc); err == nil || !strings.Contains(err.Error(), "characters") {
		t.Fatalf("err %v", err)
	}
}

// randomText is n letters deflate cannot shrink much (a fixed LCG).
func randomText(n int) string {
	b := make([]byte, n)
	x := uint32(1)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = 'a' + byte(x>>24)%26
	}
	return string(b)
}

// The app: the first visit is not modified; a knob makes it modified with
// that key; undo clears it; a stored entry is offered, not applied.
func TestAppModifiedUndo(t *testing.T) {
	a := NewApp(nil, false)
	a.Mem.Diff = nil
	a.remember()
	if a.Modified() {
		t.Fatalf("first visit modified: %+v", a.Mem.Diff)
	}
	if err := a.Sc.Set("kernel.hz=1000"); err != nil {
		t.Fatal(err)
	}
	a.remember()
	if !a.Modified() || a.Mem.Diff[0].Key != "kernel.hz" {
		t.Fatalf("diff %+v", a.Mem.Diff)
	}
	if err := undoKey(a.Sc, a.Mem.baseOf(a.Sc), "kernel.hz"); err != nil {
		t.Fatal(err)
	}
	a.remember()
	if a.Modified() {
		t.Fatalf("after undo %+v", a.Mem.Diff)
	}
}
