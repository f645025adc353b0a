package experiment

// ExecuteCached against Execute: the jobs of every seed preset's thread
// experiment (each configuration's first two seeds, cut short) measure the
// same values, bit for bit, with one sched domain cache shared by all of
// them as each building its own tree.

import (
	"math"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func TestExecuteCachedIsExecute(t *testing.T) {
	dc := sched.NewDomainCache()
	presets := 0
	for _, p := range scenario.Presets() {
		if !strings.HasPrefix(p.Name, "seed/") {
			continue
		}
		sc, err := scenario.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Experiment == nil {
			continue
		}
		presets++
		sc.Duration = min(sc.Duration, 20*sched.Millisecond)
		plan, err := PlanLazy(sc, p.Name, ThreadConfigs(sc.Experiment), 2)
		if err != nil {
			t.Fatal(err)
		}
		for i := range plan.Jobs {
			j, err := plan.Build(i)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Execute(j)
			if err != nil {
				t.Fatalf("%s job %d: %v", p.Name, i, err)
			}
			b, err := ExecuteCached(j, dc)
			if err != nil {
				t.Fatalf("%s job %d, cached: %v", p.Name, i, err)
			}
			va, vb := Measure(a), Measure(b)
			if len(va) != len(vb) {
				t.Fatalf("%s job %d: %d values built, %d cached", p.Name, i, len(va), len(vb))
			}
			for k, x := range va {
				if y, ok := vb[k]; !ok || math.Float64bits(x) != math.Float64bits(y) {
					t.Fatalf("%s job %d: %s = %v built, %v cached", p.Name, i, k, x, y)
				}
			}
			plan.Release(i)
		}
	}
	if h, _ := dc.Stats(); presets == 0 || h == 0 {
		t.Fatalf("%d presets with an experiment, %d cache hits", presets, h)
	}
}
