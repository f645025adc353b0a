package metrics

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCgroupJSONAndText: a report without cgroups has no "cgroups" key
// (flat metrics keep their bytes); one with cgroups lists them in JSON and
// in the summary's cgroup table.
func TestCgroupJSONAndText(t *testing.T) {
	r := Report{Schema: Schema, DurationNs: 1e9, Tasks: []Task{}, CPUs: []CPU{}}
	js, _ := json.Marshal(r)
	if strings.Contains(string(js), "cgroups") {
		t.Errorf("flat report has cgroups: %s", js)
	}
	var b strings.Builder
	r.WriteText(&b)
	if strings.Contains(b.String(), "cgroup") {
		t.Errorf("flat summary has a cgroup table:\n%s", b.String())
	}
	r.Cgroups = []Cgroup{{Path: "/Q", UsageNs: 250e6, NrPeriods: 10, NrThrottled: 9, ThrottledNs: 675e6, Tasks: 1, WaitNs: 750e6}}
	js, _ = json.Marshal(r)
	for _, want := range []string{`"cgroups":[{"path":"/Q","usage_ns":250000000,"user_ns":0,"system_ns":0,"nr_periods":10,"nr_throttled":9,"throttled_ns":675000000,"nr_bursts":0,"burst_ns":0,"tasks":1,"wait_ns":750000000,`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("JSON lacks %s:\n%s", want, js)
		}
	}
	b.Reset()
	r.WriteText(&b)
	lines := strings.Split(b.String(), "\n")
	var row string
	for _, l := range lines {
		if strings.HasPrefix(l, "/Q ") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) != 12 || f[1] != "25.00" || f[3] != "10" || f[4] != "9" || f[5] != "675.000" {
		t.Errorf("cgroup row %q in:\n%s", row, b.String())
	}
}
