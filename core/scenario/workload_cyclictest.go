package scenario

// Generator "cyclictest": rt-tests cyclictest (src/cyclictest/cyclictest.c,
// timerthread()).
//
// cyclictest starts `threads` SCHED_FIFO threads; thread i sleeps with
// clock_nanosleep(TIMER_ABSTIME) on a grid of period interval + i x
// distance (cyclictest adds -d to each next thread's interval unless
// histograms are on), measures how late it woke, and loops. With -a/-S
// thread i is pinned to CPU i. The simulator's per-task wakeup latency
// (sched_wakeup to switch-in: metrics `wakeup_latency_ns`, compare's
// latency.p50/p99/max@<name>.t<I>) is the scheduling part of what
// cyclictest reports; the hrtimer interrupt's own latency (from the
// programmed expiry to the interrupt handler) is part of cyclictest's
// figure and not of this metric; the timer latency (metrics
// `timer_latency_ns`, compare's timer_latency.*, from the hrtimer's hard
// expiry to switch-in) includes it, e.g. an interrupt held off by an
// irqs-off newidle balance (core/sched/irqoff.go).
//
// Model: one task group per thread, `<name>.t<I>`, so each thread has its
// own metrics: {timer absolute interval+I x distance; run cost}. RT tasks
// sleep with no timer slack, as in the kernel.
//
// SIMPLIFIED: the measurement work after each wakeup is a fixed CPU time
// (cost, default 2 us: clock_gettime, statistics, estimate); cyclictest's
// default distance is 500 us, here 0 (as with -h or --smp runs, rteval's).

var genCyclictest = &generator{
	kind: "cyclictest",
	models: "cyclictest: threads SCHED_FIFO (or RR) threads each on an absolute timer grid (interval + i*distance), pinned one per CPU " +
		"or free; each thread is its own task group NAME.tI, whose wakeup latency (latency.p50/p99/max@NAME.tI) is the scheduling part of cyclictest's latency",
	params: []Param{
		{Name: "threads", Type: PInt, Default: "0", Min: 0, Max: 4096, Help: "threads; 0 = one per CPU (cyclictest -S/--smp)"},
		{Name: "interval", Type: PDuration, Default: "1ms", Min: int64(10 * us), Max: int64(10 * sec), Help: "timer interval of thread 0 (cyclictest -i)"},
		{Name: "distance", Type: PDuration, Default: "0s", Min: 0, Max: int64(sec), Help: "interval increment per thread (cyclictest -d)"},
		{Name: "priority", Type: PInt, Default: "95", Min: 1, Max: 99, Help: "rt_priority (cyclictest -p; rteval uses 95)"},
		{Name: "policy", Type: PEnum, Default: "SCHED_FIFO", Enum: []string{"SCHED_FIFO", "SCHED_RR"}, Help: "RT policy (cyclictest --policy)"},
		{Name: "pinned", Type: PBool, Default: "true", Help: "pin thread i to CPU i mod CPUs (cyclictest -a)"},
		{Name: "cost", Type: PDuration, Default: "2us", Min: 0, Max: int64(ms), Help: "CPU work after each wakeup (estimate)"},
		{Name: "loops", Type: PInt, Default: "0", Min: 0, Max: 1_000_000_000, Help: "cycles per thread (cyclictest -l); 0 = until the end of the run"},
	},
	expand: expandCyclictest,
}

func expandCyclictest(x *expander) error {
	n := x.int("threads")
	if n == 0 {
		n = x.ncpu
	}
	interval, distance, cost := x.dur("interval"), x.dur("distance"), x.dur("cost")
	loop := x.int("loops")
	if loop == 0 {
		loop = -1
	}
	if interval+Duration(n-1)*distance > MaxDurationValue {
		return x.fail("distance", "the last thread's interval would exceed %s", FormatDuration(MaxDurationValue))
	}
	for i := range n {
		prog := []Step{stTimer("t", interval+Duration(i)*distance, "absolute")}
		if cost > 0 {
			prog = append(prog, stRun(cost))
		}
		t := Task{Name: x.group(itoa("t", i)), Instances: 1, Policy: x.str("policy"), Priority: x.int("priority"), Loop: loop, Program: prog}
		if x.bool("pinned") {
			t.CPUs = []int{i % x.ncpu}
		}
		x.add(t)
	}
	return nil
}
