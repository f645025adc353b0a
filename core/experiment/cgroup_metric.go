package experiment

// The cgroup metrics (metric.go's catalogue, "cgroup.*@/PATH"): a group's
// cpu.stat figures and its tasks' wait and latency from the metrics
// report's "cgroups" (core/metrics/cgroups.go). A run without that group
// has none of them, as a CPU the machine lacks has no busy@cpuN.

import (
	"strings"

	"schedplay/core/metrics"
	"schedplay/core/quote"
)

// checkCgroupQualifier checks the "@/PATH" of a cgroup metric.
func checkCgroupQualifier(spec, q string, qualified bool) error {
	if !qualified || !strings.HasPrefix(q, "/") || len(q) < 2 {
		return quote.Errorf("metric %q: want %s@/PATH, a cgroup path of the scenario", spec, quote.Clip(strings.SplitN(spec, "@", 2)[0]))
	}
	return nil
}

// measureCgroups sets the cgroup metrics of every group of the report.
func measureCgroups(v Values, rep *metrics.Report) {
	dur := float64(rep.DurationNs)
	for _, g := range rep.Cgroups {
		q := "@" + g.Path
		if dur > 0 {
			v["cgroup.cpu"+q] = 100 * float64(g.UsageNs) / dur
		}
		v["cgroup.usage"+q] = float64(g.UsageNs) / 1e6
		v["cgroup.nr_periods"+q] = float64(g.NrPeriods)
		v["cgroup.nr_throttled"+q] = float64(g.NrThrottled)
		v["cgroup.throttled"+q] = float64(g.ThrottledNs) / 1e6
		v["cgroup.nr_bursts"+q] = float64(g.NrBursts)
		v["cgroup.burst"+q] = float64(g.BurstNs) / 1e6
		v["cgroup.wait"+q] = float64(g.WaitNs) / 1e6
		v["cgroup.latency.p99"+q] = us(g.WakeupLatencyNs.P99)
		v["cgroup.latency.max"+q] = us(g.WakeupLatencyNs.Max)
	}
}
