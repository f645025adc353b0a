package sched

// Wakeup placement on asymmetric CPU capacity: kernel/sched/fair.c
// select_idle_capacity(), asym_fits_cpu() and the asymmetric part of
// select_idle_sibling() (sync_entity_load_avg() of the wakee, then the
// per-candidate fit test and the sd_asym_cpucapacity scan). The hooks are
// in sis.go.
//
// v6.6: when sched_asym_cpucap_active(), select_idle_sibling() brings the
// wakee's PELT up to its old cfs_rq's last update, then takes target, prev
// or recent_used_cpu only if idle AND the task fits there
// (asym_fits_cpu()); failing those, and when the CPU has an
// sd_asym_cpucapacity domain (the lowest with SD_ASYM_CPUCAPACITY_FULL),
// select_idle_capacity() scans that domain's span & p's affinity from
// target (for_each_cpu_wrap(cpu, cpus, target): target itself first) and
// returns the first idle (or SCHED_IDLE-only) CPU the task fits, else the
// idle CPU with the biggest capacity_of() (the first of equals), else
// target. The LLC scans (select_idle_core/cpu/smt) are not used on such
// machines.
//
// v5.8 [M order]: select_idle_capacity() (added in v5.7, 'sched/fair: Add
// asymmetric CPU capacity wakeup scan', with wake_cap() removed) runs first
// in select_idle_sibling(), before the target/prev/recent checks, and
// there is no asym_fits_capacity() on those checks; the wakee's PELT is not
// synced first.
//
// SIMPLIFIED (see misfit.go): no uclamp (util_fits_cpu() returns 0 or 1,
// never -1, so the thermal-pressure capacity branch is unused), no EAS (find_energy_efficient_cpu(): no energy model).

// asymFitsCPU mirrors asym_fits_cpu(): always true without asymmetric
// capacities.
func (s *Sim) asymFitsCPU(util int64, c CPUID) bool {
	if !s.asymCapActive {
		return true
	}
	return s.utilFitsCPU(util, c)
}

// syncEntityLoadAvg mirrors sync_entity_load_avg(): a blocked task's
// averages decayed to its cfs_rq's last update.
func (s *Sim) syncEntityLoadAvg(p *Task) {
	se := &p.se.avg
	if !se.attached || p.se.onRq {
		return
	}
	q := s.cfsOf(p)
	if updateLoadSum(q.avg.lastUpdateTime, se, 0, 0, false) {
		updateLoadAvgSums(se, s.seWeight(p))
	}
}

// sisAsymUtil is the start of v6.6 select_idle_sibling() on asymmetric
// capacity: sync the wakee's PELT and return task_util_est().
func (s *Sim) sisAsymUtil(p *Task) int64 {
	if !s.asymCapActive {
		return 0
	}
	s.syncEntityLoadAvg(p)
	return s.taskUtilEst(p)
}

// sisAsymCapacity is select_idle_sibling()'s asymmetric branch: ok is
// false when it does not apply (no asymmetric capacity or no
// sd_asym_cpucapacity above target).
func (s *Sim) sisAsymCapacity(p *Task, target CPUID) (CPUID, bool) {
	if !s.asymCapActive {
		return -1, false
	}
	sd := s.topo[target].sdAsymCPUCap
	if sd == nil {
		return -1, false
	}
	if i := s.selectIdleCapacity(p, sd, target); i >= 0 {
		return i, true
	}
	return target, true
}

// selectIdleCapacity mirrors select_idle_capacity(p, sd, target).
func (s *Sim) selectIdleCapacity(p *Task, sd *schedDomain, target CPUID) CPUID {
	util := s.taskUtilEst(p)
	best, bestCap := CPUID(-1), int64(0)
	r, _ := scanWrap(sd.cpus, target-1, func(c CPUID) (CPUID, bool) {
		if !p.affinity.has(c) || !s.idleOrSchedIdle(c) {
			return -1, false
		}
		if s.utilFitsCPU(util, c) {
			return c, true
		}
		if capa := s.topo[c].cpuCapacity; capa > bestCap {
			best, bestCap = c, capa
		}
		return -1, false
	})
	if r >= 0 {
		return r
	}
	return best
}
