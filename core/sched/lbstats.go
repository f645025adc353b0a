package sched

// Load-balancing statistics and decisions: kernel/sched/fair.c
// update_sd_lb_stats() / update_sg_lb_stats() with group_classify(),
// group_is_overloaded(), group_has_capacity(), sched_group_asym(),
// smt_balance(), update_sd_pick_busiest(), sibling_imbalance(),
// calculate_imbalance(), sched_balance_find_src_group()
// (find_busiest_group()), sched_balance_find_src_rq() (find_busiest_queue())
// and update_idle_cpu_scan() (SIS_UTIL).
//
// Read in a post-v6.18 vendor derivative of mainline fair.c
// (docs/kernel-rules.md §9); its vendor group types (llc_balance) are left
// out. Misfit rules: misfit.go. Abstracted: NUMA fbq classes and adjust_numa_imbalance(), reduced capacities
// (check_cpu_capacity() is false: no RT/IRQ pressure). PELT of busy CPUs is
// read as of their last update; an idle CPU's cfs_rq is brought up to date
// when read (standing in for the nohz blocked-load update).

// sgStats is struct sg_lb_stats.
type sgStats struct {
	load, util, runnable, capacity, avgLoad int64
	misfitLoad                              int64 // group_misfit_task_load (misfit.go)
	nrRunning, hNrRunning, weight, idleCPUs int
	groupType                               int
	asymPacking, smtBalance                 bool
}

// lbEnv is struct lb_env.
type lbEnv struct {
	sd            *schedDomain
	dst, src      CPUID
	idle          cpuIdleType
	imbalance     int64
	migrationType int
	cpus          cpuMask
	allPinned     bool
	somePinned    bool
	why           Reason
	local, busy   *schedGroup // sds->local, sds->busiest
}

const maxPinnedInterval = 512

// groupIsOverloaded mirrors group_is_overloaded().
func groupIsOverloaded(imbPct int, st *sgStats) bool {
	if st.nrRunning <= st.weight {
		return false
	}
	return st.capacity*100 < st.util*int64(imbPct) || st.capacity*int64(imbPct) < st.runnable*100
}

// groupHasCapacity mirrors group_has_capacity().
func groupHasCapacity(imbPct int, st *sgStats) bool {
	if st.nrRunning < st.weight {
		return true
	}
	if st.capacity*int64(imbPct) < st.runnable*100 {
		return false
	}
	return st.capacity*100 > st.util*int64(imbPct)
}

// groupClassify mirrors group_classify().
func groupClassify(imbPct int, g *schedGroup, st *sgStats) int {
	switch {
	case groupIsOverloaded(imbPct, st):
		return groupOverloaded
	case g.sgc.imbalance != 0:
		return groupImbalanced
	case st.asymPacking:
		return groupAsymPacking
	case st.smtBalance:
		return groupSMTBalance
	case st.misfitLoad != 0:
		return groupMisfit
	case !groupHasCapacity(imbPct, st):
		return groupFullyBusy
	}
	return groupHasSpare
}

// refreshIdlePELT brings an idle CPU's cfs_rq averages to now (stands in
// for the nohz blocked-load update).
func (s *Sim) refreshIdlePELT(c CPUID) {
	rq := &s.rqs[c]
	if rq.curr != nil {
		return
	}
	s.updateRqClockPelt(rq)
	s.updateCfsRqLoadAvg(rq.clockPeltNow(), &rq.cfs)
}

// sgLBStats mirrors update_sg_lb_stats().
func (s *Sim) sgLBStats(env *lbEnv, g *schedGroup, st *sgStats, local bool) {
	*st = sgStats{}
	utilEst := s.feat.Has(UtilEst)
	for _, c := range g.cpus {
		if !env.cpus.has(c) {
			continue
		}
		rq := &s.rqs[c]
		if rq.curr == nil {
			s.refreshIdlePELT(c)
		}
		st.load += s.cpuLoad(c)
		// cpu_util_cfs() (v5.8: cpu_util()): cpuUtil(c, nil, -1, false),
		// written out here, where it runs for every CPU of every group.
		util := int64(rq.cfs.avg.utilAvg)
		if utilEst {
			util = max(util, int64(rq.cfs.avg.ue.enqueued))
		}
		st.util += min(util, s.topo[c].archCapacity)
		st.runnable += int64(rq.cfs.avg.runnableAvg)
		st.hNrRunning += s.hNrRunnable(rq)
		st.nrRunning += rq.nrRunning
		if rq.nrRunning > 1 {
			s.sgOverload = true // SG_OVERLOAD
		}
		if rq.nrRunning == 0 && s.idleCPU(c) {
			st.idleCPUs++
		}
		s.sgMisfitCPU(env, st, rq, local)
	}
	st.capacity = g.sgc.capacity
	st.weight = g.weight
	if !local {
		sd := env.sd
		if sd.flags&SDAsymPacking != 0 && env.idle != cpuNotIdle && st.hNrRunning > 0 {
			st.asymPacking = s.sgAsymPacking(env, g, st) // asym.go
		}
		// smt_balance() (series patch 1, series.go)
		st.smtBalance = s.hybridSeries() && env.idle != cpuNotIdle && g.flags&SDShareCPUCapacity != 0 && st.hNrRunning > 1
	}
	st.groupType = groupClassify(env.sd.imbalancePct, g, st)
	if st.groupType == groupOverloaded {
		st.avgLoad = st.load * 1024 / st.capacity
	}
}

// smtVsNonSMT mirrors smt_vs_nonsmt_groups().
func smtVsNonSMT(a, b *schedGroup) bool {
	if a == nil || b == nil {
		return false
	}
	return a.flags&SDShareCPUCapacity != b.flags&SDShareCPUCapacity
}

// pickBusiest mirrors update_sd_pick_busiest() (the asymmetric-capacity
// rules are in misfit.go).
func (s *Sim) pickBusiest(env *lbEnv, g *schedGroup, st, busiest *sgStats) bool {
	if st.hNrRunning == 0 {
		return false
	}
	if s.misfitCannotHelp(env, g, st) {
		return false
	}
	if st.groupType > busiest.groupType {
		return true
	}
	if st.groupType < busiest.groupType {
		return false
	}
	hasSpare := false
	switch st.groupType {
	case groupOverloaded:
		if st.avgLoad <= busiest.avgLoad {
			return false
		}
	case groupImbalanced:
		return false
	case groupMisfit:
		if st.misfitLoad < busiest.misfitLoad {
			return false
		}
	case groupAsymPacking:
		if s.schedAsymPrefer(g.asymPreferCPU, env.busy.asymPreferCPU) {
			return false
		}
	case groupSMTBalance, groupFullyBusy:
		if st.groupType == groupSMTBalance && (st.idleCPUs != 0 || busiest.idleCPUs != 0) {
			hasSpare = true
			break
		}
		if st.avgLoad < busiest.avgLoad {
			return false
		}
		// On equal avg_load an SMT busiest group is kept: Ricardo
		// Neri's 5fd6d7f43958 "sched/fair: Keep a fully_busy SMT sched
		// group as busiest" (v6.5, sched-core-2023-06-27), so it holds
		// with and without the cluster series (series patch 1 only adds
		// group_smt_balance to this case).
		if st.avgLoad == busiest.avgLoad && env.busy != nil && env.busy.flags&SDShareCPUCapacity != 0 {
			return false
		}
	case groupHasSpare:
		if s.hybridSeries() && smtVsNonSMT(env.busy, g) {
			return !(g.flags&SDShareCPUCapacity != 0 && st.hNrRunning <= 1)
		}
		hasSpare = true
	}
	if hasSpare {
		if st.idleCPUs > busiest.idleCPUs {
			return false
		}
		if st.idleCPUs == busiest.idleCPUs && st.nrRunning <= busiest.nrRunning {
			return false
		}
	}
	return !s.asymCapKeepsGroup(env, g, st)
}

// findBusiestGroup mirrors sched_balance_find_src_group()
// (find_busiest_group()) with update_sd_lb_stats() and
// calculate_imbalance(). It returns nil when balanced.
func (s *Sim) findBusiestGroup(env *lbEnv) *schedGroup {
	sd := env.sd
	local, busiest := &s.lbLocal, &s.lbBusiest
	*busiest = sgStats{idleCPUs: 1 << 30, groupType: groupHasSpare} // init_sd_lb_stats()
	env.local, env.busy = nil, nil
	var totalLoad, totalCap, sumUtil int64
	s.sgOverload = false
	for _, g := range sd.groups {
		st := &s.lbTmp
		isLocal := g.span.has(env.dst)
		if isLocal {
			st = local
			env.local = g
		}
		s.sgLBStats(env, g, st, isLocal)
		if !isLocal && s.pickBusiest(env, g, st, busiest) {
			env.busy = g
			*busiest = *st
		}
		totalLoad += st.load
		totalCap += st.capacity
		sumUtil += st.util
	}
	preferSibling := env.busy != nil && env.busy.flags&SDPreferSibling != 0
	if sd.parent == nil {
		s.rdOf(env.dst).overload = s.sgOverload // root domain: rd->overload
	}
	s.updateIdleCPUScan(env, sumUtil)
	env.imbalance = 0
	if env.busy == nil {
		return nil
	}
	force := busiest.groupType == groupMisfit || busiest.groupType == groupAsymPacking ||
		busiest.groupType == groupImbalanced
	if !force {
		if local.groupType > busiest.groupType {
			return nil
		}
		if local.groupType == groupOverloaded {
			if local.avgLoad >= busiest.avgLoad {
				return nil
			}
			if local.avgLoad >= totalLoad*1024/totalCap {
				return nil
			}
			if 100*busiest.avgLoad <= int64(sd.imbalancePct)*local.avgLoad {
				return nil
			}
		}
		if preferSibling && local.groupType == groupHasSpare && s.siblingImbalance(env, busiest, local) > 1 {
			force = true
		}
	}
	if !force && busiest.groupType != groupOverloaded {
		if env.idle == cpuNotIdle {
			return nil
		}
		if !(busiest.groupType == groupSMTBalance && smtVsNonSMT(env.local, env.busy)) {
			if busiest.weight > 1 && local.idleCPUs <= busiest.idleCPUs+1 {
				return nil
			}
			if busiest.hNrRunning == 1 {
				return nil
			}
		}
	}
	s.calcImbalance(env, local, busiest, preferSibling, totalLoad, totalCap)
	if env.imbalance == 0 {
		return nil
	}
	return env.busy
}

// siblingImbalance mirrors sibling_imbalance() (series patch 3); without
// the series, v6.5's busiest - local nr_running difference (series.go).
func (s *Sim) siblingImbalance(env *lbEnv, busiest, local *sgStats) int64 {
	if !s.hybridSeries() {
		return int64(max(busiest.nrRunning-local.nrRunning, 0))
	}
	if env.idle == cpuNotIdle || busiest.nrRunning == 0 {
		return 0
	}
	nb, nl := int64(env.busy.cores), int64(env.local.cores)
	if nb == nl {
		return int64(max(busiest.nrRunning-local.nrRunning, 0))
	}
	imb := max(nl*int64(busiest.nrRunning)-nb*int64(local.nrRunning), 0)
	imb = (2*imb + nl + nb) / (nl + nb)
	if imb <= 1 && local.nrRunning == 0 && busiest.nrRunning > 1 {
		imb = 2
	}
	return imb
}

// calcImbalance mirrors calculate_imbalance() (no NUMA
// adjust_numa_imbalance()).
func (s *Sim) calcImbalance(env *lbEnv, local, busiest *sgStats, preferSibling bool, totalLoad, totalCap int64) {
	sd := env.sd
	switch busiest.groupType {
	case groupMisfit: // only with SD_ASYM_CPUCAPACITY (no reduced capacities)
		env.migrationType, env.imbalance = migrateMisfit, 1
		return
	case groupAsymPacking:
		env.migrationType, env.imbalance = migrateTask, int64(busiest.hNrRunning)
		return
	case groupSMTBalance, groupImbalanced:
		env.migrationType, env.imbalance = migrateTask, 1
		return
	}
	if local.groupType == groupHasSpare {
		if busiest.groupType > groupFullyBusy && sd.flags&SDShareLLC == 0 {
			env.migrationType = migrateUtil
			env.imbalance = max(local.capacity, local.util) - local.util
			if env.idle != cpuNotIdle && env.imbalance == 0 {
				env.migrationType, env.imbalance = migrateTask, 1
			}
			return
		}
		env.migrationType = migrateTask
		if busiest.weight == 1 || preferSibling {
			env.imbalance = s.siblingImbalance(env, busiest, local)
		} else {
			env.imbalance = int64(max(local.idleCPUs-busiest.idleCPUs, 0))
		}
		env.imbalance >>= 1
		return
	}
	dom := totalLoad * 1024 / totalCap
	if local.groupType < groupOverloaded {
		local.avgLoad = local.load * 1024 / local.capacity
		if local.avgLoad >= busiest.avgLoad || local.avgLoad >= dom {
			env.imbalance = 0
			return
		}
	}
	env.migrationType = migrateLoad
	env.imbalance = min((busiest.avgLoad-dom)*busiest.capacity, (dom-local.avgLoad)*local.capacity) / 1024
}

// updateIdleCPUScan mirrors update_idle_cpu_scan() (SIS_UTIL): the LLC's
// idle-scan budget from its utilisation, refreshed by periodic balancing
// of the LLC-sized domain.
func (s *Sim) updateIdleCPUScan(env *lbEnv, sumUtil int64) {
	if !s.feat.Has(SISUtil) || env.idle == cpuNewlyIdle {
		return
	}
	t := &s.topo[env.dst]
	if t.sdLLCShared == nil || env.sd.spanWeight != t.sdLLCSize {
		return
	}
	llc := int64(t.sdLLCSize)
	x := sumUtil / llc
	pct := int64(env.sd.imbalancePct)
	tmp := min(x*x*pct*pct/(10000*1024), 1024)
	y := (1024 - tmp) * llc / 1024
	t.sdLLCShared.nrIdleScan = int(y)
}

// findBusiestQueue mirrors sched_balance_find_src_rq() (no
// NUMA fbq classes; capacities are never reduced, so check_cpu_capacity()
// is false).
func (s *Sim) findBusiestQueue(env *lbEnv, g *schedGroup) CPUID {
	busiest := CPUID(-1)
	var bLoad, bUtil int64
	bCap := int64(1)
	bNr := 0
	sd := env.sd
	for _, c := range g.cpus {
		if !env.cpus.has(c) {
			continue
		}
		rq := &s.rqs[c]
		nr := s.hNrRunnable(rq)
		if nr == 0 {
			continue
		}
		capa := s.topo[c].cpuCapacity
		if s.asymCapSkipQueue(env, c, nr) {
			continue
		}
		if sd.flags&SDAsymPacking != 0 && s.schedAsym(sd, c, env.dst) && nr == 1 {
			continue
		}
		switch env.migrationType {
		case migrateLoad:
			load := s.cpuLoad(c)
			if nr == 1 && load > env.imbalance {
				continue
			}
			if load*bCap > bLoad*capa {
				bLoad, bCap, busiest = load, capa, c
			}
		case migrateUtil:
			// cpu_util_cfs_boost(): max(util, runnable) (v5.8: cpu_util()).
			util := s.cpuUtil(c, nil, -1, s.rules.busiestUtilBoost)
			if nr <= 1 {
				continue
			}
			if bUtil < util {
				bUtil, busiest = util, c
			}
		case migrateTask:
			if bNr < nr {
				bNr, busiest = nr, c
			}
		case migrateMisfit:
			if rq.misfitLoad > bLoad {
				bLoad, busiest = rq.misfitLoad, c
			}
		}
	}
	return busiest
}

// capacityGreater mirrors capacity_greater(): a is more than ~5% above b.
func capacityGreater(a, b int64) bool { return a*1024 > b*1078 }
