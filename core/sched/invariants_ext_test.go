//go:build invariants

package sched_test

// With -tags invariants the engine checks itself after every event and
// panics on a violation (invariants_on.go). This runs every preset under
// every kernel profile for 2s of simulated time so that those checks see a
// wide range of states; a panic is reported with the preset and profile.

import (
	"testing"

	"schedplay/core/sched"
)

func TestPresetsUnderEveryProfileWithInvariants(t *testing.T) {
	dur := 2 * sched.Second
	if testing.Short() {
		dur = 500 * sched.Millisecond
	}
	for _, name := range presetNames(t) {
		for _, k := range sched.ProfileNames() {
			t.Run(name+"/"+k, func(t *testing.T) {
				dur := presetDur(t, name, dur)
				cfg := presetConfig(t, name, k, dur)
				s, err := sched.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("invariant violated at %s: %v", s.Now(), p)
					}
				}()
				if err := s.Run(); err != nil {
					t.Fatalf("run failed: %v", err)
				}
				if s.Now() != dur {
					t.Fatalf("run ended at %s, want %s", s.Now(), dur)
				}
			})
		}
	}
}
