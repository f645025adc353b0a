package sched

// The periodic balance from the tick: kernel/sched/core.c sched_tick()
// (`rq->idle_balance = idle_cpu(cpu)`), kernel/sched/fair.c
// sched_balance_trigger() and sched_balance_softirq() (trigger_load_balance()
// and run_rebalance_domains() before v6.10; read in v6.18, v5.8 and v3.11,
// docs/kernel-rules.md §9.9).
//
// sched_balance_trigger() raises SCHED_SOFTIRQ once jiffies reaches
// rq->next_balance and then calls nohz_balancer_kick(). The softirq, run at
// once on the same CPU here, balances with CPU_IDLE when rq->idle_balance
// is set (the idle intervals: sd->balance_interval without busy_factor)
// and CPU_NOT_IDLE otherwise. The tick of an idle CPU runs it too: a CPU
// whose governor keeps the tick in idle is not in nohz.idle_cpus_mask
// (nohz_mask.go), so nobody balances on its behalf; it does so itself, and
// nohz_balancer_kick() returns at once on it (`if (unlikely(rq->
// idle_balance)) return;`): an idle CPU never kicks the idle balancer,
// nor leaves the mask.

// SoftirqSched is SCHED_SOFTIRQ's vector (include/linux/interrupt.h), the
// Arg of an [EvSoftirq] event.
const SoftirqSched = 7

// triggerLoadBalance mirrors sched_balance_trigger() from the tick, with
// idle as rq->idle_balance, followed at once by the SCHED_SOFTIRQ work; the
// softirq's entry is an [EvSoftirq] event, whose spacing on a CPU shows
// each periodic pass's outcome (the next balance_interval), as
// softirq_entry does in a real trace.
func (s *Sim) triggerLoadBalance(rq *rq, idle bool) {
	if s.topo[rq.cpu].sd == nil {
		return // on_null_domain()
	}
	if s.jiffies() >= rq.nextBalance {
		if s.observed() {
			s.emit(Event{Kind: EvSoftirq, CPU: rq.cpu, Prev: NoTask, Next: NoTask, Arg: SoftirqSched})
		}
		typ := cpuNotIdle
		if idle {
			typ = cpuIdle
		}
		s.lbCost = 0
		s.rebalanceDomains(rq, typ, ReasonPeriodicBalance)
		s.chargeSoftirqBalance(rq) // lbcost.go
	}
	if !idle {
		s.nohzBalancerKick(rq)
	}
	s.lbCost = 0 // nohz idle balance is not charged (lbcost.go)
}
