package sched

// Misfit tasks on asymmetric CPU capacity (SD_ASYM_CPUCAPACITY):
// kernel/sched/fair.c fits_capacity(), util_fits_cpu(), task_fits_cpu()
// (task_fits_capacity() before v6.2), update_misfit_status(),
// check_misfit_status(), and the group_misfit_task / migrate_misfit rules
// of update_sg_lb_stats(), group_classify(), update_sd_pick_busiest(),
// find_busiest_group(), calculate_imbalance(), find_busiest_queue(),
// detach_tasks() and need_active_balance(). The rules live here; their
// call sites are one-line hooks in lbstats.go, balance.go, fair.go and
// newidle.go. Wakeup placement on such machines is in capacity.go.
//
// The kernel: a CFS task whose utilisation does not fit its CPU's capacity
// with a 20% margin (util * 1280 >= capacity * 1024) marks its runqueue
// misfit (rq->misfit_task_load = its load, at least 1). update_misfit_status()
// runs when the task is picked and at every tick of it; an idle CPU clears
// it. Load balancing of a domain with SD_ASYM_CPUCAPACITY classifies a group
// holding a misfit runqueue as group_misfit_task (it sets SG_OVERLOAD, so
// newidle balancing is not gated off); it is picked as busiest only when
// the destination CPU is bigger than every CPU of the group and the local
// group has spare capacity; find_busiest_group() balances it whatever the
// average loads (force_balance) with migrate_misfit and imbalance 1;
// find_busiest_queue() takes the runqueue with the biggest misfit load;
// detach_tasks() moves only a task that does not fit the source CPU; when
// the running misfit task cannot be detached, need_active_balance() is
// true and the stopper pushes it. A busy CPU's tick kicks the nohz idle
// balancer when its runqueue is misfit and a bigger CPU exists.
//
// Versions: from v5.13 (capacity_greater(), 4aed8aa41524 [R: v5.13 revlist]) "bigger" is
// capacity_greater() (more than ~5% above); before it, v5.8 compares group
// capacities with fits_capacity() (group_smaller_max_cpu_capacity(),
// group_smaller_min_cpu_capacity()) and find_busiest_queue() with a plain
// "<". From v6.10 update_misfit_status() also clears the flag when the CPU
// already has the biggest capacity the task's affinity allows
// (max_allowed_capacity) [M version]. From v6.0 [M version] the local
// group's own misfit load is not counted.
//
// SIMPLIFIED: uclamp is not modelled, so util_fits_cpu() is
// fits_capacity(util, capacity_of(cpu)) as the kernel does when
// !uclamp_is_used(); task_util_est() is util_est.go's (util_avg alone on
// v3.11, which has no util_est); capacities are never reduced (no RT/IRQ/thermal
// pressure), so capacity_of() is the arch capacity, check_cpu_capacity() is
// false and the reduced-capacity misfit (migrate_load with the misfit
// load) never arises; cgroup h_load is the task's load_avg.

import "math/bits"

// fitsCapacity mirrors fits_capacity(): util fits max with a ~20% margin.
func fitsCapacity(util, max int64) bool { return util*1280 < max*1024 }

// utilFitsCPU mirrors util_fits_cpu() with uclamp unused.
func (s *Sim) utilFitsCPU(util int64, c CPUID) bool {
	return fitsCapacity(util, s.topo[c].cpuCapacity)
}

// taskFitsCPU mirrors task_fits_cpu() (task_fits_capacity() before v6.2).
func (s *Sim) taskFitsCPU(p *Task, c CPUID) bool { return s.utilFitsCPU(s.taskUtilEst(p), c) }

// initAsymCapacity sets sched_asym_cpucap_active() (the static key is
// enabled when any domain gets SD_ASYM_CPUCAPACITY) and
// rd->max_cpu_capacity, once the domains are built.
func (s *Sim) initAsymCapacity() {
	s.asymCapActive, s.maxCPUCapacity = false, 0
	if !s.rules.asymCapacity {
		return // SD_ASYM_CPUCAPACITY and misfit tasks arrived in v4.20 [M]
	}
	for i := range s.topo {
		s.maxCPUCapacity = max(s.maxCPUCapacity, s.topo[i].archCapacity)
		for sd := s.topo[i].sd; sd != nil; sd = sd.parent {
			if sd.flags&SDAsymCPUCapacity != 0 {
				s.asymCapActive = true
			}
		}
	}
}

// nrCPUsAllowed is p->nr_cpus_allowed.
func nrCPUsAllowed(p *Task) int {
	n := 0
	for _, w := range p.affinity {
		n += bits.OnesCount64(w)
	}
	return n
}

// maxAllowedCapacity is p->max_allowed_capacity (v6.10+): the biggest arch
// capacity among the CPUs p may run on.
func (s *Sim) maxAllowedCapacity(p *Task) int64 {
	var m int64
	for i := range s.topo {
		if p.affinity.has(CPUID(i)) {
			m = max(m, s.topo[i].archCapacity)
		}
	}
	return m
}

// updateMisfitStatus mirrors update_misfit_status(p, rq); p is nil when
// the CPU goes idle.
func (s *Sim) updateMisfitStatus(p *Task, rq *rq) {
	if !s.asymCapActive {
		return
	}
	if p == nil || p.policy.IsRT() || nrCPUsAllowed(p) == 1 ||
		(s.rules.misfitMaxAllowedCapacity && s.topo[rq.cpu].archCapacity == s.maxAllowedCapacity(p)) ||
		s.taskFitsCPU(p, rq.cpu) {
		rq.misfitLoad = 0
		return
	}
	rq.misfitLoad = max(s.taskLoad(p), 1)
}

// checkMisfitStatus mirrors check_misfit_status() (nohz_balancer_kick()):
// a misfit runqueue on a CPU smaller than the biggest of the root domain
// (check_cpu_capacity() is false: capacities are not reduced).
func (s *Sim) checkMisfitStatus(rq *rq) bool {
	return rq.misfitLoad != 0 && s.topo[rq.cpu].archCapacity < s.maxCPUCapacity
}

// sgMisfitCPU is the misfit part of update_sg_lb_stats() for one CPU of
// the group: the biggest misfit load of the group, with SG_OVERLOAD.
func (s *Sim) sgMisfitCPU(env *lbEnv, st *sgStats, rq *rq, local bool) {
	if env.sd.flags&SDAsymCPUCapacity == 0 || (local && s.rules.misfitSkipLocal) {
		return
	}
	if st.misfitLoad < rq.misfitLoad {
		st.misfitLoad = rq.misfitLoad
		s.sgOverload = true
	}
}

// misfitCannotHelp is update_sd_pick_busiest()'s "don't try to pull misfit
// tasks we can't help": the destination is not bigger than the group's
// biggest CPU, or the local group has no spare capacity.
func (s *Sim) misfitCannotHelp(env *lbEnv, g *schedGroup, st *sgStats) bool {
	if env.sd.flags&SDAsymCPUCapacity == 0 || st.groupType != groupMisfit {
		return false
	}
	if s.lbLocal.groupType != groupHasSpare {
		return true
	}
	if s.rules.capacityGreater {
		return !capacityGreater(s.topo[env.dst].cpuCapacity, g.sgc.maxCapacity)
	}
	// !group_smaller_max_cpu_capacity(sg, sds->local)
	return !fitsCapacity(g.sgc.maxCapacity, env.local.sgc.maxCapacity)
}

// asymCapKeepsGroup is update_sd_pick_busiest()'s last rule: a candidate
// with no more than one task per CPU (fully busy or less) whose CPUs are
// all bigger than the destination is not picked (moving its tasks to less
// capable CPUs would harm throughput).
func (s *Sim) asymCapKeepsGroup(env *lbEnv, g *schedGroup, st *sgStats) bool {
	if env.sd.flags&SDAsymCPUCapacity == 0 || st.groupType > groupFullyBusy {
		return false
	}
	if s.rules.capacityGreater {
		return capacityGreater(g.sgc.minCapacity, s.topo[env.dst].cpuCapacity)
	}
	// group_smaller_min_cpu_capacity(sds->local, sg)
	return fitsCapacity(env.local.sgc.minCapacity, g.sgc.minCapacity)
}

// asymCapSkipQueue is find_busiest_queue()'s rule for SD_ASYM_CPUCAPACITY:
// a runqueue with a single task on a CPU not smaller than the destination
// is not picked (it could only lead to active balancing high -> low).
func (s *Sim) asymCapSkipQueue(env *lbEnv, c CPUID, nr int) bool {
	if env.sd.flags&SDAsymCPUCapacity == 0 || nr != 1 {
		return false
	}
	dst, capa := s.topo[env.dst].cpuCapacity, s.topo[c].cpuCapacity
	if s.rules.capacityGreater {
		return !capacityGreater(dst, capa)
	}
	return dst < capa
}

// misfitDetachSkip is detach_tasks()' migrate_misfit case: only a task
// that does not fit the source CPU moves, and then the imbalance is done.
func (s *Sim) misfitDetachSkip(env *lbEnv, p *Task) bool {
	if s.taskFitsCPU(p, env.src) {
		return true
	}
	env.imbalance = 0
	return false
}

// wakeupMisfit is update_sg_wakeup_stats()' "check if task fits in the
// group" (fork/exec slow path): with SD_ASYM_CPUCAPACITY a group whose
// biggest CPU the task does not fit is group_misfit_task.
// [M]: v5.8 tests the group's max_capacity; later kernels test a CPU of the
// group (the same for groups of equal CPUs, as in every preset).
func (s *Sim) wakeupMisfit(sd *schedDomain, g *schedGroup, p *Task, st *sgStats) {
	if s.asymCapActive && sd.flags&SDAsymCPUCapacity != 0 && !fitsCapacity(s.taskUtilEst(p), g.sgc.maxCapacity) {
		st.misfitLoad = 1
	}
}
