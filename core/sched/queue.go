package sched

// The engine's event queue: a binary min-heap of values ordered by (time,
// priority, sequence). The sequence number is the order of insertion, so events at the
// same instant run in the order they were scheduled: a fixed, documented tie
// rule that makes runs reproducible. No interfaces, no allocation once grown.

type qkind uint8

const (
	qStart         qkind = iota // a scenario task is created
	qRunDone                    // the running task on cpu finishes its run op (gen-checked)
	qWake                       // task's sleep or timer expires (gen-checked)
	qTick                       // scheduler tick on cpu
	qEnd                        // the run's duration is reached
	qResched                    // a reschedule IPI arrives at cpu
	qActiveBalance              // the stopper runs active_load_balance_cpu_stop on cpu
	qRTPeriod                   // the global rt_period_timer (sched_rt_period_timer), gen-checked
	qFairServer                 // v6.12+: cpu's fair server hrtimer (dl_timer), gen-checked
	qIdle                       // the next step of cpu's idle path (idle.go), gen-checked
	qCSDQueue                   // task's call-function request reaches cpu's call_single_queue (csd.go)
	qCSDIPI                     // a call-function IPI arrives at cpu (csd.go)
	qCSDDone                    // cpu ran task's function: its csd_lock_wait() ends (csd.go)
	qDLTimer                    // a deadline task's replenishment timer (dl_timer), gen-checked
	qCfsPeriod                  // cgroup task's (the cgroup number) cfs_bandwidth period timer, gen-checked
	qCfsSlack                   // cgroup task's cfs_bandwidth slack timer, gen-checked
	qRTGroupPeriod              // cgroup task's rt_bandwidth period timer (rt_group.go), gen-checked
	qClockPoll                  // the running task on cpu reads its CPU clock (clock_poll.go), gen-checked
	qIRQExit                    // cpu returns from a charged hrtimer interrupt (timer_irq.go)
)

// Priorities order events at the same instant before the sequence number:
// a CPU's tick comes before timer wakeups due then, as the tick's hrtimer
// has the earlier hard expiry (a sleeper's expiry includes its slack).
// A running task's CPU-clock read (clock_poll.go) comes after the tick and
// before the rest: the read at the instant its run's work is done is the
// one that finds it done, so it runs update_curr() before the run ends.
const (
	prioTick  uint8 = 0
	prioRead  uint8 = 1
	prioTimer uint8 = 2
)

type qevent struct {
	at   Time
	seq  uint64
	task TaskID
	cpu  CPUID
	gen  uint32
	kind qkind
	prio uint8
}

type eventQueue struct {
	h   []qevent
	seq uint64
}

// before is the heap order: (time, priority, sequence). Sequence numbers
// are unique, so the order is total and the pops come out the same
// whatever the heap's internal layout.
func before(a, b *qevent) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.prio != b.prio {
		return a.prio < b.prio
	}
	return a.seq < b.seq
}

// push and pop move a hole rather than swapping: one 32-byte copy per
// level instead of three (the swaps were most of the queue's cost in WASM,
// where every struct copy goes through linear memory).
func (q *eventQueue) push(e qevent) {
	e.seq = q.seq
	q.seq++
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !before(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) peek() *qevent { return &q.h[0] }

func (q *eventQueue) pop() qevent {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := &h[n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && before(&h[r], &h[l]) {
			m = r
		}
		if !before(&h[m], last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = *last
	q.h = h[:n]
	return top
}
