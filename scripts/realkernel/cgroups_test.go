//go:build linux

package main

import (
	"math"
	"strings"
	"testing"
)

// TestCgroupShares: the ideal shares of the cgroup cases follow the
// hierarchy's weights, quotas and periodic demand.
func TestCgroupShares(t *testing.T) {
	want := map[string]map[string]float64{
		"cg-1-vs-4":            {"a-0": 50, "b-1": 12.5, "b-4": 12.5},
		"cg-weight-100-vs-300": {"l-0": 25, "h-1": 75},
		"cg-nested":            {"x-0": 100.0 / 3, "y-1": 50.0 / 3, "q-2": 50},
		"cg-max-25":            {"q-0": 25},
		"cg-burst-on":          {"svc-0": 20},
		"cg-idle":              {"i-0": 100 * 3.0 / 1027, "n-1": 100 * 1024.0 / 1027},
	}
	for _, c := range cgroupCases() {
		got := c.expectedShares()
		for name, w := range want[c.ID] {
			if math.Abs(got[name]-w) > 1e-9 {
				t.Errorf("%s %s: %.3f %%, want %.3f", c.ID, name, got[name], w)
			}
		}
	}
}

// TestCgroupScenarioJSON: a cgroup case's scenario has its groups and
// taskgroups; a flat case's has neither key.
func TestCgroupScenarioJSON(t *testing.T) {
	for _, c := range allCases() {
		js, err := c.scenarioJSON(10e9, 250, "none", true)
		if err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(js), `"cgroups"`) && strings.Contains(string(js), `"taskgroup"`)
		if has != (len(c.Cgroups) > 0) || len(c.Cgroups) == 0 && strings.Contains(string(js), "taskgroup") {
			t.Errorf("%s: cgroups in the scenario %v, case has %d:\n%s", c.ID, has, len(c.Cgroups), js)
		}
	}
}

func TestSpliceSection(t *testing.T) {
	doc := spliceSection("# R\n", "cg", "one\n")
	if doc != "# R\n\n<!-- realkernel:cg begin -->\none\n<!-- realkernel:cg end -->\n" {
		t.Fatalf("append: %q", doc)
	}
	doc = spliceSection(doc+"tail\n", "cg", "two\n")
	if doc != "# R\n\n<!-- realkernel:cg begin -->\ntwo\n<!-- realkernel:cg end -->\ntail\n" {
		t.Fatalf("replace: %q", doc)
	}
}
