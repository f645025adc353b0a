package sched_test

// Metamorphic determinism (style.md #7): the same configuration gives the
// same event stream, byte for byte, however the run is cut into RunUntil
// calls or Step()s, and whether or not other consumers (the metrics
// collector) listen. Without any sink the engine must still do exactly the
// same work.

import (
	"fmt"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

type driver struct {
	name  string
	drive func(s *sched.Sim)
}

func chunked(d sched.Time) driver {
	return driver{fmt.Sprintf("chunks of %s", d), func(s *sched.Sim) {
		for t := d; !s.Done(); t += d {
			s.RunUntil(t)
		}
	}}
}

var (
	oneCall  = driver{"one call", func(s *sched.Sim) { s.RunUntil(s.Config().Duration) }}
	stepLoop = driver{"Step loop", func(s *sched.Sim) {
		for s.Step() {
		}
	}}
)

type runResult struct {
	hash   string
	events int64 // engine events
	sunk   int   // events emitted
	err    error
}

func runPreset(t *testing.T, cfg sched.Config, d driver, withMetrics, withHash bool) runResult {
	t.Helper()
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var hs *hashSink
	if withHash {
		hs = newHashSink()
		s.Attach(hs)
	}
	var col *metrics.Collector
	if withMetrics {
		col = metrics.New(s.NumCPUs())
		s.Attach(col)
	}
	d.drive(s)
	if !s.Done() || s.Now() != cfg.Duration {
		t.Fatalf("%s: run stopped at %s (done=%v), want %s", d.name, s.Now(), s.Done(), cfg.Duration)
	}
	r := runResult{events: s.EventsProcessed(), err: s.Err()}
	if hs != nil {
		r.hash, r.sunk = hs.sum(), hs.n
	}
	return r
}

func TestDeterminismAcrossDrivers(t *testing.T) {
	dur := sched.Second
	if testing.Short() {
		dur = 20 * sched.Millisecond // make check: every preset and driver, a shorter run
	}
	for _, name := range presetNames(t) {
		t.Run(name, func(t *testing.T) {
			cfg := presetConfig(t, name, "", presetDur(t, name, dur))
			want := runPreset(t, cfg, oneCall, false, true)
			if want.err != nil {
				t.Fatalf("run failed: %v", want.err)
			}
			if want.sunk < 10 {
				t.Fatalf("only %d events in %s: the comparison would prove nothing", want.sunk, dur)
			}
			for _, d := range []driver{oneCall, stepLoop, chunked(sched.Microsecond), chunked(sched.Millisecond),
				chunked(7 * sched.Millisecond), chunked(333 * sched.Millisecond)} {
				for _, m := range []bool{false, true} {
					got := runPreset(t, cfg, d, m, true)
					if got != want {
						t.Errorf("%s (metrics=%v): hash %s, %d engine events, %d emitted; one call without metrics: %s, %d, %d",
							d.name, m, got.hash, got.events, got.sunk, want.hash, want.events, want.sunk)
					}
				}
			}
			// No consumer at all: the engine does the same work.
			if got := runPreset(t, cfg, oneCall, false, false); got.events != want.events || got.err != want.err {
				t.Errorf("without sinks: %d engine events (err %v), want %d", got.events, got.err, want.events)
			}
		})
	}
}

func TestDeterminismNanosecondSteps(t *testing.T) {
	// RunUntil(t) for every nanosecond of a short run.
	const dur = 3 * sched.Millisecond
	for _, name := range presetNames(t) {
		t.Run(name, func(t *testing.T) {
			cfg := presetConfig(t, name, "", dur)
			want := runPreset(t, cfg, oneCall, false, true)
			got := runPreset(t, cfg, chunked(sched.Nanosecond), false, true)
			if got != want {
				t.Errorf("1ns steps: hash %s (%d events), one call: %s (%d events)", got.hash, got.sunk, want.hash, want.sunk)
			}
		})
	}
}

func TestDeterminismAcrossProfiles(t *testing.T) {
	// Two independent runs of the same config agree under every profile
	// (no hidden global state, no map-order leaks).
	dur := 300 * sched.Millisecond
	if testing.Short() {
		dur = 20 * sched.Millisecond // make check: every preset and profile, a shorter run
	}
	for _, name := range presetNames(t) {
		for _, k := range sched.ProfileNames() {
			cfg := presetConfig(t, name, k, presetDur(t, name, dur))
			a := runPreset(t, cfg, oneCall, false, true)
			b := runPreset(t, cfg, chunked(sched.Millisecond), true, true)
			if a != b {
				t.Errorf("%s under %s: %s vs %s", name, k, a.hash, b.hash)
			}
		}
	}
}
