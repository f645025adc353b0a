package main

// The sweep panel's form on the host: its spec, errors at their field,
// the share-URL parameter and its reload, and the key suggestions.

import (
	"strings"
	"testing"

	"schedplay/core/experiment"
)

func TestSweepFormSpec(t *testing.T) {
	s := &SweepState{Key1: "workloads.hb.groups", Vals1: " 1, 2 ,4", Key2: "kernel.hz", Vals2: "250,1000", Runs: 3,
		Metrics: "completion, switches", Stat: "median"}
	spec, ok := s.Spec()
	if !ok || strings.Join(spec.Axes, " ") != "workloads.hb.groups=1,2,4 kernel.hz=250,1000" || spec.Runs != 3 ||
		strings.Join(spec.Metrics, ",") != "completion,switches" || spec.Center() != experiment.CenterMedian {
		t.Fatalf("spec %+v ok=%v err=%q", spec, ok, s.FormErr)
	}
	for _, c := range []struct {
		edit  func(*SweepState)
		field string
		want  string
	}{
		{func(s *SweepState) { s.Key1 = "" }, "key1", "want a scenario key"},
		{func(s *SweepState) { s.Vals1 = " , " }, "vals1", "want values"},
		{func(s *SweepState) { s.Key2 = "a b" }, "key2", "want a scenario key"},
		{func(s *SweepState) { s.Vals2 = "" }, "vals2", "want values"},
		{func(s *SweepState) { s.Key2 = s.Key1 }, "key2", "given twice"},
		{func(s *SweepState) { s.Runs = 0 }, "runs", "runs 0"},
	} {
		s2 := *s
		c.edit(&s2)
		if _, ok := s2.Spec(); ok || s2.FormField != c.field || !strings.Contains(s2.FormErr, c.want) {
			t.Errorf("%s: ok=%v field %q err %q", c.want, ok, s2.FormField, s2.FormErr)
		}
	}
	// One key: the second left empty.
	s.Key2, s.Vals2 = "", ""
	if spec, ok := s.Spec(); !ok || len(spec.Axes) != 1 {
		t.Fatalf("one key: %+v %q", spec, s.FormErr)
	}
}

func TestSweepShareParam(t *testing.T) {
	var none *SweepState
	if none.shareParam() != "" {
		t.Fatal("no sweep state, no parameter")
	}
	s := &SweepState{Key1: "kernel.hz", Vals1: "100,1000", Key2: "seed", Vals2: "1,2", Runs: 2, Metrics: "busy"}
	if s.shareParam() != "" {
		t.Fatal("a closed panel is not shared")
	}
	s.Open = true
	p := s.shareParam()
	if !strings.HasPrefix(p, "&sweep=") {
		t.Fatalf("parameter %q", p)
	}
	spec, err := experiment.DecodeSweepFragment(experiment.SweepFragmentParam("#s=x" + p))
	if err != nil {
		t.Fatal(err)
	}
	var back SweepState
	back.load(spec)
	if !back.Open || back.Key1 != "kernel.hz" || back.Vals1 != "100,1000" || back.Key2 != "seed" || back.Vals2 != "1,2" ||
		back.Runs != 2 || back.Metrics != "busy" || back.Stat != "amean" {
		t.Fatalf("reloaded %+v", back)
	}
}

func TestSweepKeys(t *testing.T) {
	sc := hackbenchScenario(t)
	keys := sweepKeys(sc)
	has := func(k string) bool {
		for _, c := range keys {
			if c.Key == k {
				return true
			}
		}
		return false
	}
	for _, k := range []string{"kernel.hz", "features.PLACE_LAG", "sysctl.sched_base_slice_ns", "workloads.hb.groups", "workloads.hb.mode"} {
		if !has(k) {
			t.Errorf("no suggestion %s", k)
		}
	}
	if has("workloads.NAME.PARAM") || has("tasks.NAME.instances") {
		t.Error("templates suggested as keys")
	}
	if h := keyHelp(sc, "workloads.hb.groups"); !strings.Contains(h, "1..1000") {
		t.Errorf("help %q", h)
	}
	if h := keyHelp(sc, "hw.bogus"); !strings.Contains(h, "not a listed key") {
		t.Errorf("help of a free-text key %q", h)
	}
}

// The values field reads as -sweep does: a quoted value keeps its commas
// (a CPU list), an empty value is an error at the field.
func TestSweepFormQuotedValues(t *testing.T) {
	s := &SweepState{Key1: "cgroups./a.cpuset.cpus", Vals1: `"0-1,3", 0-3`, Runs: 1}
	spec, ok := s.Spec()
	if !ok {
		t.Fatalf("quoted CPU list refused: %q", s.FormErr)
	}
	ax, err := experiment.ParseSweepAxis(spec.Axes[0])
	if err != nil || len(ax.Values) != 2 || ax.Values[0] != "0-1,3" || ax.Values[1] != "0-3" {
		t.Fatalf("axis %q: %+v %v", spec.Axes[0], ax, err)
	}
	s.Vals1 = `1,,2`
	if _, ok := s.Spec(); ok || s.FormField != "vals1" || !strings.Contains(s.FormErr, "empty value") {
		t.Errorf("1,,2: field %q err %q", s.FormField, s.FormErr)
	}
	s.Vals1 = `"0-1`
	if _, ok := s.Spec(); ok || s.FormField != "vals1" || !strings.Contains(s.FormErr, "not closed") {
		t.Errorf("open quote: field %q err %q", s.FormField, s.FormErr)
	}
}
