package sched

// The blocked-load update of idle CPUs run by a CPU going newly idle,
// v4.17..v5.12: kernel/sched/fair.c nohz_newidle_balance() ->
// _nohz_idle_balance(this_rq, NOHZ_STATS_KICK, CPU_NEWLY_IDLE) ->
// update_nohz_stats() -> update_blocked_averages(cpu) for every other
// tickless idle CPU (as read in the 5.x copies of fair.c; moved out of the
// newidle path by "sched/fair: Trigger the update of blocked load on newly
// idle cpu", c6f886546cb8, v5.13 [M version]).
//
// newidle_balance() calls it when it is gated off by !rd->overload (the
// avg_idle < sysctl_sched_migration_cost case returns early inside it),
// at most once per LOAD_AVG_PERIOD (32 ms, nohz.next_blocked) while some
// idle CPU has blocked load (nohz.has_blocked). It runs with this rq's lock
// dropped by raw_spin_unlock(): interrupts stay off (irqoff.go) unless
// NEWIDLE_IRQ_ON_UNLOCK (with NEWIDLE_FROM_FINISH_SWITCH) is on, whose diff
// also changes this unlock to raw_spin_unlock_irq(); then the RT task
// woken by its hrtimer sets need_resched() and the loop aborts at the next
// CPU ("If this CPU gets work to do, stop the load balancing work being
// done for other CPUs"), leaving nohz.next_blocked as it was.
//
// Cost: hw.lb_blocked_ns per idle CPU updated. SIMPLIFIED: every idle CPU
// is taken to have blocked load (rq->has_blocked_load: true until its load
// decays to zero, long after the idle periods of a loaded machine); the
// stats kick_ilb() after an aborted pass is not sent; the PELT of idle CPUs
// is brought up to date when read anyway (lbstats.go), so the pass only
// costs time.

// loadAvgPeriodMs is LOAD_AVG_PERIOD, the nohz.next_blocked interval.
const loadAvgPeriodMs = 32

// nohzNewidleStats runs the pass if it is due and returns its duration.
func (s *Sim) nohzNewidleStats(rq *rq) int64 {
	if !s.rules.nohzNewidleStats {
		return 0
	}
	if rq.avgIdle < s.sys.MigrationCostNs || s.jiffies() < s.nohzNextBlocked {
		return 0
	}
	rtAt := maxTime
	if s.feat.Has(NewidleIRQOnUnlock) && s.feat.Has(NewidleFromFinishSwitch) {
		rtAt = s.rtTimerAt(rq)
	}
	var span int64
	any := false
	for c := range s.rqs {
		if CPUID(c) == rq.cpu || !s.inNohzMask(CPUID(c)) || !s.idleCPU(CPUID(c)) {
			continue
		}
		any = true
		if rtAt <= s.now+Time(span) {
			return span // need_resched(): abort
		}
		span += s.hw.LBBlockedNs
	}
	if any { // nohz.has_blocked
		hz := int64(s.cfg.Profile.HZ)
		s.nohzNextBlocked = s.jiffies() + (loadAvgPeriodMs*hz+999)/1000
	}
	return span
}
