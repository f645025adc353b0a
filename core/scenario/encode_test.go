package scenario

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestEncodeRoundTripPresets(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			roundTrip(t, mustPreset(t, p.Name))
		})
	}
}

func TestEncodeRoundTripRandom(t *testing.T) {
	seed := uint64(1)
	r := rand.New(rand.NewPCG(seed, 42))
	for i := range 1000 {
		sc := randScenario(r)
		if err := sc.Validate(); err != nil {
			t.Fatalf("case %d (seed %d): generator made an invalid scenario: %v\n%s", i, seed, err, sc.Encode())
		}
		roundTrip(t, sc)
	}
}

// TestEncodeCanonical checks that Encode is a pure function of the scenario
// (no map order), that it is a fixed point of Decode, and that keys come in
// the documented order.
func TestEncodeCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for range 300 {
		sc := randScenario(r)
		a := sc.Encode()
		for range 5 {
			if b := sc.Encode(); !bytes.Equal(a, b) {
				t.Fatalf("Encode not stable:\n%s\n%s", a, b)
			}
		}
		back, err := Decode(a)
		if err != nil {
			t.Fatal(err)
		}
		if b := back.Encode(); !bytes.Equal(a, b) {
			t.Fatalf("Encode(Decode(Encode(sc))) differs:\n%s\n%s", a, b)
		}
		if !json.Valid(a) {
			t.Fatalf("Encode is not valid JSON: %s", a)
		}
	}
	sc := New()
	sc.Name = "n"
	for _, kv := range []string{"features.RUN_TO_PARITY=off", "features.PLACE_LAG=on", "sysctl.sched_min_granularity_ns=1000000",
		"sysctl.sched_base_slice_ns=3000000", "kernel.hz=1000", "kernel.preempt=full"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	sc.Tasks = []Task{{Name: "a", Instances: 2, Nice: 1, CPUs: []int{0}, Loop: -1, Program: []Step{{Kind: "run", Run: 1500000}}}}
	want := `{"version":1,"name":"n","topology":"smp-1","kernel":{"version":"v6.18","hz":1000,"preempt":"full"},` +
		`"features":{"PLACE_LAG":"on","RUN_TO_PARITY":"off"},"sysctl":{"sched_base_slice_ns":3000000,"sched_min_granularity_ns":1000000},` +
		`"duration":"1s","seed":1,"tasks":[{"name":"a","instances":2,"nice":1,"cpus":[0],"loop":-1,"program":[{"run":"1.5ms"}]}]}`
	if got := string(sc.Encode()); got != want {
		t.Errorf("Encode:\n got %s\nwant %s", got, want)
	}
}

// TestEncodeEscapes checks that names and descriptions with quotes,
// control characters and non-ASCII survive.
func TestEncodeEscapes(t *testing.T) {
	sc := mustPreset(t, "demo/nice-shares")
	sc.Name = "a\"b\\c\n\x00</script>\u2028é"
	sc.Description = strings.Repeat("ü", 100)
	roundTrip(t, sc)
}
