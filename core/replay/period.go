package replay

// Periodic timers among the outside wakeups: a task woken from outside
// again and again at a steady interval (an hrtimer of clock_nanosleep with
// TIMER_ABSTIME, timerfd, a periodic rt-app or cyclictest thread) is
// replayed on a periodic grid, as the hrtimer would fire, instead of at
// the trace's jittered times.

import (
	"slices"

	"schedplay/core/sched"
)

// Detection thresholds.
const (
	minPeriodic = 4 // intervals
	// minPeriod: shorter intervals are a chain of wakeups, not a timer
	// (cyclictest's shortest common interval is 100 us; hrtimer slack of
	// fair tasks is 50 us).
	minPeriod = 50 * sched.Microsecond
	// periodTolPct: an interval within this % of the period belongs to it.
	periodTolPct = 10
	// periodSharePct of the task's outside intervals must fit the period.
	periodSharePct = 70
)

// findPeriods looks, per task, at the intervals between consecutive
// outside wakeups that no other block separates; if most fit their
// median, that median is the task's period and those wakeups are
// marked periodic (their blocks end by timer).
func findPeriods(w *Workload) {
	for ti := range w.Tasks {
		t := &w.Tasks[ti]
		var ivals []sched.Time
		var at []int // step index of the wakeup ending each interval
		prev := -1
		for k, s := range t.Steps {
			switch s.Kind {
			case StepUntil:
				if prev >= 0 {
					ivals = append(ivals, s.At-t.Steps[prev].At)
					at = append(at, k)
				}
				prev = k
			case StepWait, StepEnd, StepExit:
				prev = -1
			}
		}
		if len(ivals) < minPeriodic {
			continue
		}
		sorted := slices.Clone(ivals)
		slices.Sort(sorted)
		med := sorted[len(sorted)/2]
		if med < minPeriod {
			continue
		}
		var fit []int
		for i, d := range ivals {
			if diff := d - med; diff*100 <= med*periodTolPct && -diff*100 <= med*periodTolPct {
				fit = append(fit, at[i])
			}
		}
		if len(fit) < minPeriodic || len(fit)*100 < len(ivals)*periodSharePct {
			continue
		}
		t.Period, t.Periodic = med, len(fit)
		for _, k := range fit {
			t.Steps[k].Periodic = true
		}
		// the blocks ended by those wakeups
		ends := make(map[sched.Time]bool, len(fit))
		for _, k := range fit {
			ends[t.Steps[k].At] = true
		}
		for bi := range t.Blocks {
			if b := &t.Blocks[bi]; b.End == EndOutside && ends[b.To] {
				b.End = EndTimer
			}
		}
	}
}
