package scenario

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// fuzzLimits bound the runs of fuzzed scenarios (tight enough that
// `-tags invariants -race` stays fast: the invariant checks are linear in
// the number of tasks).
func fuzzLimits() sched.Limits {
	lim := sched.DefaultLimits()
	lim.MaxEvents = 1_000_000
	lim.MaxTasks = 1000
	return lim
}

// hugeDuration reports whether a program of sc holds a duration above
// 1e15 ns, which Encode cannot render readably (see
// TestFormatParseRoundTripLarge).
func hugeDuration(sc *Scenario) bool {
	var walk func([]Step) bool
	walk = func(steps []Step) bool {
		for _, st := range steps {
			switch {
			case st.Run > 1e15, st.Sleep > 1e15, st.Timer != nil && st.Timer.Period > 1e15:
				return true
			case st.Loop != nil && walk(st.Loop.Program):
				return true
			}
		}
		return false
	}
	for _, t := range sc.Tasks {
		if walk(t.Program) {
			return true
		}
	}
	return false
}

// checkDecoded is what every successfully decoded scenario must satisfy:
// Encode round-trips it, and it builds and runs 1 ms without panicking.
func checkDecoded(t *testing.T, sc *Scenario) {
	js := sc.Encode()
	back, err := Decode(js)
	if err != nil {
		t.Fatalf("Decode(Encode(sc)) = %v\n%s", err, js)
	}
	if !reflect.DeepEqual(back, sc) {
		t.Fatalf("round trip changed the scenario:\n got %#v\nwant %#v", back, sc)
	}
	if js2 := back.Encode(); string(js2) != string(js) {
		t.Fatalf("Encode not canonical:\n%s\n%s", js, js2)
	}
	cfg, err := sc.Build(fuzzLimits())
	if err != nil {
		return
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatalf("Build succeeded but sched.New failed: %v\n%s", err, js)
	}
	sim.RunUntil(sched.Millisecond)
}

func addPresetSeeds(f *testing.F, add func(sc *Scenario)) {
	for _, p := range Presets() {
		sc, err := Preset(p.Name)
		if err != nil {
			f.Fatal(err)
		}
		add(sc)
	}
	for _, h := range handWritten {
		sc, err := Decode([]byte(h.json))
		if err != nil {
			f.Fatal(err)
		}
		add(sc)
	}
}

// FuzzDecode: no input panics; what decodes round-trips and runs.
func FuzzDecode(f *testing.F) {
	addPresetSeeds(f, func(sc *Scenario) { f.Add(sc.Encode()) })
	f.Add([]byte(`{"version":1,"cgroups":{"/` + strings.Repeat("c", 40<<10) + `":{}},"tasks":[]}`))
	f.Add([]byte(`{"version":1,"tasks":[{"name":"t","program":[{"` + strings.Repeat("k", 40<<10) + `":1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Decode(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode error %T %v is not a *scenario.Error", err, err)
			}
			if len(err.Error()) > maxErrBytes {
				t.Fatalf("Decode error of %d bytes (quotes are bounded: core/quote): %.300s...", len(err.Error()), err)
			}
			return
		}
		checkDecoded(t, sc)
	})
}

// FuzzDecodeURL: no URL panics; what decodes re-encodes to an equal
// scenario.
func FuzzDecodeURL(f *testing.F) {
	addPresetSeeds(f, func(sc *Scenario) { f.Add("https://schedplay.github.io/#s=" + EncodeURLPayload(sc)) })
	f.Add("https://schedplay.github.io/#" + strings.Repeat("f", 40<<10))
	f.Fuzz(func(t *testing.T, u string) {
		sc, err := DecodeURL(u)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("DecodeURL error %T %v is not a *scenario.Error", err, err)
			}
			if len(err.Error()) > maxErrBytes {
				t.Fatalf("DecodeURL error of %d bytes (quotes are bounded: core/quote): %.300s...", len(err.Error()), err)
			}
			return
		}
		if !hugeDuration(sc) {
			back, err := DecodeURL("#s=" + EncodeURLPayload(sc))
			if err != nil || !reflect.DeepEqual(back, sc) {
				t.Fatalf("share URL round trip: %v\n%s", err, sc.Encode())
			}
		}
		checkDecoded(t, sc)
	})
}
