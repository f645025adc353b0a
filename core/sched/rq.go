package sched

// Per-CPU runqueue (struct rq): the running task, the fair queue, the
// need-resched flags, and the engine's bookkeeping for the running task's
// progress and the tick.

import "math/rand/v2"

type rq struct {
	cpu       CPUID
	capacity  int64 // the CPU's speed alone (topology Capacity)
	speed     int64 // speed of the current run segment under contention (contention.go)
	smtSpeed  int64 // capacity with a busy SMT sibling (contention.go)
	curr      *Task // rq->curr; nil = the idle task
	nrRunning int   // rq->nr_running: queued fair tasks incl. curr and delayed ones (beside curr: idle_cpu() reads both)
	cfs       cfsRq
	rt        rtRq // the RT class (rt.go)
	dl        dlRq // the deadline class (dl.go)

	needResched     bool // TIF_NEED_RESCHED
	needReschedLazy bool // TIF_NEED_RESCHED_LAZY
	reschedReason   Reason
	reschedBy       TaskID
	ipiPending      bool // a reschedule request is in flight to this CPU

	runGen    uint32 // generation of the pending qRunDone
	pollGen   uint32 // generation of the pending qClockPoll (clock_poll.go)
	pollFrom  Time   // start of curr's CPU time not yet in its pollDone (clock_poll.go)
	pollAlone bool   // the pending read was found with curr alone on its cfs_rq (clock_poll.go)
	pollLapse Time   // then: the first read that would be an event without the alone case
	segStart  Time   // when curr's current run segment started
	tickArmed bool
	timers    []armedTimer // sleepers' hrtimers queued on this CPU
	idleSince Time

	// PELT clocks (pelt.go), ns: rq->clock (== clock_task: IRQ time is not
	// modelled), rq->clock_pelt and rq->lost_idle_time.
	clock, clockPelt, lostIdleTime uint64
	// rq->clock_idle and rq->clock_pelt_idle: rq_clock() and rq_clock_pelt()
	// at the last idle sync (pelt_migrate_lag.go).
	clockIdle, clockPeltIdle uint64

	// Load balancing (balance.go).
	nextBalance   int64 // rq->next_balance, jiffies
	activeBalance bool  // rq->active_balance: the stopper work is queued
	pushCPU       CPUID // rq->push_cpu
	distPrev      CPUID // distribute_cpu_mask_prev of cpumask_any_and_distribute() (affinity.go)
	avgIdle       int64 // rq->avg_idle, ns
	// rq->max_idle_balance_cost, ns (lbcost.go); caps avg_idle at twice it.
	maxIdleBalanceCost int64
	// rq->nohz_tick_stopped: in nohz.idle_cpus_mask (nohz_mask.go).
	nohzTickStopped bool
	// Non-preemptible span (irqoff.go): until spanUntil the CPU takes no
	// interrupt; lbSpan is the newidle balance time the next switch adds.
	spanUntil  Time
	lbSpan     int64
	idleStamp  Time  // rq->idle_stamp; 0 = not idle since the last wakeup
	clockAt    Time  // the last update_rq_clock() (rq_clock.go)
	misfitLoad int64 // rq->misfit_task_load (misfit.go)

	// rnd is sched_rnd_state, NI_RANDOM's die (newidle_ratio.go), made
	// at first use.
	rnd *rand.Rand

	// Idle path, IPIs and kernel costs (idle.go, cpuidle_menu.go, ipi.go,
	// tick_nohz.go).
	idle      idleCPU
	tickGen   uint32      // cancels a pending qTick when the tick is stopped
	kernUntil Time        // curr runs kernel code (sys) until then; its work starts after
	irqUntil  Time        // the CPU is in a charged hrtimer interrupt until then (timer_irq.go)
	ipiKind   byte        // the kind of the IPI in flight ('R' or 'F')
	csd       []TaskID    // call_single_queue: senders spinning on a queued function (csd.go)
	wakeList  []wakeEntry // rq->wake_list / the TTWU entries of call_single_queue; non-empty = rq->ttwu_pending (wakelist.go)
	cfsbCSD   []*cfsRq    // cfsb_csd_list: cfs_rqs waiting for the async unthrottle (cgroup_unthrottle_async.go)
}
