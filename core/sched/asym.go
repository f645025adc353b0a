package sched

// Asym packing (SD_ASYM_PACKING, x86 ITMT priorities): kernel/sched/fair.c
// sched_use_asym_prio(), sched_asym() / sched_group_asym() (the
// group_asym_packing test of update_sg_lb_stats()), and the per-version
// gates of the asym rules whose call sites are in lbstats.go (group
// classification, update_sd_pick_busiest(), find_busiest_group()'s
// force_balance, calculate_imbalance()), balance.go
// (asym_active_balance() in need_active_balance()) and newidle.go (the
// nohz_balancer_kick() asym test). Also the migration reason of a balance
// pass (asym_packing, misfit). The priorities themselves:
// setAsymPriorities() in domain_build.go (arch_asym_cpu_priority()).
//
// v6.6 (since v6.5, Ricardo Neri's "sched/fair: Only do asym_packing load
// balancing from fully idle SMT cores" and "Let low-priority cores help
// high-priority busy SMT cores" [R vendor post-6.18 tree, same rules]): a
// destination CPU uses its priority only when SMT is off, or the domain is
// the SMT level, or its whole core is idle (sched_use_asym_prio(); an idle
// SMT sibling of a busy core does not pull by priority); a group of SMT
// siblings is an asym-packing source only when exactly one sibling is busy.
// v5.8 (and v3.11, SIMPLIFIED as v5.8) [M]: neither rule: any idle CPU
// with a higher priority than the group's asym_prefer_cpu pulls
// (sched_asym_prefer() only), in update_sg_lb_stats(),
// find_busiest_queue(), asym_active_balance() and nohz_balancer_kick().
// The v5.18-v6.4 asym_smt_can_pull_tasks() has no profile here.

// useAsymPrio mirrors sched_use_asym_prio() (v6.5+; always true before).
func (s *Sim) useAsymPrio(sd *schedDomain, c CPUID) bool {
	if !s.smtActive || !s.rules.useAsymPrio {
		return true
	}
	return sd.flags&SDShareCPUCapacity != 0 || s.siblingsIdle(c)
}

// siblingsIdle mirrors is_core_idle(): every SMT sibling of c other than c
// itself is idle. c's own state does not count, which matters where c is
// a busy source CPU (find_busiest_queue()'s sched_asym(sd, i, dst_cpu): a
// busy CPU alone on its core keeps its single task from a lower-priority
// destination). The simulator's coreIdle() (sis.go) counts c too; using it
// here made the E-cores of alderlake-6p8e with SCHED_CLUSTER pull lone hogs
// off the P-cores by active balance and asym packing push them back (test:
// testdata/mp/asym_packing_alderlake.txt).
func (s *Sim) siblingsIdle(c CPUID) bool {
	for _, x := range s.topo[c].smt {
		if x != c && !s.idleCPU(x) {
			return false
		}
	}
	return true
}

// schedAsym mirrors sched_asym(sd, dst, src): dst may pull from src by
// priority.
func (s *Sim) schedAsym(sd *schedDomain, dst, src CPUID) bool {
	return s.useAsymPrio(sd, dst) && s.schedAsymPrefer(dst, src)
}

// sgAsymPacking mirrors sched_group_asym() (v6.5+ sched_asym() with the
// group argument): a non-local group with runnable tasks whose preferred
// CPU has a lower priority than an idle destination.
func (s *Sim) sgAsymPacking(env *lbEnv, g *schedGroup, st *sgStats) bool {
	if s.rules.asymSMTGroupOneBusy && g.flags&SDShareCPUCapacity != 0 && st.weight-st.idleCPUs != 1 {
		return false // more than one busy SMT sibling: priorities do not apply
	}
	return s.schedAsym(env.sd, env.dst, g.asymPreferCPU)
}

// lbMigrationReason is the reason a balance pass's migrations carry: the
// rule that chose them when it is specific (migrate_misfit, a
// group_asym_packing busiest group), else the balance path's own reason.
func (s *Sim) lbMigrationReason(env *lbEnv) Reason {
	switch {
	case env.migrationType == migrateMisfit:
		return ReasonMisfit
	case s.lbBusiest.groupType == groupAsymPacking:
		return ReasonAsymPacking
	}
	return env.why
}
