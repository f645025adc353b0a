package sched

// Wakeup and fork placement: kernel/sched/fair.c select_task_rq_fair() with
// record_wakee(), wake_wide(), wake_affine() (wake_affine_idle(),
// wake_affine_weight()), select_idle_sibling() (select_idle_smt(),
// select_idle_core(), select_idle_cpu() with SIS_UTIL and the cluster-first
// scan, has_idle_cores maintenance via __update_idle_core()), and the slow
// path sched_balance_find_dst_cpu() / find_idlest_cpu() with
// find_idlest_group(), update_sg_wakeup_stats(), update_pick_idlest() and
// find_idlest_group_cpu(); core.c select_task_rq().
//
// Read in a post-v6.18 vendor derivative of mainline fair.c
// (docs/kernel-rules.md §9; its vendor hooks are left out). v5.8 (and v3.11,
// which we approximate with it) differs where cheap, UNVERIFIED: no SIS_UTIL
// (SIS_PROP with the simulator's zero scan cost scans the whole LLC),
// select_idle_core -> select_idle_cpu -> select_idle_smt order, and
// recent_used_cpu only replaced when it is taken (sis.go).
//
// Asymmetric capacities (asym_fits_cpu(), select_idle_capacity()) are in
// capacity.go. Abstracted: EAS (find_energy_efficient_cpu(); no energy
// model), uclamp, core scheduling cookies, per-CPU kthread wakers, idle
// states (find_idlest_group_cpu() sees no cpuidle state, so the most
// recently idled CPU wins), WA_IDLE/WA_WEIGHT/WA_BIAS are always on.
// A timer wakeup runs in interrupt context on the sleeper's CPU with no
// waker task: record_wakee() and the sync rules do not apply.

import "math/bits"

const (
	sdFlagWake = SDBalanceWake
	sdFlagFork = SDBalanceFork
)

// idleCPU mirrors idle_cpu() / available_idle_cpu(): the idle task runs
// (rq->curr == rq->idle), nothing of any class is queued (rq->nr_running,
// rqNrRunning: fair, RT and deadline tasks) and no wakeup waits on its
// wake list (rq->ttwu_pending from v5.8, !llist_empty(&rq->wake_list)
// before; wakelist.go).
func (s *Sim) idleCPU(c CPUID) bool {
	rq := &s.rqs[c]
	return rq.curr == nil && s.rqNrRunning(rq) == 0 && len(rq.wakeList) == 0
}

// schedIdleCPU mirrors sched_idle_cpu(): only SCHED_IDLE tasks are queued.
func (s *Sim) schedIdleCPU(c CPUID) bool {
	rq := &s.rqs[c]
	if rq.nrRunning == 0 || rq.rt.runnable() || len(rq.dl.queue) > 0 {
		return false // rq->nr_running counts the RT and deadline tasks too
	}
	if s.grouped() {
		return rq.cfs.hIdle == rq.nrRunning // sched_idle_rq(): h_nr_idle counts tasks of idle groups too
	}
	if !s.schedIdleSeen { // sched_idle_hint.go: no task's policy to read
		return rq.curr == nil && len(rq.cfs.queue) == 0
	}
	if rq.curr != nil && rq.curr.policy != SchedIdle {
		return false
	}
	for _, t := range rq.cfs.queue {
		if t.policy != SchedIdle {
			return false
		}
	}
	return true
}

func (s *Sim) idleOrSchedIdle(c CPUID) bool { return s.idleCPU(c) || s.schedIdleCPU(c) }

func (s *Sim) cpusShareCache(a, b CPUID) bool { return s.topo[a].sdLLCID == s.topo[b].sdLLCID }

func (s *Sim) cpusShareResources(a, b CPUID) bool { return s.topo[a].sdShareID == s.topo[b].sdShareID }

// jiffies is the tick count on the run's jiffies grid.
func (s *Sim) jiffies() int64 {
	if s.now < s.tickOffset {
		return 0
	}
	return int64((s.now-s.tickOffset)/s.tickNs) + 1
}

// recordWakee mirrors record_wakee() for waker current.
func (s *Sim) recordWakee(waker, p *Task) {
	j := s.jiffies()
	if j > waker.wakeeFlipDecay+int64(s.cfg.Profile.HZ) {
		waker.wakeeFlips >>= 1
		waker.wakeeFlipDecay = j
	}
	if waker.lastWakee != p.id {
		waker.lastWakee = p.id
		waker.wakeeFlips++
	}
}

// wakeWide mirrors wake_wide(): true when the waker/wakee flip counts say
// the wakeups fan out wider than the LLC (do not pull to the waker).
func (s *Sim) wakeWide(waker, p *Task, thisCPU CPUID) bool {
	var master uint32
	if waker != nil {
		master = waker.wakeeFlips
	}
	slave := p.wakeeFlips
	factor := uint32(s.topo[thisCPU].sdLLCSize)
	if master < slave {
		master, slave = slave, master
	}
	return !(slave < factor || master < slave*factor)
}

// cpuLoad is cpu_load(): the cfs_rq's PELT load_avg as of its last update.
func (s *Sim) cpuLoad(c CPUID) int64 { return int64(s.rqs[c].cfs.avg.loadAvg) }

// taskLoad is task_h_load(): the task's load_avg, scaled through its
// groups' share of the root load when it is in a task group (cgroup_pelt.go).
func (s *Sim) taskLoad(t *Task) int64 { return s.taskHLoad(t) }

// wakeAffineSyncOnly is wake_affine_idle()'s sync test: the waker is the
// only task of any class on thisCPU (delayed fair tasks aside, from v6.14;
// rules.go).
func (s *Sim) wakeAffineSyncOnly(thisCPU CPUID) bool {
	rq := &s.rqs[thisCPU]
	n := s.rqNrRunning(rq)
	if s.rules.wakeAffineSkipsDelayed {
		n -= s.hNrDelayed(rq)
	}
	return n == 1
}

// wakeAffine mirrors wake_affine(): thisCPU or prevCPU.
func (s *Sim) wakeAffine(sd *schedDomain, p, waker *Task, thisCPU, prevCPU CPUID, sync bool) CPUID {
	target := CPUID(-1)
	// wake_affine_idle()
	switch {
	case s.idleCPU(thisCPU) && s.cpusShareCache(thisCPU, prevCPU):
		if s.idleCPU(prevCPU) {
			target = prevCPU
		} else {
			target = thisCPU
		}
	case sync && s.wakeAffineSyncOnly(thisCPU):
		target = thisCPU
	case s.idleCPU(prevCPU):
		target = prevCPU
	}
	if target < 0 {
		// wake_affine_weight()
		thisEff := s.cpuLoad(thisCPU)
		if sync && waker != nil {
			cur := s.taskLoad(waker)
			if cur > thisEff {
				return thisCPU
			}
			thisEff -= cur
		}
		tl := s.taskLoad(p)
		thisEff += tl
		thisEff *= 100
		thisEff *= s.topo[prevCPU].cpuCapacity
		prevEff := s.cpuLoad(prevCPU) - tl
		prevEff *= int64(100 + (sd.imbalancePct-100)/2)
		prevEff *= s.topo[thisCPU].cpuCapacity
		if sync {
			prevEff++
		}
		if thisEff < prevEff {
			target = thisCPU
		}
	}
	if target != thisCPU {
		return prevCPU
	}
	return target
}

// selectTaskRq mirrors select_task_rq() -> select_task_rq_fair(). thisCPU
// is the CPU the wakeup or fork runs on; waker is current there (nil for a
// timer interrupt or the scenario launcher). It returns the CPU and the
// rule that chose it.
func (s *Sim) selectTaskRq(p *Task, prevCPU CPUID, sdFlag SDFlag, sync bool, thisCPU CPUID, waker *Task) (CPUID, Reason) {
	n := len(s.rqs)
	allowed := 0 // p->nr_cpus_allowed, counted only up to 2 (the test is <= 1)
	for _, w := range p.affinity {
		if allowed += bits.OnesCount64(w); allowed > 1 {
			break
		}
	}
	if allowed <= 1 || n == 1 {
		if p.affinity.has(prevCPU) {
			return prevCPU, ReasonSISPrev
		}
		return p.affinity.first(n), ReasonSISTarget
	}
	newCPU, why := prevCPU, ReasonSISPrev
	wantAffine := false
	if sdFlag == sdFlagWake {
		if waker != nil {
			s.recordWakee(waker, p)
		}
		wantAffine = !s.wakeWide(waker, p, thisCPU) && p.affinity.has(thisCPU)
	}
	var sd *schedDomain
	for tmp := s.topo[thisCPU].sd; tmp != nil; tmp = tmp.parent {
		if wantAffine && tmp.flags&SDWakeAffine != 0 && tmp.span.has(prevCPU) {
			if thisCPU != prevCPU {
				newCPU = s.wakeAffine(tmp, p, waker, thisCPU, prevCPU, sync)
				if newCPU != prevCPU {
					why = ReasonWakeAffine
				}
			}
			sd = nil
			break
		}
		if tmp.flags&sdFlag != 0 {
			sd = tmp
		} else if !wantAffine {
			break
		}
	}
	if sd != nil {
		newCPU, why = s.findIdlestCPU(sd, p, thisCPU, prevCPU, sdFlag), ReasonFindIdlest
	} else if sdFlag == sdFlagWake {
		newCPU, why = s.selectIdleSibling(p, prevCPU, newCPU, why)
	}
	if !p.affinity.has(newCPU) { // select_fallback_rq()
		newCPU = p.affinity.first(n)
	}
	return newCPU, why
}

// updateIdleCore mirrors __update_idle_core(): a CPU going idle whose SMT
// siblings are all idle marks its LLC as having an idle core.
func (s *Sim) updateIdleCore(c CPUID) {
	if !s.smtActive {
		return
	}
	sh := s.topo[c].sdLLCShared
	if sh == nil || sh.hasIdleCores {
		return
	}
	if s.coreIdle(c) {
		sh.hasIdleCores = true
	}
}
