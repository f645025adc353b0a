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
//
// How often a task reads is in the trace only when it has sched_stat_runtime:
// each read's update_curr() prints one, runtime= the CPU time since the
// task's previous update. The updates of a running task that no switch,
// interrupt entry, wakeup or migration on its CPU explains (none at its
// instant or ReadCauseWindow before) are its reads; a fair task with at
// least MinClockReads of them, their median interval shorter than a
// quarter of a jiffy (more often than the tick could explain) and their
// intervals spanning at least half its CPU time (it reads throughout its
// bursts, not now and then: a sched_yield() or a getrusage() also runs
// update_curr()), reads its clock every that median: its cpu_clock_poll is that interval
// (Task.ClockReads counts the reads; Task.ClockPollTraced says the
// interval is the trace's). Each printed event costs the task the
// tracepoint's own time, so the traced interval is an upper bound of the
// untraced program's. Without sched_stat_runtime the interval is the
// default above, and the summary says so.

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
	// MinClockReads is the fewest unexplained sched_stat_runtime updates
	// that give a reader its traced interval.
	MinClockReads = 20
	// ReadCauseWindow: an update this close after an interrupt entry,
	// wakeup or migration on the CPU may be theirs, not a read.
	ReadCauseWindow = 5 * sched.Microsecond
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

// runtimesBefore takes the sched_stat_runtime updates up to event i's
// time: an update of the task running on its CPU that nothing else on the
// CPU explains is one of its clock reads.
func (in *inferrer) runtimesBefore(i int) {
	rts := in.tr.Runtimes
	now := in.tr.Events[i].Time
	for ; in.nextRT < len(rts) && rts[in.nextRT].Time <= now; in.nextRT++ {
		r := &rts[in.nextRT]
		if r.CPU < 0 || r.CPU >= len(in.on) || r.Runtime <= 0 {
			continue
		}
		id := in.on[r.CPU]
		if id == sched.NoTask || in.st[id].idx < 0 || !in.st[id].running || in.tr.Tasks[id].PID != r.PID {
			continue
		}
		if in.updateExplained(i, r.CPU, r.Time) {
			continue
		}
		in.st[id].reads = append(in.st[id].reads, r.Runtime)
	}
}

// updateExplained reports whether an update on cpu at t is a switch's
// (__schedule() updates prev's time just before it prints sched_switch:
// a switch on cpu within ReadCauseWindow after t), another event's on cpu
// at t, or follows an interrupt, wakeup or migration there within
// ReadCauseWindow.
func (in *inferrer) updateExplained(i, cpu int, t sched.Time) bool {
	for k := i; k < len(in.tr.Events) && in.tr.Events[k].Time <= t+ReadCauseWindow; k++ {
		e := &in.tr.Events[k]
		if e.Kind == sched.EvSwitch && int(e.CPU) == cpu {
			return true
		}
		if e.Time == t && (int(e.CPU) == cpu || e.Kind != sched.EvSwitch && int(e.Arg) == cpu) {
			return true
		}
	}
	if c := in.causes; c != nil {
		c.until(t)
		if c.last[cpu] >= 0 && c.last[cpu] >= t-ReadCauseWindow {
			return true
		}
	}
	return false
}

// inferClockPoll sets ClockPoll on the tasks the rules pick: the traced
// interval of a task whose sched_stat_runtime updates show its reads, else
// the default for a task whose self-preemptions show that it reads.
func (in *inferrer) inferClockPoll() {
	poll := in.opts.ClockPoll
	if poll == 0 {
		poll = DefaultClockPoll
	}
	jiffy := sched.Time(4 * sched.Millisecond) // HZ 250 when the trace does not say
	if in.w.HZ > 0 {
		jiffy = sched.Time(int64(sched.Second) / int64(in.w.HZ))
	}
	for id := range in.st {
		s := &in.st[id]
		if s.idx < 0 || len(s.reads) == 0 {
			continue
		}
		t := &in.w.Tasks[s.idx]
		t.ClockReads = len(s.reads)
		var covered sched.Time // the CPU time the reads' intervals span
		for _, r := range s.reads {
			covered += r
		}
		if n, med := median(s.reads); n >= MinClockReads && 4*med < jiffy && 2*covered >= t.Runtime &&
			t.Policy == sched.SchedOther && poll > 0 {
			t.ClockPoll, t.ClockPollTraced = med, true
		}
	}
	if in.causes == nil {
		return
	}
	for i := range in.w.Tasks {
		t := &in.w.Tasks[i]
		if !t.ClockPollTraced && t.SelfPreemptions >= MinSelfPreemptions && 4*t.SelfPreemptions >= t.Preemptions &&
			t.Policy == sched.SchedOther && poll > 0 {
			t.ClockPoll = poll
		}
	}
}

// ClockSummary says in one line what the trace told of clock reads: that
// it cannot tell (no timer interrupt entries), or which tasks were given
// cpu_clock_poll and on how many of their preemptions.
func (w *Workload) ClockSummary() string {
	if traced := w.tracedPolls(); traced != "" {
		return traced
	}
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
	return fmt.Sprintf("clock reads: %d of %d tasks inferred to read their CPU clock, given cpu_clock_poll %s (a default: the trace has no sched_stat_runtime to show how often they read): %s", n, len(w.Tasks), scenario.FormatDuration(clockPollOf(w)), b.String())
}

// tracedPolls summarizes the readers whose interval the trace's
// sched_stat_runtime shows, "" when none.
func (w *Workload) tracedPolls() string {
	var parts []string
	for i := range w.Tasks {
		if t := &w.Tasks[i]; t.ClockPollTraced {
			parts = append(parts, fmt.Sprintf("%s every %s (%d reads)", t.Group, scenario.FormatDuration(t.ClockPoll), t.ClockReads))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	others := 0
	for i := range w.Tasks {
		if t := &w.Tasks[i]; t.ClockPoll > 0 && !t.ClockPollTraced {
			others++
		}
	}
	msg := fmt.Sprintf("clock reads: %d tasks read their CPU clock at the intervals the trace's sched_stat_runtime shows (cpu_clock_poll; the tracer's own cost included): %s", len(parts), strings.Join(parts, ", "))
	if others > 0 {
		msg += fmt.Sprintf("; %d more from their self-preemptions, at the default %s", others, scenario.FormatDuration(DefaultClockPoll))
	}
	return msg
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
