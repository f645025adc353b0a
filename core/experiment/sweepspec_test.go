package experiment

import (
	"encoding/base64"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestSweepFragmentRoundTrip(t *testing.T) {
	s := SweepSpec{Axes: []string{"workloads.hb.groups=1,2,4", "kernel.hz=250,1000"}, Runs: 3,
		Metrics: []string{"completion", "latency.p99@hb.g0.snd"}, Stat: "median"}
	p := s.EncodeFragment()
	if got := SweepFragmentParam("https://x/#s=abc&sweep=" + p); got != p {
		t.Fatalf("SweepFragmentParam = %q", got)
	}
	got, err := DecodeSweepFragment(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) || got.Center() != CenterMedian {
		t.Fatalf("round trip %+v, want %+v", got, s)
	}
	if SweepFragmentParam("#s=abc") != "" {
		t.Fatal("no sweep parameter expected")
	}
}

func TestSweepFragmentHostile(t *testing.T) {
	enc := func(js string) string { return base64.RawURLEncoding.EncodeToString([]byte(js)) }
	for _, c := range []struct{ p, want string }{
		{"!!!", "base64url"},
		{enc(`{"v":2,"sweep":["kernel.hz=250"],"runs":1}`), "version 2"},
		{enc(`{"v":1,"sweep":["kernel.hz=250"],"runs":0}`), "runs 0"},
		{enc(`{"v":1,"sweep":["kernel.hz=250"],"runs":1,"x":1}`), "unknown field"},
		{enc(`{"v":1,"sweep":[],"runs":1}`), "one or two"},
		{enc(`{"v":1,"sweep":["a=1","b=2","c=3"],"runs":1}`), "one or two"},
		{enc(`{"v":1,"sweep":["=1"],"runs":1}`), "want KEY="},
		{enc(`{"v":1,"sweep":["seed=1"],"runs":1,"stat":"max"}`), "stat"},
		{enc(`{"v":1,"sweep":["seed=` + strings.Repeat("1,", 500) + `1"],"runs":1}`), "points"},
		{strings.Repeat("A", 9000), "limit"},
	} {
		if _, err := DecodeSweepFragment(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40s: %v, want %q", c.p, err, c.want)
		}
	}
}

func TestSweepPointsOrder(t *testing.T) {
	axes := []SweepAxis{{"a", []string{"1", "2"}}, {"b", []string{"x", "y", "z"}}}
	cfgs := SweepConfigs(axes)
	if len(cfgs) != 6 || cfgs[4].Label != "a=2 b=y" {
		t.Fatalf("configs %+v", cfgs)
	}
	s := &Sweep{Axes: axes}
	if got := s.Point(4); !reflect.DeepEqual(got, []string{"2", "y"}) {
		t.Fatalf("Point(4) = %v", got)
	}
}

// TestSweepLinksInCorpus: every sweep link of the golden URL corpus
// (append-only, core/scenario/testdata/urls.txt) keeps opening: its
// scenario decodes (the corpus test) and its sweep decodes here.
func TestSweepLinksInCorpus(t *testing.T) {
	data, err := os.ReadFile("../scenario/testdata/urls.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		if p := SweepFragmentParam(line); p != "" {
			n++
			if _, err := DecodeSweepFragment(p); err != nil {
				t.Errorf("%.80s...: %v", line, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no sweep link in the corpus")
	}
}
