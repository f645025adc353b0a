package sched

// Load balancing, the moving part: kernel/sched/fair.c sched_balance_rq()
// (load_balance()) with should_we_balance(), detach_tasks() with
// can_migrate_task() / task_hot(), need_active_balance(),
// active_load_balance_cpu_stop() with detach_one_task(), and the periodic
// trigger: sched_balance_trigger() (trigger_load_balance()),
// sched_balance_domains() (rebalance_domains()) with
// get_sd_balance_interval(). The statistics and the decision of what to
// move are in lbstats.go; newly idle and nohz balancing in newidle.go; the
// balancer's own time (statistics, busiest queue, moves) is charged
// through the lbcost.go hooks.
//
// Read in a post-v6.18 vendor derivative of mainline fair.c and, for
// load_balance()/rebalance_domains()/get_sd_balance_interval(), in a
// v5.3-v5.7 mainline copy (docs/kernel-rules.md §9).
//
// Abstracted: the LBF_DST_PINNED retry with another destination CPU of the
// local group, LBF_NEED_BREAK (moot while loop_max <= 32), cgroup h_load
// (the task's load_avg is used), schedstats, and SD_SERIALIZE (a serial
// simulator never contends for it).

const (
	groupHasSpare = iota
	groupFullyBusy
	groupMisfit
	groupSMTBalance
	groupAsymPacking
	groupImbalanced
	groupOverloaded
)

const (
	migrateLoad = iota
	migrateUtil
	migrateTask
	migrateMisfit
)

type cpuIdleType uint8

const (
	cpuNotIdle cpuIdleType = iota
	cpuIdle
	cpuNewlyIdle
)

// taskHot mirrors task_hot().
func (s *Sim) taskHot(env *lbEnv, p *Task) bool {
	if p.policy == SchedIdle || env.sd.flags&SDShareCPUCapacity != 0 {
		return false
	}
	mc := s.sys.MigrationCostNs
	if mc == -1 {
		return true
	}
	src := s.cfsOf(p)
	if s.feat.Has(CacheHotBuddy) && s.rqs[env.dst].nrRunning > 0 && (src.next == p || (!s.eevdf && src.last == p)) {
		return true
	}
	if mc == 0 {
		return false
	}
	return int64(s.now-p.se.execStart) < mc
}

// taskIneligibleOnDst mirrors task_is_ineligible_on_dst_cpu(): under
// PLACE_LAG, p is not eligible on its cfs_rq and its group's cfs_rq on the
// destination has queued entities, so place_entity()'s lag would leave it
// ineligible there too.
func (s *Sim) taskIneligibleOnDst(p *Task, env *lbEnv) bool {
	if !s.eevdf || !s.feat.Has(PlaceLag) {
		return false
	}
	dst := &s.rqs[env.dst].cfs
	if s.grouped() && p.tg != nil {
		dst = p.tg.cfs[env.dst]
	}
	return dst.nrQueued > 0 && !s.cfsOf(p).eligible(s, p)
}

// canMigrateTask mirrors can_migrate_task() (no LBF_DST_PINNED retry), in
// the kernel's order: delayed tasks (rules.go lbDelayedLoadOnly), a
// throttled group (throttled_lb_pair() on source or destination before
// v6.18, lb_throttled_hierarchy() on the destination from v6.18:
// lbThrottledDst) and ineligible ones (lbIneligibleSoftLimit) before
// affinity, so they leave LBF_ALL_PINNED set; then running and cache
// hotness. A delayed task moves with or without task groups (detachTask()
// keeps the hierarchy's delayed counts).
func (s *Sim) canMigrateTask(env *lbEnv, p *Task, active bool) bool {
	if p.se.delayed && s.rules.lbDelayedLoadOnly && env.migrationType != migrateLoad {
		return false
	}
	if s.throttledForLB(env, p) {
		return false
	}
	if s.rules.lbIneligibleSoftLimit && env.sd.nrBalanceFailed == 0 && s.taskIneligibleOnDst(p, env) {
		return false
	}
	if !p.affinity.has(env.dst) {
		env.somePinned = true
		return false
	}
	env.allPinned = false
	if s.rqs[env.src].curr == p {
		return false
	}
	if active {
		return true
	}
	return !s.taskHot(env, p) || env.sd.nrBalanceFailed > env.sd.cacheNiceTries
}

// throttledForLB mirrors throttled_lb_pair() (before v6.18: p's group is
// throttled on the source or the destination) and lb_throttled_hierarchy()
// (v6.18, 0d4eaf8caf8c: on the destination only; a task under a throttled
// hierarchy on its source runs until it returns to user mode, so it may
// move).
func (s *Sim) throttledForLB(env *lbEnv, p *Task) bool {
	if !s.grouped() || p.tg == nil {
		return false
	}
	if s.rules.lbThrottledDst {
		return s.throttledHierarchy(p.tg.cfs[env.dst])
	}
	if s.rules.taskThrottle {
		return false
	}
	return s.throttledHierarchy(p.tg.cfs[env.src]) || s.throttledHierarchy(p.tg.cfs[env.dst])
}

// lruTasks fills s.lruScratch with src's queued fair tasks, least recently
// run first (the tail of rq->cfs_tasks first, as detach_tasks() walks it).
func (s *Sim) lruTasks(src *rq) []*Task {
	l := s.lruScratch[:0]
	if s.grouped() {
		l = appendTasks(l, &src.cfs)
	} else {
		if c := src.curr; c != nil && c.se.onRq {
			l = append(l, c)
		}
		l = append(l, src.cfs.queue...)
	}
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j].lruSeq < l[j-1].lruSeq; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
	s.lruScratch = l
	return l
}

func shrBound(v int64, n int) int64 {
	if n >= 63 {
		return 0
	}
	return v >> uint(n)
}

// detachTasks mirrors detach_tasks() + attach_tasks(): it moves tasks from
// env.src to env.dst and returns how many moved.
func (s *Sim) detachTasks(env *lbEnv) int {
	src, dst := &s.rqs[env.src], &s.rqs[env.dst]
	if src.nrRunning <= 1 {
		env.allPinned = false
		return 0
	}
	if env.imbalance <= 0 {
		return 0
	}
	tasks := s.lruTasks(src)
	loopMax := min(int(s.sys.NrMigrate), src.nrRunning)
	moved := 0
	for i, p := range tasks {
		if env.idle != cpuNotIdle && src.nrRunning <= 1 {
			break
		}
		if i+1 > loopMax {
			break
		}
		if !s.canMigrateTask(env, p, false) {
			continue
		}
		switch env.migrationType {
		case migrateLoad:
			load := max(s.taskLoad(p), 1)
			if s.detachLoadSkip(env, load) { // detach_rules.go
				continue
			}
			env.imbalance -= load
		case migrateUtil:
			util := s.taskUtilEst(p) // task_util_est()
			if s.detachUtilSkip(env, util) {
				continue
			}
			env.imbalance -= util
		case migrateTask:
			env.imbalance--
		case migrateMisfit:
			if s.misfitDetachSkip(env, p) {
				continue
			}
		}
		s.detachTask(src, p, env.dst, env.why)
		s.attachTask(dst, p, env.dst != s.localCPU || env.idle != cpuNewlyIdle)
		moved++
		// CONFIG_PREEMPTION (every PREEMPT_DYNAMIC build): newidle
		// balance stops after one task.
		if env.idle == cpuNewlyIdle || env.imbalance <= 0 {
			break
		}
	}
	return moved
}

// shouldWeBalance mirrors should_we_balance() (no SMT core-idle preference
// beyond the first idle CPU).
func (s *Sim) shouldWeBalance(env *lbEnv) bool {
	if env.idle == cpuNewlyIdle {
		return s.rqs[env.dst].nrRunning == 0
	}
	g := env.sd.groups[0]
	series := s.hybridSeries()
	idleSMT := CPUID(-1)
	for _, c := range g.cpus {
		if !g.balanceMask.has(c) || !env.cpus.has(c) || !s.idleCPU(c) {
			continue
		}
		// Series patch 4 (series.go): prefer a CPU on an idle core.
		if series && env.sd.flags&SDShareCPUCapacity == 0 && !s.coreIdle(c) {
			if idleSMT < 0 {
				idleSMT = c
			}
			continue
		}
		return c == env.dst
	}
	if idleSMT >= 0 {
		return idleSMT == env.dst
	}
	return g.balanceMask.first(len(s.rqs)) == env.dst
}

// loadBalance mirrors sched_balance_rq() (load_balance()). It returns the
// number of tasks moved and continue_balancing. The LBF_DST_PINNED retry
// with another destination CPU of the local group is not modelled.
func (s *Sim) loadBalance(cpu CPUID, sd *schedDomain, idle cpuIdleType, why Reason) (int, bool) {
	env := &s.lbEnv
	*env = lbEnv{sd: sd, dst: cpu, idle: idle, cpus: env.cpus, why: why}
	if len(sd.span) == len(env.cpus) {
		copy(env.cpus, sd.span) // the span's words: sd.cpus as a mask
	} else {
		for i := range env.cpus {
			env.cpus[i] = 0
		}
		for _, c := range sd.cpus {
			env.cpus.set(int(c))
		}
	}
	cont := true
redo:
	// should_we_balance(), with RFC 3/3's rq_has_runnable_rt_task() first
	// (or v6.x's dst nr_running check) for the newidle walk (irqoff.go).
	if !s.shouldWeBalance(env) || (idle == cpuNewlyIdle && s.nlbRTRunnable(s.nlb.swb)) {
		cont = false
		return s.lbOutBalanced(env), cont
	}
	s.lbChargeStats(env) // lbcost.go
	g := s.findBusiestGroup(env)
	if g == nil {
		return s.lbOutBalanced(env), cont
	}
	s.lbChargeBusiest(env, g)
	busiest := s.findBusiestQueue(env, g)
	if busiest < 0 {
		return s.lbOutBalanced(env), cont
	}
	env.src = busiest
	env.why = s.lbMigrationReason(env) // asym.go
	brq := &s.rqs[busiest]
	moved := 0
	env.allPinned = true // cleared as soon as a pullable task is seen
	if brq.nrRunning > 1 {
		moved = s.detachTasks(env)
		s.lbChargeMoved(moved)
		// RFC 3/3: "Run the realtime task now; load balance later",
		// after detach/attach and before the LBF_ALL_PINNED redo.
		if idle == cpuNewlyIdle && s.nlbRTRunnable(s.nlb.detach) {
			return moved, false
		}
		if sd.parent != nil && env.somePinned && env.imbalance > 0 {
			sd.parent.groups[0].sgc.imbalance = 1
		}
		if env.allPinned {
			env.cpus[busiest/64] &^= 1 << (busiest % 64)
			if !env.cpus.subset(env.local.balanceMask) {
				goto redo
			}
			sd.nrBalanceFailed = 0 // out_all_pinned
			return s.lbOutOnePinned(env), cont
		}
	}
	active := false
	if moved == 0 {
		if idle != cpuNewlyIdle {
			sd.nrBalanceFailed++
		}
		if s.needActiveBalance(env) {
			if brq.curr == nil || !brq.curr.affinity.has(cpu) {
				return s.lbOutOnePinned(env), cont
			}
			env.allPinned = false
			if !brq.activeBalance {
				brq.activeBalance = true
				brq.pushCPU = cpu
				active = true
				// stop_one_cpu_nowait(): the stopper runs on busiest
				// at once (an engine event at this instant).
				s.q.push(qevent{at: s.now, kind: qActiveBalance, cpu: busiest, prio: prioTimer})
			}
		}
	} else {
		sd.nrBalanceFailed = 0
	}
	if !active || s.needActiveBalance(env) {
		sd.balanceInterval = sd.minInterval
	}
	return moved, cont
}

// lbOutBalanced is load_balance()'s out_balanced/out_all_pinned exit.
func (s *Sim) lbOutBalanced(env *lbEnv) int {
	sd := env.sd
	if sd.parent != nil && !env.allPinned {
		sd.parent.groups[0].sgc.imbalance = 0
	}
	sd.nrBalanceFailed = 0
	return s.lbOutOnePinned(env)
}

// lbOutOnePinned is load_balance()'s out_one_pinned exit: back off the
// balance interval (not for newidle balance).
func (s *Sim) lbOutOnePinned(env *lbEnv) int {
	sd := env.sd
	if env.idle == cpuNewlyIdle {
		return 0
	}
	if (env.allPinned && sd.balanceInterval < maxPinnedInterval) || sd.balanceInterval < sd.maxInterval {
		sd.balanceInterval *= 2
	}
	return 0
}

// needActiveBalance mirrors need_active_balance(): asym_active_balance(),
// imbalanced_active_balance() (migrate_task failing more than
// cache_nice_tries+2 times) and migrate_misfit (misfit.go); the
// reduced-capacity case never arises (capacities are not reduced).
func (s *Sim) needActiveBalance(env *lbEnv) bool {
	sd := env.sd
	if env.idle != cpuNotIdle && sd.flags&SDAsymPacking != 0 && s.useAsymPrio(sd, env.dst) &&
		(s.schedAsymPrefer(env.dst, env.src) || !s.useAsymPrio(sd, env.src)) {
		return true
	}
	return env.migrationType == migrateMisfit ||
		(env.migrationType == migrateTask && sd.nrBalanceFailed > sd.cacheNiceTries+2)
}

// activeBalanceStop mirrors active_load_balance_cpu_stop() on the busiest
// CPU: the stopper preempts the running task and pushes the least recently
// run movable task (detach_one_task(), cache hotness ignored) to push_cpu.
// The stopper thread itself is not shown: the preempted task is switched
// out with reason active_balance (after the sched_migrate_task event, where
// the kernel's trace shows the switch to migration/N first).
func (s *Sim) activeBalanceStop(rq *rq) {
	if !rq.activeBalance {
		return
	}
	rq.activeBalance = false
	target := rq.pushCPU
	prev := rq.curr
	if rq.nrRunning < 1 || prev == nil {
		return
	}
	var sd *schedDomain
	for d := s.topo[target].sd; d != nil; d = d.parent {
		if d.span.has(rq.cpu) {
			sd = d
			break
		}
	}
	if sd == nil {
		return
	}
	// The stopper runs: curr is put back on the queue.
	s.stopRun(rq)
	s.updateCurr(rq)
	s.putPrev(rq, prev)
	rq.curr = nil
	s.noteMayIdle(rq) // idle_hint.go
	env := &s.lbEnv
	*env = lbEnv{sd: sd, dst: target, src: rq.cpu, idle: cpuIdle, cpus: env.cpus, why: ReasonActiveBalance}
	for _, p := range s.lruTasks(rq) {
		if s.canMigrateTask(env, p, true) {
			s.detachTask(rq, p, target, ReasonActiveBalance)
			s.attachTask(&s.rqs[target], p, true)
			sd.nrBalanceFailed = 0
			break
		}
	}
	next, rule := s.pickNextFair(rq, nil)
	rq.curr = prev
	s.switchTo(rq, prev, next, rule, ReasonActiveBalance, NoTask, 'R')
	s.kick(rq)
}

// balanceInterval mirrors get_sd_balance_interval(), in jiffies.
func (s *Sim) balanceInterval(sd *schedDomain, busy bool) int64 {
	ms := int64(sd.balanceInterval)
	if busy {
		ms *= int64(sd.busyFactor)
	}
	hz := int64(s.cfg.Profile.HZ)
	j := (ms*hz + 999) / 1000 // msecs_to_jiffies()
	if busy && s.rules.busyIntervalLess1 {
		j-- // v5.10 "reduce busy load balance interval" [M version]
	}
	maxJ := hz * int64(len(s.rqs)) / 10
	return min(max(j, 1), max(maxJ, 1))
}

// rebalanceDomains mirrors sched_balance_domains() (rebalance_domains()).
func (s *Sim) rebalanceDomains(rq *rq, idle cpuIdleType, why Reason) {
	busy := idle != cpuIdle && !s.schedIdleCPU(rq.cpu)
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Profile.HZ)
	update := false
	cont := true
	s.decayNewidleCost(rq) // lbcost.go
	for sd := s.topo[rq.cpu].sd; sd != nil; sd = sd.parent {
		if !cont {
			break
		}
		interval := s.balanceInterval(sd, busy)
		if j >= sd.lastBalanceJ+interval {
			var moved int
			moved, cont = s.loadBalance(rq.cpu, sd, idle, why)
			if moved > 0 {
				if s.idleCPU(rq.cpu) {
					idle = cpuIdle
				} else {
					idle = cpuNotIdle
				}
				busy = idle != cpuIdle && !s.schedIdleCPU(rq.cpu)
			}
			sd.lastBalanceJ = j
			interval = s.balanceInterval(sd, busy)
		}
		if next > sd.lastBalanceJ+interval {
			next = sd.lastBalanceJ + interval
			update = true
		}
	}
	if update {
		rq.nextBalance = next
	}
}
