package experiment

// Fuzz targets of the experiment package's decoders: `-sweep` axes, the
// playground's `sweep=` link parameter and `-shard` specs. Each asserts
// no panic, a bounded error without raw control characters (core/quote),
// and a round trip where one exists.

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxFuzzErr bounds one decoder error: fixed text and a few quotes.
const maxFuzzErr = 1024

// checkFuzzErr fails unless err is short and escaped.
func checkFuzzErr(t *testing.T, what string, err error) {
	t.Helper()
	msg := err.Error()
	if len(msg) > maxFuzzErr {
		t.Fatalf("%s: error of %d bytes, want at most %d: %.300q", what, len(msg), maxFuzzErr, msg)
	}
	for s := msg; len(s) > 0; {
		r, n := utf8.DecodeRuneInString(s)
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == utf8.RuneError && n == 1 {
			t.Fatalf("%s: error with a raw control character or invalid byte: %.300q", what, msg)
		}
		s = s[n:]
	}
}

// FuzzParseSweepAxis: an axis parsed prints (SweepAxis.String) as text
// that parses back to it.
// go test ./core/experiment -run '^$' -fuzz FuzzParseSweepAxis -fuzztime 60s
func FuzzParseSweepAxis(f *testing.F) {
	for _, s := range []string{"kernel.hz=100,250,1000", `cgroups./a.cpuset.cpus="0-3,8","0-7"`, `k='a"b',c`,
		"k=", "=1", "k=a,,b", `k="unclosed`, "tasks.t.nice= -5 , 5 ", "k=" + strings.Repeat("v,", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ax, err := ParseSweepAxis(s)
		if err != nil {
			checkFuzzErr(t, "ParseSweepAxis", err)
			return
		}
		if ax.Key == "" || len(ax.Values) == 0 {
			t.Fatalf("ParseSweepAxis(%q) = %+v: want a key and values", s, ax)
		}
		back, err := ParseSweepAxis(ax.String())
		if err != nil || !reflect.DeepEqual(back, ax) {
			t.Fatalf("ParseSweepAxis(%q) = %+v, printed %q, parsed back %+v (%v)", s, ax, ax.String(), back, err)
		}
		_ = CheckSweepAxes([]SweepAxis{ax})
	})
}

// FuzzDecodeSweepFragment: a spec decoded re-encodes to a fragment that
// decodes to it.
func FuzzDecodeSweepFragment(f *testing.F) {
	for _, sp := range []SweepSpec{
		{Axes: []string{"kernel.hz=100,250"}, Runs: 3},
		{Axes: []string{"kernel.hz=100,250", "features.PLACE_LAG=on,off"}, Runs: 1, Metrics: []string{"switches"}, Stat: "median"},
	} {
		f.Add(sp.EncodeFragment())
	}
	f.Add("e30")
	f.Add(strings.Repeat("A", 9000))
	f.Fuzz(func(t *testing.T, p string) {
		sp, err := DecodeSweepFragment(p)
		if err != nil {
			checkFuzzErr(t, "DecodeSweepFragment", err)
			return
		}
		back, err := DecodeSweepFragment(sp.EncodeFragment())
		if err != nil || !reflect.DeepEqual(back, sp) {
			t.Fatalf("sweep fragment round trip: %+v -> %+v (%v)", sp, back, err)
		}
	})
}

// FuzzParseShard: a shard parsed is valid and prints (Shard.String) as a
// spec that parses back to it; auto reads its index from the fuzzed
// environment value.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/4", "4/4", "0/4", "5/4", "auto/3", "auto/0", "1/", "/", "x/y", "1/99999999999999999999"} {
		f.Add(s, "2")
	}
	f.Add("auto/8", " 7 ")
	f.Add("auto/8", "-1")
	f.Fuzz(func(t *testing.T, s, env string) {
		lookup := func(name string) (string, bool) { return env, env != "" && name == ShardIndexVars[0] }
		sh, err := ParseShard(s, lookup)
		if err != nil {
			checkFuzzErr(t, "ParseShard", err)
			return
		}
		if err := sh.Check(); err != nil {
			t.Fatalf("ParseShard(%q) = %v, which fails its check: %v", s, sh, err)
		}
		if back, err := ParseShard(sh.String(), lookup); err != nil || back != sh {
			t.Fatalf("ParseShard(%q) = %v, printed %q, parsed back %v (%v)", s, sh, sh.String(), back, err)
		}
	})
}
