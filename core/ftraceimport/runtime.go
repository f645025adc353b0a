package ftraceimport

// CPU-time updates: sched_stat_runtime (include/trace/events/sched.h),
// printed by update_curr() each time it accounts the running task's time
// ("comm=%s pid=%d runtime=%Lu [ns]", older kernels add "vruntime=%Lu
// [ns]"): at a switch, a tick, a wakeup on its CPU, and whenever the task
// reads its own CPU clock (task_sched_runtime()). The importer keeps when,
// where, whose and how much; the replay reads the clock-read intervals of
// a polling task from them (core/replay selfpoll.go). A line that does not
// parse is skipped as any unrecognized line is: the event is auxiliary.

import (
	"cmp"
	"slices"
	"strings"

	"schedplay/core/sched"
)

// RuntimeStat is one sched_stat_runtime: at Time (relative to
// Trace.Offset) on CPU, update_curr() accounted Runtime ns to the task of
// pid PID.
type RuntimeStat struct {
	Time    sched.Time
	CPU     int
	PID     int
	Runtime sched.Time
}

// runtimeStat parses a sched_stat_runtime line's prefix and body.
func runtimeStat(p prefix) (RuntimeStat, bool) {
	if p.event != "sched_stat_runtime" || p.cpu >= MaxCPUs {
		return RuntimeStat{}, false
	}
	f := splitKV(p.body)
	pid, err := uintKV(f, "pid")
	if err != nil {
		return RuntimeStat{}, false
	}
	v, _ := f.get("runtime")
	v, _, _ = strings.Cut(strings.TrimSpace(v), " ") // "5631 [ns]"
	ns, ok := parseUint(v)
	if !ok {
		return RuntimeStat{}, false
	}
	return RuntimeStat{Time: sched.Time(p.ts), CPU: p.cpu, PID: pid, Runtime: sched.Time(ns)}, true
}

// setRuntimes keeps the updates within the trace, times made relative to
// its offset, in time order.
func (tr *Trace) setRuntimes(rs []RuntimeStat) {
	slices.SortStableFunc(rs, func(a, b RuntimeStat) int { return cmp.Compare(a.Time, b.Time) })
	for _, r := range rs {
		r.Time = max(0, r.Time-sched.Time(tr.Offset))
		if r.CPU < tr.NumCPUs && r.Time <= tr.Duration {
			tr.Runtimes = append(tr.Runtimes, r)
		}
	}
}
