package scenario

import (
	"sort"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestPresetsRun checks that every preset decodes, validates, builds and
// runs 100 ms of simulated time.
func TestPresetsRun(t *testing.T) {
	ps := Presets()
	if len(ps) == 0 {
		t.Fatal("no presets")
	}
	if !sort.SliceIsSorted(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name }) {
		t.Errorf("Presets() not in name order: %v", ps)
	}
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			sc := mustPreset(t, p.Name)
			if sc.Name != p.Name {
				t.Errorf("preset file %s has name %q", p.Name, sc.Name)
			}
			if p.Description == "" || p.Description != sc.Description {
				t.Errorf("description %q (listed %q)", sc.Description, p.Description)
			}
			if err := sc.Validate(); err != nil {
				t.Fatal(err)
			}
			if err := sc.Set("duration=100ms"); err != nil {
				t.Fatal(err)
			}
			cfg, err := sc.Build(sched.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			sim, err := sched.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.Run(); err != nil {
				t.Fatal(err)
			}
			if !sim.Done() || sim.Now() != 100*sched.Millisecond {
				t.Errorf("run ended at %s (done %v), want 100ms", sim.Now(), sim.Done())
			}
			if sim.EventsProcessed() == 0 {
				t.Error("no events processed")
			}
		})
	}
}

func TestPresetUnknown(t *testing.T) {
	for _, name := range []string{"nope", "demo/nope", "", "../decode.go", "demo/../demo/nice-shares"} {
		_, err := Preset(name)
		if err == nil {
			t.Errorf("Preset(%q) succeeded", name)
			continue
		}
		if !strings.Contains(err.Error(), "unknown preset") || !strings.Contains(err.Error(), "demo/nice-shares") {
			t.Errorf("Preset(%q) = %v; want the known names listed", name, err)
		}
	}
}

// TestPresetFresh checks that Preset returns a new copy each time.
func TestPresetFresh(t *testing.T) {
	a := mustPreset(t, "demo/nice-shares")
	a.Tasks[0].Nice = 7
	a.Features["PLACE_LAG"] = false
	if b := mustPreset(t, "demo/nice-shares"); b.Tasks[0].Nice != 0 || len(b.Features) != 0 {
		t.Errorf("a change to one Preset result leaked into the next")
	}
}
