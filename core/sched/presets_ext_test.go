package sched_test

// Helpers shared by the external tests, which run the built-in scenarios
// (package scenario imports sched, so these live in package sched_test).

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// presetConfig builds the named preset, optionally under another kernel
// profile and for another duration (0 keeps the preset's).
func presetConfig(t testing.TB, name, kernel string, dur sched.Time) sched.Config {
	t.Helper()
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if kernel != "" {
		sc.Kernel.Version = kernel
	}
	if dur > 0 {
		sc.Duration = dur
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatalf("preset %s: %v", name, err)
	}
	return cfg
}

// densePresets have an event every microsecond or so (pipe ping-pong,
// hackbench, cyclictest at 100 us under a hackbench load);
// the whole-preset runs below keep them to the preset's own (short)
// duration so that the race-detector build stays within the test timeout.
var densePresets = map[string]bool{"demo/pipe-pingpong": true, "demo/pipe-pingpong-cross": true,
	"seed/nohz-pipe": true, "seed/sm-idle-ipistorm": true,
	"demo/cyclictest-hackbench": true, "demo/hackbench": true}

// denseCap bounds the whole-preset runs of the dense seed presets, whose
// own durations cover the thread's full counts (seconds of events every
// few hundred ns); core/experiment's seed tests run them to completion.
const denseCap = 50 * sched.Millisecond

// bigPresets simulate a large machine under a dense load (144 CPUs, a
// timer per CPU each millisecond): the whole-preset runs keep them to
// 5 ms; their own tests run them longer.
var bigPresets = map[string]bool{"seed/newidle-rt-latency": true}

// presetDur is dur, or for a dense preset the shorter of dur and the
// preset's duration.
func presetDur(t testing.TB, name string, dur sched.Time) sched.Time {
	t.Helper()
	if bigPresets[name] {
		return min(dur, 5*sched.Millisecond)
	}
	if !densePresets[name] {
		return dur
	}
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if raceEnabled {
		return min(dur, sc.Duration, 5*sched.Millisecond)
	}
	if sc.Experiment != nil {
		return min(dur, sc.Duration, denseCap)
	}
	return min(dur, sc.Duration)
}

func presetNames(t testing.TB) []string {
	var out []string
	for _, p := range scenario.Presets() {
		out = append(out, p.Name)
	}
	if len(out) == 0 {
		t.Fatal("no presets")
	}
	return out
}

// hashSink hashes the Describe() line of every event.
type hashSink struct {
	h hash.Hash
	n int
}

func newHashSink() *hashSink { return &hashSink{h: sha256.New()} }

func (k *hashSink) Event(e *sched.Event) {
	k.h.Write([]byte(e.Describe()))
	k.h.Write([]byte{'\n'})
	k.n++
}

func (k *hashSink) sum() string { return hex.EncodeToString(k.h.Sum(nil))[:16] }
