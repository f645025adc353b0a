package sched

// select_idle_sibling() and its scans: kernel/sched/fair.c
// select_idle_sibling(), select_idle_smt(), select_idle_core(),
// select_idle_cpu() (SIS_UTIL budget, cluster-first scan,
// set_idle_cores(false)), __select_idle_cpu(); for v5.8 (and v3.11) the older
// order select_idle_core() -> select_idle_cpu() -> select_idle_smt() with
// SIS_PROP, whose budget is unlimited here because scans cost no simulated
// time. Asymmetric capacity (select_idle_capacity()): capacity.go. See select.go for the caller and what is abstracted.

// selectIdleSibling mirrors select_idle_sibling(p, prev, target).
func (s *Sim) selectIdleSibling(p *Task, prev, target CPUID, targetWhy Reason) (CPUID, Reason) {
	if targetWhy == ReasonSISPrev && target == prev {
		targetWhy = ReasonSISTarget
	}
	legacy := !s.rules.sisUnifiedScan
	var util int64 // task_util_est() when asymmetric (capacity.go)
	if legacy {
		s.syncEntityLoadAvg(p) // v5.8 select_idle_capacity()
		if i, ok := s.sisAsymCapacity(p, target); ok {
			return i, ReasonSISCapacity
		}
	} else {
		util = s.sisAsymUtil(p)
	}
	if s.idleOrSchedIdle(target) && s.asymFitsCPU(util, target) {
		return target, targetWhy
	}
	cluster := s.feat.Has(SchedCluster) && s.topo[target].cluster != nil
	prevAff := CPUID(-1)
	if prev != target && s.cpusShareCache(prev, target) && s.idleOrSchedIdle(prev) && s.asymFitsCPU(util, prev) {
		if !cluster || s.cpusShareResources(prev, target) {
			return prev, ReasonSISPrev
		}
		prevAff = prev
	}
	recent := p.recentUsedCPU
	if !legacy {
		p.recentUsedCPU = prev
	}
	if recent >= 0 && recent != prev && recent != target && s.cpusShareCache(recent, target) &&
		s.idleOrSchedIdle(recent) && p.affinity.has(recent) && s.asymFitsCPU(util, recent) {
		if legacy {
			p.recentUsedCPU = prev
			return recent, ReasonSISRecent
		}
		if !cluster || s.cpusShareResources(recent, target) {
			return recent, ReasonSISRecent
		}
	} else {
		recent = -1
	}
	if !legacy {
		if i, ok := s.sisAsymCapacity(p, target); ok {
			return i, ReasonSISCapacity
		}
	}
	sd := s.topo[target].sdLLC
	if sd == nil {
		return target, targetWhy
	}
	smt := s.smtActive
	if legacy {
		if smt && s.topo[target].sdLLCShared != nil && s.topo[target].sdLLCShared.hasIdleCores {
			if i := s.selectIdleCoreScan(p, sd, target); i >= 0 {
				return i, ReasonSISIdleCore
			}
		}
		if i := s.selectIdleCPU(p, sd, false, target); i >= 0 {
			return i, ReasonSISIdleCPU
		}
		if smt {
			if i := s.selectIdleSMT(p, sd, target); i >= 0 {
				return i, ReasonSISSMT
			}
		}
		return target, targetWhy
	}
	hasIdleCore := false
	if smt {
		sh := s.topo[target].sdLLCShared
		hasIdleCore = sh != nil && sh.hasIdleCores
		if !hasIdleCore && s.cpusShareCache(prev, target) {
			if i := s.selectIdleSMT(p, sd, prev); i >= 0 {
				return i, ReasonSISSMT
			}
		}
	}
	if i := s.selectIdleCPU(p, sd, hasIdleCore, target); i >= 0 {
		if hasIdleCore {
			return i, ReasonSISIdleCore
		}
		return i, ReasonSISIdleCPU
	}
	if prevAff >= 0 {
		return prevAff, ReasonSISPrev
	}
	if recent >= 0 {
		return recent, ReasonSISRecent
	}
	return target, targetWhy
}

// selectIdleSMT mirrors select_idle_smt(p, sd, target): an idle SMT
// sibling of target inside sd.
func (s *Sim) selectIdleSMT(p *Task, sd *schedDomain, target CPUID) CPUID {
	for _, c := range s.topo[target].smt {
		if c == target || !p.affinity.has(c) || !sd.span.has(c) {
			continue
		}
		if s.idleOrSchedIdle(c) {
			return c
		}
	}
	return -1
}

// coreIdle reports whether every SMT sibling of c is idle (is_core_idle()).
func (s *Sim) coreIdle(c CPUID) bool {
	for _, x := range s.topo[c].smt {
		if !s.idleCPU(x) {
			return false
		}
	}
	return true
}

// selectIdleCPU mirrors select_idle_cpu(): scan the LLC (the cluster
// first) from target+1, for an idle core when one is believed to exist,
// else for an idle CPU within the SIS_UTIL budget.
func (s *Sim) selectIdleCPU(p *Task, sd *schedDomain, hasIdleCore bool, target CPUID) CPUID {
	nr := 1 << 30
	if s.feat.Has(SISUtil) && s.rules.sisUtil {
		if sh := s.topo[target].sdLLCShared; sh != nil {
			nr = sh.nrIdleScan + 1
			if nr == 1 {
				return -1
			}
		}
	}
	idle := CPUID(-1)
	// The scan set: sd span & allowed, minus what was already covered.
	scanned := s.scanMask
	for i := range scanned {
		scanned[i] = 0
	}
	visit := func(c CPUID) (CPUID, bool) {
		if scanned.has(c) || !p.affinity.has(c) {
			return -1, false
		}
		if hasIdleCore {
			core := true
			for _, x := range s.topo[c].smt {
				scanned.set(int(x))
				if !s.idleCPU(x) {
					core = false
					if idle < 0 && s.schedIdleCPU(x) && p.affinity.has(x) {
						idle = x
					}
				} else if idle < 0 && p.affinity.has(x) {
					idle = x
				}
			}
			if core {
				return c, true
			}
			return -1, false
		}
		scanned.set(int(c))
		nr--
		if nr <= 0 {
			return -1, true
		}
		if s.idleOrSchedIdle(c) {
			return c, true
		}
		return -1, false
	}
	if s.feat.Has(SchedCluster) && s.rules.sisClusterFirst && len(sd.groups) > 0 && sd.groups[0].flags&SDCluster != 0 {
		g := sd.groups[0].cpus
		if r, stop := scanWrap(g, target, visit); stop {
			return r
		}
	}
	r, stop := scanWrap(sd.cpus, target, visit)
	if stop && r >= 0 {
		return r
	}
	if hasIdleCore {
		if sh := s.topo[target].sdLLCShared; sh != nil {
			sh.hasIdleCores = false // set_idle_cores(target, false)
		}
		return idle
	}
	return r
}

// scanWrap visits cpus (sorted) starting after target, wrapping around
// (for_each_cpu_wrap(cpu, mask, target+1)), until visit says stop.
func scanWrap(cpus []CPUID, target CPUID, visit func(CPUID) (CPUID, bool)) (CPUID, bool) {
	start := 0
	for start < len(cpus) && cpus[start] <= target {
		start++
	}
	for i := range cpus {
		c := cpus[(start+i)%len(cpus)]
		if r, stop := visit(c); stop {
			return r, true
		}
	}
	return -1, false
}

// selectIdleCoreScan is the v5.8 select_idle_core(): the first fully idle
// core of the LLC, scanning from target; clears has_idle_cores on failure.
func (s *Sim) selectIdleCoreScan(p *Task, sd *schedDomain, target CPUID) CPUID {
	r, _ := scanWrap(sd.cpus, target-1, func(c CPUID) (CPUID, bool) {
		if !p.affinity.has(c) {
			return -1, false
		}
		if s.coreIdle(c) {
			return c, true
		}
		return -1, false
	})
	if r < 0 {
		s.topo[target].sdLLCShared.hasIdleCores = false
	}
	return r
}
