package main

// The kernel panel's feature rows follow the profile: a feature the
// profile does not read is disabled and names the profiles that do.

import (
	"testing"

	"schedplay/core/scenario"
)

func TestKnobsFeatureRowsFollowProfile(t *testing.T) {
	sc, err := scenario.Preset("seed/cluster-hybrid")
	if err != nil {
		t.Fatal(err)
	}
	row := func(c *Knobs, name string) FeatureRow {
		for _, r := range c.features() {
			if r.Name == name {
				return r
			}
		}
		t.Fatalf("no row %s", name)
		return FeatureRow{}
	}
	c := &Knobs{App: &App{Sc: sc}}
	if r := row(c, "HYBRID_CLUSTER_SERIES"); !r.Applies || !r.On || r.Only != "" {
		t.Errorf("v6.6: %+v", r)
	}
	if r := row(c, "GENTLE_FAIR_SLEEPERS"); r.Applies || r.Only != "v3.11, v5.8 only" {
		t.Errorf("v6.6 GENTLE_FAIR_SLEEPERS: %+v", r)
	}
	sc.Kernel.Version = "v5.8"
	sc.Features["HYBRID_CLUSTER_SERIES"] = true // left from v6.6
	if r := row(c, "HYBRID_CLUSTER_SERIES"); r.Applies || r.On || !r.Overridden || r.Only != "v6.6, v6.12, v6.18 only" {
		t.Errorf("v5.8: %+v", r)
	}
}
