package main

// The gallery's cards and the A/B toggles' scenarios, on the host.

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func TestGalleryCardsSeedFirst(t *testing.T) {
	cards := galleryCards(scenario.Presets())
	if len(cards) != len(scenario.Presets()) {
		t.Fatalf("%d cards for %d presets", len(cards), len(scenario.Presets()))
	}
	seen := false
	for i, c := range cards {
		isSeed := c.Thread != "" || c.Seed
		if i > 0 && isSeed && !(cards[i-1].Thread != "" || cards[i-1].Seed) {
			t.Fatalf("seed card %s after a demo", c.Name)
		}
		if c.Name == "seed/sched-idle-wakeup" {
			seen = true
			if i != 0 && !strings.HasPrefix(cards[0].Name, "seed/") {
				t.Fatal("the seed presets do not come first")
			}
			if !strings.Contains(c.Thread, "SCHED_IDLE") || c.Date != "2020-08" || c.Kind != "emergent" ||
				strings.Join(c.Configs, "|") != "v5.8|v5.8 + patch" {
				t.Fatalf("card %+v", c)
			}
		}
	}
	if !seen {
		t.Fatal("no card for seed/sched-idle-wakeup")
	}
}

func TestABScenario(t *testing.T) {
	base, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	base.Experiment.Variants = []scenario.ExpConfig{{Name: "small", Set: []string{"topology=smp-4"}}, {Name: "big", Set: []string{"topology=smp-64"}}}
	for i := range base.Experiment.Reference {
		base.Experiment.Reference[i].Variant = "small"
	}
	for _, tc := range []struct {
		variant, cfg int
		topo         string
		feature      bool
	}{{0, 0, "smp-4", false}, {1, 1, "smp-64", true}} {
		sc, err := abScenario(base, tc.variant, tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Topology != tc.topo || sc.Features["SCHED_IDLE_NO_SLEEPER_CREDIT"] != tc.feature {
			t.Fatalf("variant %d config %d: topology %s, features %v", tc.variant, tc.cfg, sc.Topology, sc.Features)
		}
		if sc.Duration != 2*sched.Second || sc.Experiment == nil {
			t.Fatal("the rest of the scenario changed")
		}
	}
	if base.Topology != "smp-8" || len(base.Features) != 0 {
		t.Fatalf("the base was modified: %s %v", base.Topology, base.Features)
	}
	if _, err := abScenario(base, 2, 0); err == nil {
		t.Fatal("variant 2 of 2 accepted")
	}
}
