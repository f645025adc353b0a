package sched_test

import (
	"testing"

	"schedplay/core/sched"
)

// TestDomainCacheSameRuns: every preset gives the same event stream, byte
// for byte, whether its run builds its sched domain tree or takes it from a
// cache that earlier runs (of other presets, and of itself, whose balancing
// wrote its own copy of the tree) filled.
func TestDomainCacheSameRuns(t *testing.T) {
	dc := sched.NewDomainCache()
	run := func(cfg sched.Config, dc *sched.DomainCache) string {
		s, err := sched.NewCached(cfg, dc)
		if err != nil {
			t.Fatal(err)
		}
		h := newHashSink()
		s.Attach(h)
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		return h.sum()
	}
	for _, name := range presetNames(t) {
		cfg := presetConfig(t, name, "", presetDur(t, name, 20*sched.Millisecond))
		want := run(cfg, nil)
		for k := range 2 {
			if got := run(cfg, dc); got != want {
				t.Fatalf("%s: run %d with the cache: events %s, built: %s", name, k+1, got, want)
			}
		}
	}
	h, m := dc.Stats()
	if h == 0 || m == 0 {
		t.Errorf("hits %d, misses %d: the test exercised only one path", h, m)
	}
	t.Logf("%d presets; the cache: %d hits, %d misses", len(presetNames(t)), h, m)
}
