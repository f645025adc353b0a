package experiment

import (
	"strings"
	"testing"

	"schedplay/core/metrics"
)

func TestCgroupMetrics(t *testing.T) {
	names, err := Resolve([]string{"cgroup.nr_throttled@/Q", "cgroup.cpu@/P/B"}, []string{"a"}, 2)
	if err != nil || len(names) != 2 {
		t.Fatalf("Resolve: %v %v", names, err)
	}
	for _, bad := range []string{"cgroup.nr_throttled", "cgroup.usage@Q", "cgroup.usage@/"} {
		if _, err := Resolve([]string{bad}, []string{"a"}, 2); err == nil || !strings.Contains(err.Error(), "want cgroup.") {
			t.Errorf("Resolve(%s): %v", bad, err)
		}
	}
	v := Values{}
	measureCgroups(v, &metrics.Report{DurationNs: 2e9, Cgroups: []metrics.Cgroup{{Path: "/Q", UsageNs: 5e8, NrPeriods: 20, NrThrottled: 19, ThrottledNs: 1425e6,
		WakeupLatencyNs: metrics.Latency{P99: 80000}}}})
	for k, want := range map[string]float64{"cgroup.cpu@/Q": 25, "cgroup.usage@/Q": 500, "cgroup.nr_throttled@/Q": 19, "cgroup.throttled@/Q": 1425, "cgroup.latency.p99@/Q": 80} {
		if v[k] != want {
			t.Errorf("%s = %v, want %v", k, v[k], want)
		}
	}
	if _, ok := v["cgroup.usage@/P"]; ok {
		t.Error("a group the run lacks has a value")
	}
}
