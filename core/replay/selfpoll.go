package replay

// Tasks that read their own CPU clock: self-preemptions in a trace with
// interrupt entries.
//
// __schedule() switches a task out runnable (prev_state R) only when
// need_resched was set on its CPU (or the task yielded). Something on the
// CPU sets it: the tick (scheduler_tick() -> update_curr() ->
// update_deadline() -> resched_curr(), from the timer interrupt), a remote
// wakeup (the reschedule or call-function IPI, or the polling idle's bit,
// with the sched_wakeup naming the CPU), a wakeup or migration the CPU
// itself made (wakeup_preempt()), or an interrupt's handler. When none of
// these happened on the CPU since the task was switched in, within
// DefaultSelfWindow before the switch, the task set it itself in a
// system call: clock_gettime(CLOCK_THREAD_CPUTIME_ID) is one
// (task_sched_runtime() runs update_curr(), which on EEVDF ends a used-up
// slice between ticks: core/sched/clock_poll.go), and the CPU burns of
// benchmarks poll it. Such a switch is a self-preemption.
//
// A task with at least MinSelfPreemptions self-preemptions making at
// least a quarter of its preemptions is taken to poll its CPU clock: an
// untraced cause (an NMI, an interrupt whose entry event was not enabled,
// events lost, a sched_yield(), which looks the same) accounts for a few
// in a hundred preemptions, while a task whose reads end its slices shows
// one at nearly every slice end that no tick or wakeup came close to. The
// rule is the same for every trace. The trace shows that the task polls,
// not how often: the scenario's cpu_clock_poll is Options.ClockPoll,
// DefaultClockPoll unless set, the trace's timestamp precision (the
// default ftrace clock prints microseconds), the smallest interval the
// trace could tell from reading at every instant. The inference needs
// timer interrupt entries (local_timer_entry or hrtimer_expire_entry): a
// trace without them cannot show the tick, so nothing is inferred
// (Workload.ClockEvidence says which).

import (
	"fmt"
	"strings"

	"schedplay/core/ftraceimport"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// Defaults of the clock-read inference.
const (
	// DefaultSelfWindow: an interrupt or wakeup this close before a
	// preemption may have caused it (the handler or IPI to the switch is a
	// few microseconds); as scripts/replaytrace/selfpreempt.go counts.
	DefaultSelfWindow = 20 * sched.Microsecond
	// MinSelfPreemptions is the fewest self-preemptions that infer a clock
	// reader (with at least a quarter of its preemptions).
	MinSelfPreemptions = 3
	// DefaultClockPoll is the inferred reader's cpu_clock_poll.
	DefaultClockPoll = sched.Microsecond
)

// causes tracks, per CPU, the last event that could have set need_resched
// there and when the running task was switched in.
type causes struct {
	irqs     []ftraceimport.IRQEntry
	next     int // index into irqs
	last     []sched.Time
	switchIn []sched.Time
	window   sched.Time
}

func newCauses(tr *ftraceimport.Trace, window sched.Time) *causes {
	c := &causes{irqs: tr.IRQs, window: window,
		last: make([]sched.Time, tr.NumCPUs), switchIn: make([]sched.Time, tr.NumCPUs)}
	for i := range c.last {
		c.last[i] = -1
	}
	return c
}

// hasTimer reports whether the trace has timer interrupt entries.
func (c *causes) hasTimer() bool {
	for _, q := range c.irqs {
		if q.Kind == ftraceimport.IRQTimer {
			return true
		}
	}
	return false
}

// until takes in the interrupt entries up to now.
func (c *causes) until(now sched.Time) {
	for ; c.next < len(c.irqs) && c.irqs[c.next].Time <= now; c.next++ {
		c.mark(c.irqs[c.next].CPU, c.irqs[c.next].Time)
	}
}

func (c *causes) mark(cpu int, at sched.Time) {
	if cpu >= 0 && cpu < len(c.last) {
		c.last[cpu] = at
	}
}

// self reports whether a preemption on cpu at now had no cause there.
func (c *causes) self(cpu int, now sched.Time) bool {
	if cpu < 0 || cpu >= len(c.last) {
		return false
	}
	from := max(c.switchIn[cpu], now-c.window)
	return c.last[cpu] < from
}

// clockEvent updates the causes at event i, before the inferrer handles it
// (so the waker's CPU is still known).
func (in *inferrer) clockEvent(i int) {
	c := in.causes
	if c == nil {
		return
	}
	e := &in.tr.Events[i]
	c.until(e.Time)
	switch e.Kind {
	case sched.EvSwitch:
		cpu := int(e.CPU)
		if p := e.Prev; p != sched.NoTask && e.PrevState == 'R' && in.st[p].idx >= 0 && c.self(cpu, e.Time) {
			in.task(p).SelfPreemptions++
		}
		if cpu >= 0 && cpu < len(c.switchIn) {
			c.switchIn[cpu] = e.Time
		}
	case sched.EvWakeup:
		c.mark(int(e.CPU), e.Time)
		c.mark(int(e.Arg), e.Time)
		if w := in.tr.Wakes[i].Waker; w != sched.NoTask && int(w) < len(in.st) && in.st[w].running {
			c.mark(in.st[w].cpu, e.Time)
		}
	case sched.EvWakeupNew, sched.EvPISetprio:
		c.mark(int(e.CPU), e.Time)
	case sched.EvMigrate:
		c.mark(int(e.CPU), e.Time)
		c.mark(int(e.Arg), e.Time)
	}
}

// inferClockPoll sets ClockPoll on the tasks the rule picks.
func (in *inferrer) inferClockPoll() {
	if in.causes == nil {
		return
	}
	poll := in.opts.ClockPoll
	if poll == 0 {
		poll = DefaultClockPoll
	}
	for i := range in.w.Tasks {
		t := &in.w.Tasks[i]
		if t.SelfPreemptions >= MinSelfPreemptions && 4*t.SelfPreemptions >= t.Preemptions &&
			t.Policy == sched.SchedOther && poll > 0 {
			t.ClockPoll = poll
		}
	}
}

// ClockSummary says in one line what the trace told of clock reads: that
// it cannot tell (no timer interrupt entries), or which tasks were given
// cpu_clock_poll and on how many of their preemptions.
func (w *Workload) ClockSummary() string {
	if !w.ClockEvidence {
		return "clock reads: the trace has no timer interrupt entries (local_timer_entry, hrtimer_expire_entry): which tasks read their CPU clock cannot be inferred; no task is given cpu_clock_poll"
	}
	var b strings.Builder
	n := 0
	for i := range w.Tasks {
		t := &w.Tasks[i]
		if t.ClockPoll <= 0 {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		fmt.Fprintf(&b, "%s (%d of %d preemptions self)", t.Group, t.SelfPreemptions, t.Preemptions)
	}
	if n == 0 {
		return fmt.Sprintf("clock reads: no task has %d self-preemptions making a quarter of its preemptions; no task is given cpu_clock_poll", MinSelfPreemptions)
	}
	return fmt.Sprintf("clock reads: %d of %d tasks inferred to read their CPU clock, given cpu_clock_poll %s: %s", n, len(w.Tasks), scenario.FormatDuration(clockPollOf(w)), b.String())
}

// clockPollOf is the interval given to the inferred readers (one for all).
func clockPollOf(w *Workload) sched.Time {
	for _, t := range w.Tasks {
		if t.ClockPoll > 0 {
			return t.ClockPoll
		}
	}
	return 0
}
