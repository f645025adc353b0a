package sched

// The load balancer's own cost in simulated time: kernel/sched/fair.c
// update_sd_lb_stats() / update_sg_lb_stats() (every group and every CPU of
// the domain is read), sched_balance_find_src_rq() (find_busiest_queue():
// every CPU of the busiest group), detach_tasks() + attach_tasks(), the
// per-domain cost tracking of sched_balance_newidle() (sd->
// max_newidle_lb_cost, update_newidle_cost(), rq->max_idle_balance_cost)
// and its decay in sched_balance_domains() (rebalance_domains()).
//
// Cost model (hw.* keys, hw.go):
//
//	load_balance(sd) = lb_group_ns x groups(sd) + lb_cpu_ns x CPUs(sd)
//	                   [once should_we_balance() let it gather statistics]
//	                 + lb_cpu_ns x CPUs(busiest group)  [find_busiest_queue]
//	                 + lb_task_ns x tasks moved          [detach + attach]
//	                 [CPUs counted in env->cpus: each LBF_ALL_PINNED redo
//	                  pays the statistics again, one busiest CPU fewer]
//	newidle balance  = lb_blocked_ns [update_blocked_averages(this_cpu)]
//	                 + the load_balance() of every domain walked
//
// SIMPLIFIED: a cost per CPU visited stands for the remote cache misses of
// reading another CPU's rq and PELT sums; lock contention on the busiest
// rq, SMT slowdown of the balancing CPU and the cgroup count behind
// update_blocked_averages() are folded into the per-machine values; the
// tasks detach_tasks() scans without moving them (at most loop_max =
// min(sysctl_sched_nr_migrate, nr_running)) cost nothing.
//
// Where the time goes:
//   - newidle balance: a non-preemptible span on the balancing CPU
//     (irqoff.go, newidle.go) before it idles or runs the pulled task;
//   - periodic balance (SCHED_SOFTIRQ from the tick of a busy CPU): kernel
//     time of the interrupted task, preemptible as on PREEMPT_RT where
//     softirqs run in task context. SIMPLIFIED: on a non-RT kernel the
//     softirq would also hold off preemption; not modelled;
//   - nohz idle balance on behalf of idle CPUs: not charged (SIMPLIFIED;
//     the kicked CPU is idle and the balance runs at the kick's instant).
//
// Cost tracking, <= v5.15: load_balance()'s measured time raises
// sd->max_newidle_lb_cost; sched_balance_domains() decays it by 253/256
// once per second (next_decay_max_lb_cost) and sets
// rq->max_idle_balance_cost = max(sysctl_sched_migration_cost, sum of the
// domains' max_newidle_lb_cost); a newidle balance raises
// rq->max_idle_balance_cost to its curr_cost. avg_idle is capped at twice
// max_idle_balance_cost in ttwu_do_activate(). v5.16+ (Guittot, "sched/fair:
// Wait before decaying max_newidle_lb_cost", e60b56e46b38 [M hash]) moves
// both into update_newidle_cost(): a new maximum restarts the one-second
// wait, the decay happens only after a full second without one; and
// update_blocked_averages() counts in curr_cost (9e9af819db5d [M hash]).
// The NI_RANDOM success ratio (v6.19, 6.18.5) is newidle_ratio.go. The
// 6.17 bump of max_newidle_lb_cost on a failed newidle balance (155213a2aed4,
// capped at migration_cost + 200) is not modelled: no profile has it, 6.18.y
// reverted it (d206fbad9328) before the ratio came.

// lbCPUNsXeon4S is hw.lb_cpu_ns on xeon-4s18c, calibrated once on
// S2 (docs/VALIDATION.md) (see the key's Source and docs/kernel-rules.md §14).
const lbCPUNsXeon4S = 1900

// lbChargeStats is called by load_balance() once should_we_balance() let
// it gather statistics (balance.go): update_sd_lb_stats() visits every
// group and, in update_sg_lb_stats(), the CPUs of the group that are still
// in env->cpus (for_each_cpu_and(), so an LBF_ALL_PINNED redo reads one
// CPU fewer per busiest queue dropped). The cost accumulates in s.lbCost
// until the caller (newidle or periodic balance) takes it.
func (s *Sim) lbChargeStats(env *lbEnv) {
	n := 0
	for _, c := range env.sd.cpus {
		if env.cpus.has(c) {
			n++
		}
	}
	s.lbCost += s.hw.LBGroupNs*int64(len(env.sd.groups)) + s.hw.LBCPUNs*int64(n)
}

// lbChargeBusiest charges find_busiest_queue() over the busiest group's
// CPUs in env->cpus.
func (s *Sim) lbChargeBusiest(env *lbEnv, g *schedGroup) {
	n := 0
	for _, c := range g.cpus {
		if env.cpus.has(c) {
			n++
		}
	}
	s.lbCost += s.hw.LBCPUNs * int64(n)
}

// lbChargeMoved charges detach_task() + attach_task() for moved tasks.
func (s *Sim) lbChargeMoved(moved int) { s.lbCost += s.hw.LBTaskNs * int64(moved) }

// updateNewidleCost records a domain's newidle balance cost: the plain
// maximum up to v5.15, update_newidle_cost() from v5.16.
func (s *Sim) updateNewidleCost(sd *schedDomain, cost int64) {
	if cost > sd.maxNewidleLBCost {
		sd.maxNewidleLBCost = cost
		if s.rules.newidleCostDecayWait {
			sd.lastDecayJ = s.jiffies()
		}
		return
	}
	if j := s.jiffies(); s.rules.newidleCostDecayWait && j > sd.lastDecayJ+int64(s.cfg.Profile.HZ) {
		sd.maxNewidleLBCost = sd.maxNewidleLBCost * 253 / 256
		sd.lastDecayJ = j
	}
}

// decayNewidleCost is the decay step of sched_balance_domains() for every
// domain of rq, and the rq->max_idle_balance_cost update when one decayed.
func (s *Sim) decayNewidleCost(rq *rq) {
	j := s.jiffies()
	hz := int64(s.cfg.Profile.HZ)
	decayed := false
	var maxCost int64
	for sd := s.topo[rq.cpu].sd; sd != nil; sd = sd.parent {
		if j > sd.lastDecayJ+hz { // time_after(jiffies, next_decay) both ways
			sd.maxNewidleLBCost = sd.maxNewidleLBCost * 253 / 256
			sd.lastDecayJ = j
			decayed = true
		}
		maxCost += sd.maxNewidleLBCost
	}
	if decayed {
		rq.maxIdleBalanceCost = max(s.sys.MigrationCostNs, maxCost)
	}
}

// chargeSoftirqBalance charges the periodic balance just done from rq's
// tick (s.lbCost) as kernel time of the task it interrupted.
func (s *Sim) chargeSoftirqBalance(rq *rq) {
	d := s.lbCost
	s.lbCost = 0
	if d <= 0 || rq.curr == nil {
		return
	}
	s.stopRun(rq)
	s.chargeKernel(rq, rq.curr, d)
	s.armRun(rq)
}
