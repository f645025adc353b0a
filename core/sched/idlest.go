package sched

// The fork/exec slow path of select_task_rq_fair(): kernel/sched/fair.c
// sched_balance_find_dst_cpu() (find_idlest_cpu() before v6.10),
// sched_balance_find_dst_group() (find_idlest_group()),
// update_sg_wakeup_stats(), update_pick_idlest() and
// sched_balance_find_dst_group_cpu() (find_idlest_group_cpu()), with the
// group classification shared with load balancing (group_classify(),
// balance.go).
//
// Abstracted: NUMA imbalance allowance (adjust_numa_imbalance), idle
// states (no exit latency: the most recently idled CPU wins),
// core-scheduling cookies. The misfit test is in misfit.go.

// wakeupStats mirrors update_sg_wakeup_stats() for task p, without p's
// own contribution (the "_without" helpers, sched_exec.go): a task being
// forked is not queued anywhere yet and has none, an exec'ing task is
// discounted from its CPU.
func (s *Sim) wakeupStats(sd *schedDomain, g *schedGroup, p *Task, st *sgStats) {
	*st = sgStats{}
	for _, c := range g.cpus {
		if !p.affinity.has(c) {
			continue
		}
		rq := &s.rqs[c]
		local := taskRunningOnCPU(c, p)
		st.load += s.cpuLoadWithout(c, p)
		st.util += s.cpuUtilWithout(c, p)
		st.runnable += s.cpuRunnableWithout(c, p)
		st.hNrRunning += s.hNrRunnable(rq) - local
		nr := rq.nrRunning - local
		st.nrRunning += nr
		if nr == 0 && s.idleCPUWithout(c, p) {
			st.idleCPUs++
		}
	}
	st.capacity = g.sgc.capacity
	st.weight = g.weight
	s.wakeupMisfit(sd, g, p, st) // misfit.go
	st.groupType = groupClassify(sd.imbalancePct, g, st)
	if st.groupType == groupFullyBusy || st.groupType == groupOverloaded {
		st.avgLoad = st.load * 1024 / st.capacity
	}
}

// updatePickIdlest mirrors update_pick_idlest().
func updatePickIdlest(idlest *schedGroup, is *sgStats, g *schedGroup, gs *sgStats) bool {
	if gs.groupType < is.groupType {
		return true
	}
	if gs.groupType > is.groupType {
		return false
	}
	switch gs.groupType {
	case groupOverloaded, groupFullyBusy:
		if is.avgLoad <= gs.avgLoad {
			return false
		}
	case groupImbalanced, groupAsymPacking, groupSMTBalance:
		return false
	case groupMisfit:
		if idlest.sgc.maxCapacity >= g.sgc.maxCapacity {
			return false
		}
	case groupHasSpare:
		if is.idleCPUs > gs.idleCPUs {
			return false
		}
		if is.idleCPUs == gs.idleCPUs && is.util <= gs.util {
			return false
		}
	}
	return true
}

// findIdlestGroup mirrors find_idlest_group(); nil keeps the local group.
func (s *Sim) findIdlestGroup(sd *schedDomain, p *Task, thisCPU CPUID) *schedGroup {
	var idlest, local *schedGroup
	ls, is, ts := &s.lbLocal, &s.lbBusiest, &s.lbTmp
	for _, g := range sd.groups {
		if !g.span.intersects(p.affinity) {
			continue
		}
		if g.span.has(thisCPU) {
			local = g
			s.wakeupStats(sd, g, p, ls)
			continue
		}
		s.wakeupStats(sd, g, p, ts)
		if idlest == nil || updatePickIdlest(idlest, is, g, ts) {
			idlest = g
			*is = *ts
		}
	}
	if idlest == nil {
		return nil
	}
	if local == nil {
		return idlest
	}
	if ls.groupType < is.groupType {
		return nil
	}
	if ls.groupType > is.groupType {
		return idlest
	}
	switch ls.groupType {
	case groupOverloaded, groupFullyBusy:
		imb := int64(1024) * int64(sd.imbalancePct-100) / 100
		if is.avgLoad >= ls.avgLoad+imb {
			return nil
		}
		if 100*ls.avgLoad <= int64(sd.imbalancePct)*is.avgLoad {
			return nil
		}
	case groupImbalanced, groupAsymPacking, groupSMTBalance:
		return idlest
	case groupMisfit:
		if local.sgc.maxCapacity >= idlest.sgc.maxCapacity {
			return nil
		}
	case groupHasSpare:
		if ls.idleCPUs >= is.idleCPUs {
			return nil
		}
	}
	return idlest
}

// findIdlestGroupCPU mirrors find_idlest_group_cpu().
func (s *Sim) findIdlestGroupCPU(g *schedGroup, p *Task, thisCPU CPUID) CPUID {
	if g.weight == 1 {
		return g.cpus[0]
	}
	shallowest, least := CPUID(-1), thisCPU
	var latest Time = -1
	minLoad := int64(1) << 62
	for _, c := range g.cpus {
		if !p.affinity.has(c) {
			continue
		}
		if s.schedIdleCPU(c) {
			return c
		}
		if s.idleCPU(c) {
			if s.rqs[c].idleSince > latest {
				latest = s.rqs[c].idleSince
				shallowest = c
			}
		} else if shallowest < 0 {
			if l := s.cpuLoad(c); l < minLoad {
				minLoad = l
				least = c
			}
		}
	}
	if shallowest >= 0 {
		return shallowest
	}
	return least
}

// findIdlestCPU mirrors find_idlest_cpu(): descend from sd towards the
// idlest CPU.
func (s *Sim) findIdlestCPU(sd *schedDomain, p *Task, cpu, prevCPU CPUID, sdFlag SDFlag) CPUID {
	if !sd.span.intersects(p.affinity) {
		return prevCPU
	}
	newCPU := cpu
	for sd != nil {
		if sd.flags&sdFlag == 0 {
			sd = sd.child
			continue
		}
		g := s.findIdlestGroup(sd, p, cpu)
		if g == nil {
			sd = sd.child
			continue
		}
		newCPU = s.findIdlestGroupCPU(g, p, cpu)
		if newCPU == cpu {
			sd = sd.child
			continue
		}
		cpu = newCPU
		weight := sd.spanWeight
		sd = nil
		for tmp := s.topo[cpu].sd; tmp != nil; tmp = tmp.parent {
			if weight <= tmp.spanWeight {
				break
			}
			if tmp.flags&sdFlag != 0 {
				sd = tmp
			}
		}
	}
	return newCPU
}
