package sched_test

// features.X on a profile that does not read it is refused
// (feature_versions.go). These tests check the ranges against two
// independent sources: the toggles really are not read outside their range
// (the same event stream with the toggle flipped, which is why the old
// silent acceptance was wrong), and they are read inside it.

import (
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// flipHash runs preset under kernel for dur with feature f forced on or off
// and returns the event stream's hash.
func flipHash(t *testing.T, preset, kernel string, dur sched.Time, f sched.Feature, on bool, sets []string) string {
	t.Helper()
	sc, err := scenario.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	sc.Kernel.Version, sc.Duration = kernel, dur
	for _, kv := range sets {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Profile.Features = cfg.Profile.Features.With(f, on) // as the old code did
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHashSink()
	s.Attach(h)
	s.RunUntil(dur)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return h.sum()
}

func TestFeatureRangesMatchWhatIsRead(t *testing.T) {
	kb := []string{"tasks.job.instances=10", "features.SCHED_CLUSTER=on"}
	cases := []struct {
		f      sched.Feature
		preset string
		// in: a profile that reads f (flipping it changes the run);
		// out: one that does not (the run is identical).
		in, out string
		sets    []string
	}{
		{sched.HybridClusterSeries, "demo/cluster-hybrid-equal-jobs", "v6.6", "v5.8", kb},
		{sched.HybridClusterSeries, "demo/cluster-hybrid-equal-jobs", "v6.6", "v3.11", kb},
		{sched.SISUtil, "demo/hackbench", "v6.6", "v5.8", nil},
		{sched.SchedIdleNoSleeperCredit, "seed/sched-idle-wakeup", "v5.8", "v6.18", nil},
		{sched.GentleFairSleepers, "seed/sched-idle-wakeup", "v5.8", "v6.12", nil},
		{sched.PlaceLag, "demo/periodic-vs-hog", "v6.6", "v5.8", nil},
	}
	const dur = 500 * sched.Millisecond
	for _, c := range cases {
		if !c.f.AppliesTo(version(t, c.in)) || c.f.AppliesTo(version(t, c.out)) {
			t.Fatalf("%s: want it read by %s and not by %s", c.f, c.in, c.out)
		}
		if flipHash(t, c.preset, c.in, dur, c.f, false, c.sets) == flipHash(t, c.preset, c.in, dur, c.f, true, c.sets) {
			t.Errorf("%s on %s (%s): flipping it changed nothing, so the profile may not read it", c.f, c.in, c.preset)
		}
		if flipHash(t, c.preset, c.out, dur, c.f, false, c.sets) != flipHash(t, c.preset, c.out, dur, c.f, true, c.sets) {
			t.Errorf("%s on %s (%s): flipping it changed the run, so the profile reads it and must accept it", c.f, c.out, c.preset)
		}
	}
}

func version(t *testing.T, name string) int {
	t.Helper()
	p, err := sched.ProfileByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.Version()
}

// TestFeatureDefaultsApply: a profile's own defaults are features it has.
func TestFeatureDefaultsApply(t *testing.T) {
	for _, p := range sched.Profiles() {
		for _, f := range sched.Features() {
			if p.Features.Has(f) {
				if err := p.CheckFeature(f); err != nil {
					t.Errorf("%s enables %s by default but refuses it: %v", p.Name, f, err)
				}
			}
		}
	}
}
