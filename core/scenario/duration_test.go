package scenario

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

func TestParseDurationExact(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Duration
	}{
		{"0", 0}, {"0s", 0}, {"1ns", 1}, {"16000ns", 16000},
		{"1.5ms", 1500000}, {"250us", 250000}, {"250µs", 250000}, {"1.5us", 1500},
		{"10s", 10e9}, {"1m30s", 90e9}, {"1h", 3600e9}, {"1h2m3s4ms5us6ns", 3723004005006},
		{"0.001s", 1e6}, {"1.000000001s", 1000000001}, {"1.0000000019s", 1000000001},
		{".5ms", 500000}, {"5.ms", 5000000}, {"0.1s", 1e8}, {"2.25m", 135e9},
		{"1000000000000ns", 1e12}, {"3600s", 3600e9}, {"1000000s", 1e15},
	} {
		got, err := ParseDuration("d", tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseDurationErrors(t *testing.T) {
	for _, in := range []string{
		"", "1", "1.5", "-1ms", "+1ms", "1e9s", "1E3ms", "s", "1.2.3s", "1 s", " 1s", "1s ",
		"1d", "1sec", "1MS", "0x10s", "1,5ms", "NaN", "inf", "1..5s", "..s",
		"10000000000000s",     // whole part over 1e12
		"1000000000.000001s",  // over 1e18 ns
		"9999999999999999999", // no unit
		"1000000000s1ns",      // over 1e18 ns
		"1s" + string(make([]byte, 70)),
	} {
		d, err := ParseDuration("tasks[0].start", in)
		if err == nil {
			t.Errorf("ParseDuration(%q) = %d, want an error", in, d)
			continue
		}
		if e := asError(t, in, err); e.Path != "tasks[0].start" {
			t.Errorf("ParseDuration(%q): path %q", in, e.Path)
		}
	}
}

// TestParseDurationOverflow checks that a number that overflows int64 when
// scaled by its unit is an error, not a wrapped-around value.
func TestParseDurationOverflow(t *testing.T) {
	for _, in := range []string{"18446744074s", "184467440738h", "307445734562m", "18446744073710ms"} {
		if d, err := ParseDuration("d", in); err == nil {
			t.Errorf("ParseDuration(%q) = %d (%s); want an out-of-range error", in, d, time.Duration(d))
		}
	}
}

// TestParseDurationMatchesGo checks random exact durations against the
// standard library's parser (the documented syntax is Go's).
func TestParseDurationMatchesGo(t *testing.T) {
	seed := uint64(20250101)
	r := rand.New(rand.NewPCG(seed, 0))
	units := []struct {
		name string
		frac int // fraction digits that stay exact in nanoseconds
	}{{"ns", 0}, {"us", 3}, {"µs", 3}, {"ms", 6}, {"s", 9}, {"m", 9}, {"h", 9}}
	for i := range 20000 {
		s := ""
		for range 1 + r.IntN(3) {
			u := units[r.IntN(len(units))]
			s += strconv.Itoa(r.IntN(1000))
			if n := r.IntN(u.frac + 1); n > 0 {
				s += "."
				for range n {
					s += strconv.Itoa(r.IntN(10))
				}
			}
			s += u.name
		}
		want, werr := time.ParseDuration(s)
		got, err := ParseDuration("d", s)
		if werr == nil && Duration(want) > MaxDurationValue {
			if err == nil {
				t.Fatalf("case %d: ParseDuration(%q) = %d, want an error above MaxDurationValue", i, s, got)
			}
			continue
		}
		if err != nil || werr != nil || int64(got) != int64(want) {
			t.Fatalf("case %d (seed %d): ParseDuration(%q) = %d, %v; time.ParseDuration = %d, %v\nreplay: go test -run TestParseDurationMatchesGo ./core/scenario/", i, seed, s, got, err, int64(want), werr)
		}
	}
}

// TestParseDurationSubNanosecond checks that fractions of a minute or an
// hour finer than a nanosecond truncate like time.ParseDuration does.
func TestParseDurationSubNanosecond(t *testing.T) {
	for _, s := range []string{"0.00000000015m", "0.000000000009h", "1.0000000000015m"} {
		want, _ := time.ParseDuration(s)
		if got, err := ParseDuration("d", s); err != nil || int64(got) != int64(want) {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", s, got, err, int64(want))
		}
	}
}

// TestParseDurationGreekMu checks the other spelling of micro that Go's
// duration syntax accepts (U+03BC, besides U+00B5).
func TestParseDurationGreekMu(t *testing.T) {
	if d, err := ParseDuration("d", "250\u03bcs"); err != nil || d != 250000 {
		t.Errorf("ParseDuration(250μs) = %d, %v", d, err)
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    Duration
		want string
	}{
		{0, "0s"}, {1, "1ns"}, {999, "999ns"}, {1000, "1us"}, {1500, "1.5us"}, {1001, "1.001us"},
		{250000, "250us"}, {1500000, "1.5ms"}, {16e6, "16ms"}, {1e9, "1s"}, {10e9, "10s"},
		{90e9, "90s"}, {1250e6, "1.25s"}, {1000001000, "1000.001ms"}, {1000000001, "1000000.001us"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%d) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestFormatParseRoundTrip is a property test: FormatDuration then
// ParseDuration gives back the value, for durations up to 1e15 ns.
func TestFormatParseRoundTrip(t *testing.T) {
	seed := uint64(7)
	r := rand.New(rand.NewPCG(seed, seed))
	check := func(d Duration) {
		s := FormatDuration(d)
		got, err := ParseDuration("d", s)
		if err != nil || got != d {
			t.Fatalf("seed %d: ParseDuration(FormatDuration(%d) = %q) = %d, %v\nreplay: go test -run TestFormatParseRoundTrip ./core/scenario/", seed, d, s, got, err)
		}
	}
	for d := Duration(0); d < 100000; d++ {
		check(d)
	}
	for range 200000 {
		// Random magnitudes, then random roundings to a unit.
		d := Duration(r.Int64N(1e15 + 1))
		d >>= r.IntN(50)
		switch r.IntN(4) {
		case 0:
			d -= d % 1000
		case 1:
			d -= d % 1000000
		case 2:
			d -= d % 1000000000
		}
		check(d)
	}
}

// TestFormatParseRoundTripLarge checks the round trip up to the bound
// MaxDurationValue, and that Decode rejects larger integers (they would
// overflow simulated time).
func TestFormatParseRoundTripLarge(t *testing.T) {
	for _, d := range []Duration{1e15, 1e15 - 1, 999999999999999, 123456789012345} {
		s := FormatDuration(d)
		if got, err := ParseDuration("d", s); err != nil || got != d {
			t.Errorf("ParseDuration(FormatDuration(%d) = %q) = %d, %v", d, s, got, err)
		}
	}
	sc, err := Decode([]byte(doc("", task("a", "", `{"run":"1ms"},{"sleep":1000000000000000}`))))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	if _, err := Decode([]byte(doc("", task("a", "", `{"run":"1ms"},{"sleep":1000000000000001}`)))); err == nil {
		t.Error("a sleep over MaxDurationValue decoded")
	}
}
