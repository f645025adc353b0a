package experiment

// PlanLazy against Plan: the same jobs (configuration, seed, groups) in
// the same order, each built job measuring what Plan's measures, only the
// configurations' first jobs built up front, and bad input failing at
// planning with Plan's message.

import (
	"reflect"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func TestPlanLazyIsPlan(t *testing.T) {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 50 * sched.Millisecond
	cfgs := ThreadConfigs(sc.Experiment)
	eager, err := Plan(sc, "x", cfgs, 3)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := PlanLazy(sc, "x", cfgs, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(lazy.Jobs) != len(eager) {
		t.Fatalf("%d lazy jobs, %d planned", len(lazy.Jobs), len(eager))
	}
	for i, e := range eager {
		l := lazy.Jobs[i]
		if l.Config != e.Config || l.Seed != e.Seed || l.Name != e.Name || !reflect.DeepEqual(l.Groups, e.Groups) {
			t.Fatalf("job %d: lazy %+v, planned %+v", i, l, e)
		}
		if built := lazy.built[i]; built != (i%3 == 0) {
			t.Fatalf("job %d built %v before Build", i, built)
		}
		j, err := lazy.Build(i)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Execute(j)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Execute(e)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(Measure(a), Measure(b)) {
			t.Fatalf("job %d measures differently built lazily", i)
		}
		lazy.Release(i)
		if lazy.built[i] != (i%3 == 0) {
			t.Fatalf("job %d: built %v after Release", i, lazy.built[i])
		}
	}
	if MaxCPUs(lazy.Jobs) != MaxCPUs(eager) || lazy.Proto(4).Cfg.Duration != eager[4].Cfg.Duration {
		t.Fatal("the configurations' first jobs do not give the plan's machine and duration")
	}
	bad := []Config{{Label: "A", Flag: "-a", Sets: []string{"kernel.hz=123"}}}
	_, errE := Plan(sc, "x", bad, 2)
	_, errL := PlanLazy(sc, "x", bad, 2)
	if errE == nil || errL == nil || errE.Error() != errL.Error() {
		t.Fatalf("bad input: Plan %v, PlanLazy %v", errE, errL)
	}
}

// TestDescribedIsPlan: Described gives every job the machine and duration
// Plan builds for it, with configurations on different machines, and
// leaves the plan's unbuilt jobs unbuilt.
func TestDescribedIsPlan(t *testing.T) {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 20 * sched.Millisecond
	cfgs := []Config{{Label: "A", Flag: "-a", Sets: []string{"topology=smp-4"}},
		{Label: "B", Flag: "-b", Sets: []string{"topology=smp-8", "duration=30ms"}}}
	eager, err := Plan(sc, "x", cfgs, 3)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := PlanLazy(sc, "x", cfgs, 3)
	if err != nil {
		t.Fatal(err)
	}
	d := lazy.Described()
	for i, e := range eager {
		if d[i].Config != e.Config || d[i].Seed != e.Seed || d[i].Cfg.Machine.NumCPUs() != e.Cfg.Machine.NumCPUs() || d[i].Cfg.Duration != e.Cfg.Duration {
			t.Fatalf("job %d described with %d CPUs for %v, planned %d CPUs for %v", i,
				d[i].Cfg.Machine.NumCPUs(), d[i].Cfg.Duration, e.Cfg.Machine.NumCPUs(), e.Cfg.Duration)
		}
		if lazy.built[i] != (i%3 == 0) {
			t.Fatalf("job %d built %v after Described", i, lazy.built[i])
		}
	}
	if MaxCPUs(d) != 8 || d[5].Cfg.Duration != 30*sched.Millisecond {
		t.Fatalf("described: %d CPUs at most, last job's duration %v", MaxCPUs(d), d[5].Cfg.Duration)
	}
}
