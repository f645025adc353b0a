package main

// Compare: the A/B table, run A (pinned) against run B (current), task by
// task and for the machine, with the relative change, in the spirit of the
// tables of scheduler patch threads.

import (
	"fmt"

	"schedplay/core/metrics"
)

// Compare is the A/B panel.
type Compare struct {
	App *App `vugu:"data"`
}

// CmpRow is one metric of the A/B table.
type CmpRow struct {
	Metric, A, B, Change string
}

func (c *Compare) rows() []CmpRow {
	a, b := c.App.A, c.App.Run
	if a == nil || b == nil || !b.Done() {
		return nil
	}
	ra, rb := a.Report(), b.Report()
	byName := map[string]metrics.Task{}
	for _, t := range rb.Tasks {
		byName[t.Name] = t
	}
	var out []CmpRow
	add := func(name string, x, y int64, f func(int64) string) {
		ch := "-"
		if x != 0 {
			ch = fmt.Sprintf("%+.1f%%", 100*float64(y-x)/float64(x))
		}
		out = append(out, CmpRow{name, f(x), f(y), ch})
	}
	num := func(v int64) string { return fmt.Sprint(v) }
	for _, ta := range ra.Tasks {
		tb, ok := byName[ta.Name]
		if !ok {
			continue
		}
		add(ta.Name+" runtime", ta.RuntimeNs, tb.RuntimeNs, dur)
		add(ta.Name+" wait", ta.WaitNs, tb.WaitNs, dur)
		add(ta.Name+" switches", ta.Switches, tb.Switches, num)
		add(ta.Name+" wakeup p99", ta.WakeupLatencyNs.P99, tb.WakeupLatencyNs.P99, dur)
	}
	add("events", ra.Events, rb.Events, num)
	return out
}
