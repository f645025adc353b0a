package scenario

import (
	"reflect"
	"strings"
	"testing"
)

// TestProvenanceSets: the -set flags Compare lists, applied to the
// preset, give the scenario back; edits no key names are flagged Other;
// the experiment block is not part of the comparison.
func TestProvenanceSets(t *testing.T) {
	const name = "seed/sched-idle-wakeup"
	base, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if p := ProvenanceOf(base); p.Modified() || p.Preset != name {
		t.Fatalf("the preset itself: %+v, want unmodified, preset %s", p, name)
	}
	sc, _ := Preset(name)
	for _, kv := range []string{"kernel.hz=1000", "features.SCHED_IDLE_NO_SLEEPER_CREDIT=on", "duration=1s"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	sc.Experiment.Runs = 2 // not configuration
	p := ProvenanceOf(sc)
	if p.Other || len(p.Sets) != 3 {
		t.Fatalf("sets %q other %v, want the three keys", p.Sets, p.Other)
	}
	back, _ := Preset(name)
	for _, kv := range p.Sets {
		if err := back.Set(kv); err != nil {
			t.Fatalf("%s: %v", kv, err)
		}
	}
	back.Experiment = sc.Experiment
	if string(back.Encode()) != string(sc.Encode()) {
		t.Fatalf("the preset with %q is not the scenario", p.Sets)
	}
	if got := p.SetFlags(); !strings.Contains(got, " -set kernel.hz=1000") || strings.Count(got, " -set ") != 3 {
		t.Errorf("flags %q, want three -set flags with kernel.hz=1000", got)
	}
	sc.Tasks[0].Nice = 5 // a task group's field: no key names it
	if p := ProvenanceOf(sc); !p.Other {
		t.Errorf("a task group's nice edited: Other false, want true")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"kernel.hz=1000": "kernel.hz=1000",
		"a b":            "'a b'",
		"it's":           `'it'\''s'`,
		"$(rm -rf x)":    "'$(rm -rf x)'",
		"":               "''",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProvenanceCleared: a key cleared to its default where the base
// gives it is a difference (undoable) that -set cannot say: not Exact,
// not Other.
func TestProvenanceCleared(t *testing.T) {
	base, err := Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	if err := base.Set("features.SCHED_IDLE_NO_SLEEPER_CREDIT=on"); err != nil {
		t.Fatal(err)
	}
	sc, _ := Decode(base.Encode())
	if err := sc.Clear("features.SCHED_IDLE_NO_SLEEPER_CREDIT"); err != nil {
		t.Fatal(err)
	}
	p := Compare(base, sc)
	if len(p.Diff) != 1 || len(p.Cleared) != 1 || p.Other || p.Exact() || len(p.Sets) != 0 {
		t.Fatalf("%+v: want one cleared key, not exact, nothing else", p)
	}
}

// TestShellFields: ShellFields undoes ShellQuote, whatever the word holds.
func TestShellFields(t *testing.T) {
	words := []string{"schedplay", "run", "-preset", "demo/periodic-vs-hog", "-set", "features.X=on",
		"it's", "two words", "", `back\slash`, "'", "a''b"}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = ShellQuote(w)
	}
	got, err := ShellFields(strings.Join(quoted, " "))
	if err != nil || !reflect.DeepEqual(got, words) {
		t.Fatalf("ShellFields(%s) = %q, %v; want %q", strings.Join(quoted, " "), got, err, words)
	}
	for _, bad := range []string{"run 'open", `run trailing\`} {
		if _, err := ShellFields(bad); err == nil {
			t.Errorf("ShellFields(%s): no error", bad)
		}
	}
}
