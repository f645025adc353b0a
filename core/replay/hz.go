package replay

// The traced kernel's HZ from its tick spacing. tick_sched_timer() re-arms
// the tick one jiffy (TICK_NSEC = NSEC_PER_SEC / HZ) ahead with
// hrtimer_forward(), so on a CPU that runs a task the timer interrupt
// (local_timer_entry, hrtimer_expire_entry) comes every 1/HZ s; an idle
// CPU stops it (NO_HZ_IDLE), and the hrtimers of sleepers add entries of
// their own in between. The inference takes the intervals between
// consecutive timer interrupt entries of a CPU that ran a task throughout
// and counts, for each HZ the kernel's Kconfig offers (kernel/Kconfig.hz:
// 100, 250, 300, 1000), those within HZTolPct of its jiffy. The HZ with
// the most, at least MinHZTicks of them and twice as many as any other,
// is the trace's. Without timer interrupt entries (a trace recorded
// without irq_vectors or timer events) or busy CPUs, nothing is inferred
// and the replay runs at its profile's HZ.

import (
	"fmt"

	"schedplay/core/ftraceimport"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// HZ inference thresholds.
const (
	// MinHZTicks is the fewest tick intervals that infer HZ.
	MinHZTicks = 20
	// HZTolPct: an interval within this % of a jiffy is one tick.
	HZTolPct = 3
)

// hzChoices are CONFIG_HZ's values (kernel/Kconfig.hz).
var hzChoices = [...]int{100, 250, 300, 1000}

// inferHZ returns the trace's HZ and the tick intervals that show it, or 0
// and the best count when the trace does not tell.
func inferHZ(tr *ftraceimport.Trace) (hz, ticks int) {
	n := tr.NumCPUs
	on := make([]bool, n)         // the CPU runs a task
	last := make([]sched.Time, n) // its last timer entry while busy, -1 none
	for c := range last {
		last[c] = -1
		on[c] = c < len(tr.Running) && tr.Running[c] != sched.NoTask
	}
	var count [len(hzChoices)]int
	ev := 0
	for _, q := range tr.IRQs {
		for ; ev < len(tr.Events) && tr.Events[ev].Time <= q.Time; ev++ {
			e := &tr.Events[ev]
			if c := int(e.CPU); e.Kind == sched.EvSwitch && c >= 0 && c < n {
				if on[c] = e.Next != sched.NoTask; !on[c] {
					last[c] = -1 // idle: the tick may stop
				}
			}
		}
		if q.Kind != ftraceimport.IRQTimer || q.CPU < 0 || q.CPU >= n || !on[q.CPU] {
			continue
		}
		if p := last[q.CPU]; p >= 0 {
			d := int64(q.Time - p)
			for i, h := range hzChoices {
				j := int64(sched.Second) / int64(h)
				if diff := d - j; diff*100 <= j*HZTolPct && -diff*100 <= j*HZTolPct {
					count[i]++
				}
			}
		}
		last[q.CPU] = q.Time
	}
	best, second := -1, 0
	for i, c := range count {
		if best < 0 || c > count[best] {
			if best >= 0 {
				second = max(second, count[best])
			}
			best = i
		} else {
			second = max(second, c)
		}
	}
	if count[best] >= MinHZTicks && count[best] >= 2*second {
		return hzChoices[best], count[best]
	}
	return 0, count[best]
}

// HZSummary says in one line where the replay's HZ comes from: the trace's
// tick spacing, or the profile (or an explicit setting) when the trace
// does not show it.
func (w *Workload) HZSummary() string {
	if w.HZ > 0 {
		return fmt.Sprintf("HZ: %d, from the trace's tick spacing (%d timer interrupt intervals of %s on busy CPUs)", w.HZ, w.HZTicks,
			scenario.FormatDuration(sched.Time(int64(sched.Second)/int64(w.HZ))))
	}
	return fmt.Sprintf("HZ: the trace does not show its tick (%d timer interrupt intervals of a jiffy on busy CPUs, fewer than %d or no clear one): the profile's", w.HZTicks, MinHZTicks)
}
