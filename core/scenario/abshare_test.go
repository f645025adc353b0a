package scenario

import (
	"strings"
	"testing"

	"schedplay/core/quote"
)

// TestABShareRoundTrip: B as keys against A, or as a whole scenario when
// a key cannot say it, survives the parameter; bad parameters are errors.
func TestABShareRoundTrip(t *testing.T) {
	a, err := Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Decode(a.Encode())
	if err := b.Set("features.SCHED_IDLE_NO_SLEEPER_CREDIT=on"); err != nil {
		t.Fatal(err)
	}
	s := ShareAB(a, b, 3)
	if len(s.Set) != 1 || s.Set[0] != "features.SCHED_IDLE_NO_SLEEPER_CREDIT=on" || s.Scenario != "" {
		t.Fatalf("share %+v, want the one feature key", s)
	}
	back, err := DecodeABParam(EncodeABParam(s))
	if err != nil || back.Runs != 3 {
		t.Fatalf("decode: %+v, %v", back, err)
	}
	got, err := ApplyAB(a, back)
	if err != nil || string(got.Encode()) != string(b.Encode()) {
		t.Fatalf("B back: %v, differs: %v", err, got != nil && string(got.Encode()) != string(b.Encode()))
	}
	b.Tasks[0].Nice = 3 // no key names it: the whole scenario goes
	s = ShareAB(a, b, 0)
	if s.Scenario == "" || len(s.Set) != 0 {
		t.Fatalf("share %+v, want B's payload", s)
	}
	back, _ = DecodeABParam(EncodeABParam(s))
	if got, err := ApplyAB(a, back); err != nil || string(got.Encode()) != string(b.Encode()) {
		t.Fatalf("B's payload back: %v", err)
	}
	for _, bad := range []string{"!!", EncodeABParam(ABShare{Runs: -1}), "e30x",
		EncodeABParam(ABShare{Set: []string{"x=1"}, Scenario: "y"})} {
		if _, err := DecodeABParam(bad); err == nil {
			t.Errorf("DecodeABParam(%q): no error", bad)
		}
	}
	if _, err := ApplyAB(a, ABShare{Set: []string{"kernel.hz=7"}}); err == nil || !strings.Contains(err.Error(), "ab.b[0]") {
		t.Errorf("a bad key: %v, want an error naming ab.b[0]", err)
	}
}

// FuzzDecodeABParam: any parameter text decodes or fails with a bounded,
// escaped error, never a panic, and what decodes encodes back to the same
// parameter.
func FuzzDecodeABParam(f *testing.F) {
	f.Add(EncodeABParam(ABShare{Set: []string{"kernel.hz=1000"}, Runs: 3}))
	f.Add(EncodeABParam(ABShare{Scenario: "x"}))
	f.Add("e30")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := DecodeABParam(text)
		if err != nil {
			if msg := err.Error(); len(msg) > maxErrBytes || quote.Raw(msg) {
				t.Fatalf("DecodeABParam error of %d bytes, want at most %d escaped: %.300q", len(msg), maxErrBytes, msg)
			}
			return
		}
		if back, err := DecodeABParam(EncodeABParam(s)); err != nil || EncodeABParam(back) != EncodeABParam(s) {
			t.Fatalf("%q: decoded %+v does not round-trip: %v", text, s, err)
		}
	})
}
