package perfetto

import (
	"schedplay/core/sched"
)

// busyMeter is the reference: per-CPU busy time straight from sched_switch.
type busyMeter struct {
	since []sched.Time
	curr  []sched.TaskID
	busy  []sched.Time
}

func newBusyMeter(ncpu int) *busyMeter {
	m := &busyMeter{since: make([]sched.Time, ncpu), curr: make([]sched.TaskID, ncpu), busy: make([]sched.Time, ncpu)}
	for i := range m.curr {
		m.curr[i] = sched.NoTask
	}
	return m
}

func (m *busyMeter) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvSwitch:
		if m.curr[e.CPU] != sched.NoTask {
			m.busy[e.CPU] += e.Time - m.since[e.CPU]
		}
		m.curr[e.CPU], m.since[e.CPU] = e.Next, e.Time
	case sched.EvEnd:
		for c := range m.curr {
			if m.curr[c] != sched.NoTask {
				m.busy[c] += e.Time - m.since[c]
				m.curr[c] = sched.NoTask
			}
		}
	}
}
