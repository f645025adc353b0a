package sched

// Newly idle and nohz idle balancing: kernel/sched/fair.c
// sched_balance_newidle() (newidle_balance / idle_balance), the rq->avg_idle
// update of ttwu_do_activate() (core.c), nohz_balancer_kick() / kick_ilb()
// and _nohz_idle_balance().
//
// sched_balance_newidle() (v5.16+ gating): skip unless the root domain is
// overloaded (rd->overload: set when a runqueue reaches two tasks, recomputed
// by every balance of the root domain) and avg_idle is at least the first
// domain's max_newidle_lb_cost; then each SD_BALANCE_NEWIDLE domain
// bottom-up runs sched_balance_rq(CPU_NEWLY_IDLE) until a task was pulled,
// and rq->next_balance is pulled in to the domains' idle intervals.
// Up to v5.15 the gate is avg_idle < sysctl_sched_migration_cost. Under
// NI_RANDOM (v6.18 profile) a die decides per domain whether it is
// balanced at all, in proportion to its success rate (newidle_ratio.go). Each
// domain is walked only while avg_idle >= curr_cost + the domain's
// max_newidle_lb_cost (the cut-off). The walk costs simulated time
// (lbcost.go): a non-preemptible, interrupts-off span on this CPU
// (irqoff.go), shortened by the RFC patches of S2 (docs/VALIDATION.md)
// (NEWIDLE_IRQ_ON_UNLOCK, NEWIDLE_RT_ABORT) as irqoff.go describes.
//
// nohz idle balance, SIMPLIFIED: a busy CPU's tick checks
// nohz_balancer_kick()'s conditions (some CPU idle, jiffies >=
// nohz.next_balance, and this CPU has >= 2 runnable tasks, or a
// higher-priority asym-packing CPU is idle, or its LLC has more than one
// busy CPU, or, with asymmetric capacities, this CPU's runqueue is
// misfit) and then, at the same instant and without
// the IPI latency, runs sched_balance_domains(CPU_IDLE) on behalf of every
// idle CPU of nohz.idle_cpus_mask (tick stopped, nohz_mask.go) whose
// rq->next_balance is due (the kicked ILB CPU's
// _nohz_idle_balance()). Pulled tasks reach their idle CPU with a
// reschedule IPI (wakeup_preempt). The idle CPUs are visited from the
// kicked CPU + 1, wrapping, as _nohz_idle_balance() does. nohz.next_balance
// becomes now+1 jiffy at the kick, then the earliest next_balance of the
// idle CPUs. The stats-only kick
// (blocked load) is replaced by refreshing an idle CPU's PELT when
// balancing reads it.

// updateNextBalance mirrors update_next_balance(): the idle interval.
func (s *Sim) updateNextBalance(sd *schedDomain, next *int64) {
	if n := sd.lastBalanceJ + s.balanceInterval(sd, false); *next > n {
		*next = n
	}
}

// newidleBalance mirrors sched_balance_newidle(); it returns the number of
// tasks pulled to rq and leaves the walk's duration in rq.lbSpan for the
// switch that follows (core.go). The span and the RFC patches that shorten
// it are described in irqoff.go, the costs in lbcost.go.
func (s *Sim) newidleBalance(rq *rq) int {
	j := s.jiffies()
	next := j + int64(s.cfg.Profile.HZ)
	rq.idleStamp = s.now
	rq.lbSpan = 0
	base := s.topo[rq.cpu].sd
	if base == nil {
		return 0
	}
	pulled := 0
	overload := s.rdOf(rq.cpu).overload // this_rq->rd->overload
	gated := !overload || rq.avgIdle < base.maxNewidleLBCost
	if !s.rules.newidleGateCost {
		gated = rq.avgIdle < s.sys.MigrationCostNs || !overload
	}
	if gated {
		s.updateNextBalance(base, &next)
		if !overload { // v4.17..v5.12 (nohz_stats.go)
			rq.lbSpan = s.nohzNewidleStats(rq)
			s.startSpan(rq, rq.lbSpan)
		}
	} else {
		// rtAt: when an RT task becomes runnable here during the walk.
		// Only with interrupts on while the lock is dropped can its
		// hrtimer fire inside the walk; RFC 2/3 does that on top of 1/3,
		// without which the caller (__schedule()) keeps them off
		// (irqoff.go).
		rtAt := maxTime
		if s.feat.Has(NewidleIRQOnUnlock) && s.feat.Has(NewidleFromFinishSwitch) {
			rtAt = s.rtTimerAt(rq)
		}
		// rtAbort: a should_we_balance() that refuses once an RT task is
		// runnable: the RFC's rq_has_runnable_rt_task(), or v6.x's
		// "dst_rq->nr_running > 0" for CPU_NEWLY_IDLE [M version].
		rtAbort := s.feat.Has(NewidleRTAbort) || s.rules.newidleBailOut
		span := s.hw.LBBlockedNs // update_blocked_averages(this_cpu)
		var cost int64           // curr_cost
		if s.rules.newidleCostBlocked {
			cost = span // 9e9af819db5d: counted in curr_cost
		}
		for sd := base; sd != nil; sd = sd.parent {
			s.updateNextBalance(sd, &next)
			if rq.avgIdle < cost+sd.maxNewidleLBCost {
				break
			}
			if sd.flags&SDBalanceNewidle != 0 {
				run, weight := s.newidleDice(rq, sd) // NI_RANDOM (newidle_ratio.go)
				if !run {
					continue
				}
				at := s.now + Time(span)
				if rtAbort && rtAt <= at {
					break // should_we_balance(): the RT task runs now
				}
				// load_balance() checks again at every redo and, with
				// 3/3, after detaching (balance.go).
				s.nlb = nlbAbort{t0: at, rtAt: rtAt, swb: rtAbort, detach: s.feat.Has(NewidleRTAbort)}
				s.lbCost = 0
				pulled, _ = s.loadBalance(rq.cpu, sd, cpuNewlyIdle, ReasonNewidleBalance)
				dc := s.lbCost
				s.lbCost = 0
				s.nlb = nlbAbort{rtAt: maxTime}
				s.updateNewidleCost(sd, dc)
				if s.feat.Has(NIRandom) {
					sd.ni.update(weight * int64(min(pulled, 1))) // update_newidle_cost(sd, cost, weight * !!pulled_task)
				}
				span += dc
				cost += dc
			}
			// sched_balance_newidle() ignores continue_balancing; the RT
			// task woken inside the walk counts in nr_running.
			if pulled > 0 || rq.nrRunning > 0 || rtAt <= s.now+Time(span) {
				break
			}
		}
		if cost > rq.maxIdleBalanceCost {
			rq.maxIdleBalanceCost = cost
		}
		rq.lbSpan = span
		s.startSpan(rq, span)
		if rq.cfs.nrQueued > 0 && pulled == 0 {
			pulled = 1
		}
	}
	if rq.nextBalance > next {
		rq.nextBalance = next
	}
	if pulled > 0 {
		rq.idleStamp = 0
	}
	return pulled
}

// updateAvgIdle mirrors the rq->avg_idle update of ttwu_do_activate(): a
// wakeup ends an idle period.
func (s *Sim) updateAvgIdle(rq *rq) {
	if rq.idleStamp == 0 {
		return
	}
	delta := int64(s.now - rq.idleStamp)
	if !s.rules.avgIdleBalanceCost {
		// v3.11 ttwu_do_wakeup() (read in a 3.11-era core.c, kernel-
		// rules.md 11.4): max = 2*sysctl_sched_migration_cost, and a
		// sample above it resets avg_idle to max. rq->
		// max_idle_balance_cost came later (v3.13 [M]).
		if maxIdle := 2 * s.sys.MigrationCostNs; delta > maxIdle {
			rq.avgIdle = maxIdle
		} else {
			rq.avgIdle += (delta - rq.avgIdle) / 8 // update_avg()
		}
		rq.idleStamp = 0
		return
	}
	maxIdle := 2 * rq.maxIdleBalanceCost // lbcost.go
	if rq.avgIdle > maxIdle {
		rq.avgIdle = maxIdle
	} else {
		rq.avgIdle += (delta - rq.avgIdle) / 8 // update_avg()
		rq.avgIdle = min(rq.avgIdle, maxIdle)
	}
	rq.idleStamp = 0
}

// nohzBalancerKick: see the file comment (simplified nohz_balancer_kick()
// + kick_ilb() + _nohz_idle_balance()).
func (s *Sim) nohzBalancerKick(rq *rq) {
	s.nohzBalanceExitIdle(rq) // the first busy tick after a tickless idle (nohz_mask.go)
	j := s.jiffies()
	if j < s.nohzNextBalance {
		return
	}
	// find_new_ilb(): the first idle CPU of nohz.idle_cpus_mask other
	// than this one.
	ilb := s.firstIdleOther(rq.cpu) // idle_hint.go
	if ilb < 0 {
		return
	}
	kick := rq.nrRunning >= 2
	if !kick {
		if sd := s.topo[rq.cpu].sdAsymPacking; sd != nil {
			for _, c := range sd.cpus {
				if s.inNohzMask(c) && s.schedAsym(sd, c, rq.cpu) { // for_each_cpu_and(.., nohz.idle_cpus_mask)
					kick = true
					break
				}
			}
		}
	}
	if !kick && s.topo[rq.cpu].sdAsymCPUCap != nil {
		kick = s.checkMisfitStatus(rq) // misfit.go
	} else if !kick && s.topo[rq.cpu].sdLLC != nil {
		busy := 0 // nr_busy_cpus: LLC CPUs not in nohz.idle_cpus_mask
		for _, c := range s.topo[rq.cpu].sdLLC.cpus {
			if !s.inNohzMask(c) {
				busy++
			}
		}
		kick = busy > 1
	}
	if !kick {
		return
	}
	s.nohzNextBalance = j + 1 // kick_ilb()
	if s.observed() {
		s.emit(Event{Kind: EvSoftirq, CPU: ilb, Prev: NoTask, Next: NoTask, Arg: SoftirqSched})
	}
	next, update := j+60*int64(s.cfg.Profile.HZ), false
	c := ilb
	for range s.rqs { // for_each_cpu_wrap(.., ilb+1): ilb last
		if c++; int(c) == len(s.rqs) {
			c = 0 // a wrap, not a division per CPU
		}
		irq := &s.rqs[c]
		if !s.inNohzMask(c) || !s.idleCPU(c) {
			continue // for_each_cpu_wrap(.., nohz.idle_cpus_mask, ..): !idle_cpu()
		}
		if j >= irq.nextBalance {
			s.rebalanceDomains(irq, cpuIdle, ReasonNohzIdleBalance)
		}
		if next > irq.nextBalance {
			next, update = irq.nextBalance, true
		}
	}
	if update {
		s.nohzNextBalance = next
	}
}
