package view

// CompareRuns: the rows of the playground's A/B table, run A (pinned)
// against run B (the current one), in the shape of a patch thread's table:
// metric, A, B, relative change.
//
// A small workload gets a block of rows per task, matched by name. A large
// one (more than perTaskRows tasks: the 256-CPU benchmark has 1024) gets a
// block per task group instead, matched by group name: 4,096 per-task rows
// were neither readable nor cheap (the page re-rendered them on every
// render, a 400 ms main-thread task at 256 CPUs). A group's runtime, wait
// and switches are sums over its tasks; its wakeup latency row is the worst
// p99 of its tasks (the report keeps per-task summaries only; `schedplay
// compare` computes a group's true percentiles from every sample). The
// machine rows follow: busy share, switches, migrations and events.

import (
	"fmt"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// perTaskRows is the largest workload compared task by task.
const perTaskRows = 16

// CompareRow is one metric of the A/B table.
type CompareRow struct {
	Metric, A, B, Change string
}

// cmpBlock is what the table shows of one task or group.
type cmpBlock struct {
	runtime, wait, switches, p99 int64
	tasks                        int
}

// CompareRuns returns the A/B rows, or nil while B is unfinished.
func CompareRuns(a, b *Run) []CompareRow {
	if a == nil || b == nil || !b.Done() {
		return nil
	}
	ra, rb := a.Report(), b.Report()
	if ra == nil || rb == nil {
		return nil
	}
	var out []CompareRow
	add := func(name string, x, y int64, f func(int64) string) {
		ch := "-"
		if x != 0 {
			ch = fmt.Sprintf("%+.1f%%", 100*float64(y-x)/float64(x))
		}
		out = append(out, CompareRow{name, f(x), f(y), ch})
	}
	num := func(v int64) string { return fmt.Sprint(v) }
	byGroup := len(ra.Tasks) > perTaskRows || len(rb.Tasks) > perTaskRows
	orderA, blocksA := cmpBlocks(a, ra, byGroup)
	_, blocksB := cmpBlocks(b, rb, byGroup)
	for _, k := range orderA {
		x, y := blocksA[k], blocksB[k]
		if y == nil {
			continue
		}
		name := k
		if byGroup {
			name = fmt.Sprintf("%s (%d tasks)", k, x.tasks)
			if x.tasks != y.tasks {
				name = fmt.Sprintf("%s (%d / %d tasks)", k, x.tasks, y.tasks)
			}
		}
		add(name+" runtime", x.runtime, y.runtime, FormatDur)
		add(name+" wait", x.wait, y.wait, FormatDur)
		add(name+" switches", x.switches, y.switches, num)
		if byGroup {
			add(name+" wakeup p99 (worst task)", x.p99, y.p99, FormatDur)
		} else {
			add(name+" wakeup p99", x.p99, y.p99, FormatDur)
		}
	}
	busy := func(r *metrics.Report) int64 {
		var b int64
		for _, c := range r.CPUs {
			b += c.BusyNs
		}
		if r.DurationNs <= 0 || len(r.CPUs) == 0 {
			return 0
		}
		return 1000 * b / (r.DurationNs * int64(len(r.CPUs))) // per mille
	}
	add("busy (all CPUs)", busy(ra), busy(rb), func(v int64) string { return fmt.Sprintf("%.1f%%", float64(v)/10) })
	sum := func(r *metrics.Report, f func(metrics.Task) int64) int64 {
		var s int64
		for _, t := range r.Tasks {
			s += f(t)
		}
		return s
	}
	add("switches (all tasks)", sum(ra, func(t metrics.Task) int64 { return t.Switches }), sum(rb, func(t metrics.Task) int64 { return t.Switches }), num)
	add("migrations (all tasks)", sum(ra, func(t metrics.Task) int64 { return t.Migrations }), sum(rb, func(t metrics.Task) int64 { return t.Migrations }), num)
	add("events", ra.Events, rb.Events, num)
	return out
}

// cmpBlocks sums a run's tasks by name (byGroup false) or by task group,
// in the report's order.
func cmpBlocks(r *Run, rep *metrics.Report, byGroup bool) ([]string, map[string]*cmpBlock) {
	var order []string
	blocks := map[string]*cmpBlock{}
	for i, t := range rep.Tasks {
		k := t.Name
		if byGroup {
			if g := r.TaskInfo(sched.TaskID(i)).Group; g != "" {
				k = g
			}
		}
		bl := blocks[k]
		if bl == nil {
			bl = &cmpBlock{}
			blocks[k] = bl
			order = append(order, k)
		}
		bl.tasks++
		bl.runtime += t.RuntimeNs
		bl.wait += t.WaitNs
		bl.switches += t.Switches
		bl.p99 = max(bl.p99, t.WakeupLatencyNs.P99)
	}
	return order, blocks
}
