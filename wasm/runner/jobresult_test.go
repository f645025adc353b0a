package runner

import (
	"math"
	"strings"
	"testing"

	"schedplay/core/experiment"
)

// TestJobResultRoundTrip: values come back bit for bit (NaN, infinities,
// negative zero, subnormals), keys and places with any byte, and the same
// values give the same bytes whatever the map's order.
func TestJobResultRoundTrip(t *testing.T) {
	v := experiment.Values{
		"latency p99 (us)": 12.5, "nan": math.NaN(), "+inf": math.Inf(1), "-inf": math.Inf(-1),
		"-0": math.Copysign(0, -1), "tiny": math.SmallestNonzeroFloat64, "": 1,
		"odd: 3:x \"quoted\"\n\ttabs é": -7e300,
	}
	where := "topology a:b 3:c, kernel v6.6"
	s := encodeJobResult(v, where)
	for range 5 {
		if again := encodeJobResult(v, where); again != s {
			t.Fatalf("two encodings of the same values differ:\n%q\n%q", s, again)
		}
	}
	got, gw, err := decodeJobResult(s)
	if err != nil {
		t.Fatal(err)
	}
	if gw != where || len(got) != len(v) {
		t.Fatalf("decoded %d values on %q, want %d on %q", len(got), gw, len(v), where)
	}
	for k, x := range v {
		if y, ok := got[k]; !ok || math.Float64bits(x) != math.Float64bits(y) {
			t.Errorf("%q: %v decoded as %v", k, x, y)
		}
	}
	empty := encodeJobResult(nil, "")
	if e, w, err := decodeJobResult(empty); err != nil || len(e) != 0 || w != "" {
		t.Errorf("no values: %v %q %v", e, w, err)
	}
}

// TestJobResultBadInput: a damaged result is an error saying where, never
// a panic or a partial result.
func TestJobResultBadInput(t *testing.T) {
	good := encodeJobResult(experiment.Values{"a": 1, "bb": 2}, "topology x, kernel y")
	bad := []string{"", "{}", `{"v":{"a":1}}`, "r1 ", "r1 5:abc", "r1 3:abc x", "r1 3:abc 2 1:a00", good + "0", good[:len(good)-1],
		strings.Replace(good, "2 ", "3 ", 1), strings.Replace(good, "1:a", "9:a", 1), "r1 0: -1 ", "r1 0: 99999999999999999999 "}
	for i := range good {
		bad = append(bad, good[:i])
	}
	for _, s := range bad {
		if v, _, err := decodeJobResult(s); err == nil {
			t.Errorf("%q decoded as %v", s, v)
		} else if !strings.HasPrefix(err.Error(), "job result") {
			t.Errorf("%q: error %q does not say it is the job result", s, err)
		}
	}
}
