package sched

// nohz.idle_cpus_mask: kernel/sched/fair.c nohz_balance_enter_idle() and
// nohz_balance_exit_idle(), called from kernel/time/tick-sched.c
// tick_nohz_idle_stop_tick() (tick_nohz_stop_sched_tick() in v3.11) and
// from nohz_balancer_kick() (nohz_kick_needed() in v3.11); read in v6.18
// (the §9.1 copy of fair.c and a TS_FLAG_STOPPED tick-sched.c), v5.8 and
// v3.11 (docs/kernel-rules.md §9.9). The same in every profile.
//
// A CPU joins the mask (rq->nohz_tick_stopped, nohz.nr_cpus, its LLC's
// nr_busy_cpus drops) only when its tick actually stops in idle; an idle
// CPU whose governor keeps the tick is not in it and balances itself from
// that tick (balance_trigger.go). It leaves the mask at its first busy
// tick, not when it wakes: until then find_new_ilb() and
// _nohz_idle_balance() still walk it (and skip it while it is not
// idle_cpu()), and the LLC counts it as not busy. A CPU without sched
// domains never joins (on_null_domain()).
//
// On the ideal machine (no cpuidle driver) cpuidle_idle_call() stops the
// tick on every idle entry (tick_nohz_idle_stop_tick() before
// default_idle_call()): every idle CPU joins.

// nohzBalanceEnterIdle mirrors nohz_balance_enter_idle(): the tick of rq's
// CPU has just stopped.
func (s *Sim) nohzBalanceEnterIdle(rq *rq) {
	if s.topo[rq.cpu].sd == nil {
		return // on_null_domain()
	}
	rq.nohzTickStopped = true
}

// nohzBalanceExitIdle mirrors nohz_balance_exit_idle() from a busy tick.
func (s *Sim) nohzBalanceExitIdle(rq *rq) {
	rq.nohzTickStopped = false
}

// inNohzMask is cpumask_test_cpu(c, nohz.idle_cpus_mask).
func (s *Sim) inNohzMask(c CPUID) bool { return s.rqs[c].nohzTickStopped }
