package main

// Fuzz targets of the CLI's own parsers: the KEY=VALUE lists of -a/-b
// (compare, placement, replay's -b).

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzSplitSets: no -a/-b list panics; an error is short and names the
// flag; every pair has a key without separators; the pairs, each value
// quoted, split back to the same pairs.
// go test ./core/cmd/schedplay -run '^$' -fuzz FuzzSplitSets -fuzztime 60s
func FuzzSplitSets(f *testing.F) {
	for _, s := range []string{"kernel.hz=250 features.PLACE_LAG=off", "a=1,b=2", "cgroups./a.cpuset.cpus=0-3,8 kernel.hz=250",
		"hw.idle_disable=C2,C3,kernel.hz=250", `k='a b' j="c,d=e"`, `k="x`, "k", "=v", ",,a=1,,", "k='a'b", "k=\x00\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pairs, err := splitSets("-b", s)
		if err != nil {
			msg := err.Error()
			if len(msg) > 1024 || !strings.HasPrefix(msg, "-b ") {
				t.Fatalf("error of %d bytes, want at most 1024 naming -b: %.300q", len(msg), msg)
			}
			return
		}
		var quoted []string
		for _, p := range pairs {
			k, v, ok := strings.Cut(p, "=")
			if !ok || k == "" || strings.ContainsAny(k, ", \t\n\r") {
				t.Fatalf("splitSets(%q): pair %q, want KEY=VALUE with a plain key", s, p)
			}
			q := `"`
			if strings.Contains(v, q) {
				q = "'"
				if strings.Contains(v, q) {
					return // a value with both quote marks has no quoted form
				}
			}
			quoted = append(quoted, k+"="+q+v+q)
		}
		back, err := splitSets("-b", strings.Join(quoted, " "))
		if err != nil || !reflect.DeepEqual(back, pairs) && len(pairs) > 0 {
			t.Fatalf("splitSets(%q) = %q; quoted %q splits to %q (%v)", s, pairs, quoted, back, err)
		}
	})
}
