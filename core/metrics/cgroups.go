package metrics

// Per-cgroup figures (interfaces.md "Added with task groups": metrics
// JSON "cgroups", docs/cli.md): each group's cpu.stat as the kernel shows
// it (cpu_extra_stat_show() and the usage fields of cgroup_base_stat_cputime_show():
// usage, user and system time, nr_periods, nr_throttled, throttled time,
// nr_bursts, burst time), read from the engine at the end of the run, and
// the wait and wakeup-latency figures of the group's tasks: those that
// started in the group or a group below it (usage is hierarchical in
// cpu.stat, so these are too). Present only when the scenario has cgroups,
// so the metrics of a flat scenario keep their bytes.

import (
	"fmt"
	"strings"

	"schedplay/core/sched"
)

// Cgroup is one cgroup's figures.
type Cgroup struct {
	Path        string `json:"path"`
	UsageNs     int64  `json:"usage_ns"`
	UserNs      int64  `json:"user_ns"`
	SystemNs    int64  `json:"system_ns"`
	NrPeriods   int64  `json:"nr_periods"`
	NrThrottled int64  `json:"nr_throttled"`
	ThrottledNs int64  `json:"throttled_ns"`
	NrBursts    int64  `json:"nr_bursts"`
	BurstNs     int64  `json:"burst_ns"`
	// Tasks counts the tasks that started in the group or below it;
	// WaitNs and WakeupLatencyNs are theirs (runnable but not running;
	// sched_wakeup to the next switch-in).
	Tasks           int     `json:"tasks"`
	WaitNs          int64   `json:"wait_ns"`
	WakeupLatencyNs Latency `json:"wakeup_latency_ns"`
}

// buildCgroups fills r.Cgroups for a run with cgroups.
func (c *Collector) buildCgroups(s *sched.Sim, r *Report) {
	cfg := s.Config()
	if len(cfg.Cgroups) == 0 {
		return
	}
	specOf := map[string]int{}
	for i, ts := range cfg.Tasks {
		specOf[ts.Name] = i
	}
	// under[k][j]: cgroup j is k or below k (k, j 0-based).
	n := len(cfg.Cgroups)
	inside := func(j, k int) bool { // is cgroup j+1 in the subtree of k+1
		for g := j + 1; g != 0; g = cfg.Cgroups[g-1].Parent {
			if g == k+1 {
				return true
			}
		}
		return false
	}
	lat := make([][]*Hist, n)
	r.Cgroups = make([]Cgroup, n)
	for k, cg := range cfg.Cgroups {
		r.Cgroups[k].Path = cg.Path
	}
	for id := 0; id < s.NumTasks(); id++ {
		info := s.TaskInfo(sched.TaskID(id))
		g := cfg.Tasks[specOf[info.Group]].Cgroup
		if g == 0 {
			continue
		}
		var a *taskAcc
		if id < len(c.tasks) {
			a = &c.tasks[id]
		} else {
			a = &taskAcc{}
		}
		for k := range n {
			if inside(g-1, k) {
				r.Cgroups[k].Tasks++
				r.Cgroups[k].WaitNs += a.wait
				lat[k] = append(lat[k], &a.latencies)
			}
		}
	}
	for k := range r.Cgroups {
		pool := Pool(lat[k]...)
		r.Cgroups[k].WakeupLatencyNs = pool.Summary()
		x := s.CgroupStat(k + 1)
		g := &r.Cgroups[k]
		g.UsageNs, g.UserNs, g.SystemNs = x.UsageNs, x.UserNs, x.SystemNs
		g.NrPeriods, g.NrThrottled, g.ThrottledNs = x.NrPeriods, x.NrThrottled, x.ThrottledNs
		g.NrBursts, g.BurstNs = x.NrBursts, x.BurstNs
	}
}

// CgroupHead is the header of the cgroup table, as the CLI summary prints
// it; [Report.CgroupCells] gives a row's cells in the same order.
var CgroupHead = []string{"cgroup", "cpu%", "usage_ms", "periods", "throttled", "throttled_ms", "bursts", "burst_ms", "tasks", "wait_ms", "lat_p50us", "lat_p99us"}

// cgroupWidths are the columns' widths in the CLI summary (negative: left
// aligned).
var cgroupWidths = []int{-24, 8, 11, 10, 12, 14, 8, 11, 5, 11, 10, 10}

// CgroupCells is the cgroup table's row for g as the CLI summary prints it
// (the same digits; the playground's table shows these cells).
func (r *Report) CgroupCells(g Cgroup) []string {
	share := 0.0
	if r.DurationNs > 0 {
		share = 100 * float64(g.UsageNs) / float64(r.DurationNs)
	}
	f := func(format string, v any) string { return fmt.Sprintf(format, v) }
	return []string{g.Path, f("%.2f", share), f("%.3f", ms(g.UsageNs)), f("%d", g.NrPeriods), f("%d", g.NrThrottled),
		f("%.3f", ms(g.ThrottledNs)), f("%d", g.NrBursts), f("%.3f", ms(g.BurstNs)), f("%d", g.Tasks), f("%.3f", ms(g.WaitNs)),
		f("%.1f", us(g.WakeupLatencyNs.P50)), f("%.1f", us(g.WakeupLatencyNs.P99))}
}

// writeCgroupText renders the cgroup table of the CLI summary.
func (r *Report) writeCgroupText(b *strings.Builder) {
	if len(r.Cgroups) == 0 {
		return
	}
	b.WriteByte('\n')
	writeCgroupRow(b, CgroupHead)
	for _, g := range r.Cgroups {
		writeCgroupRow(b, r.CgroupCells(g))
	}
}

func writeCgroupRow(b *strings.Builder, cells []string) {
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(b, "%*s", cgroupWidths[i], c)
	}
	b.WriteByte('\n')
}
