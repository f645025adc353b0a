package scenario

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/quote"
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
			checkInputErr(t, "Decode", err)
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
			checkInputErr(t, "DecodeURL", err)
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

// checkInputErr fails unless err is a bounded, escaped *scenario.Error.
func checkInputErr(t *testing.T, what string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %T %v is not a *scenario.Error", what, err, err)
	}
	if msg := err.Error(); len(msg) > maxErrBytes || quote.Raw(msg) {
		t.Fatalf("%s: error of %d bytes, want at most %d escaped (core/quote): %.300q", what, len(msg), maxErrBytes, msg)
	}
}

// FuzzSet: no -set KEY=VALUE (scenario keys, cgroup interface files,
// workload parameters) panics; an error is a bounded *scenario.Error;
// Set checks one key, so the scenario's cross-field checks run at Build,
// whose error is bounded too, and a scenario that builds round-trips
// and runs.
// go test ./core/scenario -run '^$' -fuzz FuzzSet -fuzztime 60s
func FuzzSet(f *testing.F) {
	for _, kv := range []string{
		"kernel.hz=250", "kernel.version=v5.8", "kernel.preempt=lazy", "features.PLACE_LAG=off",
		"sysctl.sched_latency_ns=6000000", "hw.smt=off", "hw.idle_disable=C2,C3", "duration=20ms", "seed=7",
		"topology=alderlake-6p8e", "tasks.t.nice=5", "tasks.t.policy=SCHED_FIFO", "tasks.t.cpus=0-1",
		"tasks.t.cgroup=/A", "cgroups./A.cpu.weight=50", "cgroups./A.cpu.max=25000 100000",
		"cgroups./A.cpu.max=max 100000", "cgroups./A/B.cpuset.cpus=0-3,8", "cgroups./A.cpuset.cpus.partition=root",
		"cgroups./A.cpu.idle=1", "cgroups./A.cpu.max.burst=1000", "workloads.w.kind=hackbench",
		"workloads.w.groups=2", "kernel.autogroup=on", "tasks.t.autogroup_nice=3", "=1", "a=", "tasks..nice=1",
		"cgroups./" + strings.Repeat("c", 200) + ".cpu.weight=1", "tasks.t.nice=\x00\n<b>",
	} {
		f.Add(kv)
	}
	base := []byte(`{"version":1,"name":"set","topology":"smp-2","duration":"5ms","cgroups":{"/A":{"cpu.weight":"100"}},` +
		`"tasks":[{"name":"t","program":[{"run":"1ms"},{"sleep":"1ms"}]}]}`)
	f.Fuzz(func(t *testing.T, kv string) {
		sc, err := Decode(base)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.Set(kv); err != nil {
			checkInputErr(t, "Set", err)
			return
		}
		if _, err := sc.Build(fuzzLimits()); err != nil {
			if msg := err.Error(); len(msg) > maxErrBytes || quote.Raw(msg) {
				t.Fatalf("Build after -set: error of %d bytes: %.300q", len(msg), msg)
			}
			return
		}
		checkDecoded(t, sc)
	})
}

// FuzzParseDuration: no duration string panics; an error is bounded; a
// duration parsed prints (FormatDuration) as a string that parses back
// to it.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"10ms", "1.5s", "250us", "0", "1h", "-1ms", "1e3ms", "9223372036854775807ns", "1µs", "ms", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration("duration", s)
		if err != nil {
			checkInputErr(t, "ParseDuration", err)
			return
		}
		back, err := ParseDuration("duration", FormatDuration(d))
		if err != nil || back != d {
			t.Fatalf("ParseDuration(%q) = %d, printed %q, parsed back %d (%v)", s, d, FormatDuration(d), back, err)
		}
	})
}
