package replay

// The inference's bounds (Options.MaxTasks, MaxSteps, MaxEvents) as an
// error a caller can act on. A trace of a busy machine passes them after
// some span: a pipe ping-pong pinned to one CPU makes a few hundred
// thousand round trips a second, four program steps each. The error says
// when the bound was passed, so the caller can replay the trace's first
// span instead (ftraceimport.Options.Until, `schedplay replay -until`)
// and say that it did: the step bound is what keeps a replay's memory and
// run time proportionate, and a span of the trace is a replay of what
// happened in it, where a coarser program would not be.

import (
	"fmt"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// LimitError is a trace that passes one of the inference's bounds.
type LimitError struct {
	// What is passed ("tasks", "program steps", "sched events"), Limit
	// the bound and Option its field of Options.
	What, Option string
	Limit        int
	// At is the trace time of the event that passed it.
	At sched.Time
}

func (e *LimitError) Error() string {
	hint := ""
	if e.What == "tasks" {
		hint = ", or trace fewer tasks (e.g. a cgroup or pid filter)"
	}
	return fmt.Sprintf("replay: the trace has more than %d %s by %s of the trace (Options.%s); replay a shorter span "+
		"(schedplay replay -until %s) or cut the trace shorter%s", e.Limit, e.What, e.At, e.Option, scenario.FormatDuration(e.Span()), hint)
}

// Span is a span from the trace's start that fits the bound where the
// bound's count grows evenly over the trace: nine tenths of At, rounded
// down to a millisecond (a microsecond below 10 ms); at least 1 us.
func (e *LimitError) Span() sched.Time {
	s := e.At * 9 / 10
	unit := sched.Millisecond
	if s < 10*sched.Millisecond {
		unit = sched.Microsecond
	}
	return max(s/unit*unit, sched.Microsecond)
}
