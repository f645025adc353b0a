package sched

// Per-entity load tracking (PELT): kernel/sched/pelt.c decay_load(),
// __accumulate_pelt_segments(), accumulate_sum(), ___update_load_sum(),
// ___update_load_avg(), __update_load_avg_blocked_se(),
// __update_load_avg_se(), __update_load_avg_cfs_rq(); kernel/sched/pelt.h
// get_pelt_divider(), update_rq_clock_pelt(), update_idle_rq_clock_pelt(),
// rq_clock_pelt(); kernel/sched/sched-pelt.h runnable_avg_yN_inv[]; and from
// kernel/sched/fair.c update_load_avg(), update_cfs_rq_load_avg(),
// attach_entity_load_avg(), detach_entity_load_avg(),
// remove_entity_load_avg(), init_entity_runnable_average() and
// post_init_entity_util_avg().
//
// Read: pelt.c at commit 0b119045b79a (v6.13+, with hw pressure),
// sched-pelt.h at 251c226c3504, pelt.h at 0e11f2076e7f; the fair.c pieces in
// a 6.x fair.c and the 2022 patches that moved the attach of a new task from
// post_init_entity_util_avg() to enqueue_entity() (d6531ab6e501) and added
// DO_DETACH.
//
// Time is the rq's clock_pelt: while a task runs it advances at
// arch_scale_cpu_capacity()/1024 of real time (frequency invariance is
// abstracted: every CPU runs at its maximum frequency), and while the CPU is
// idle it is synced back to the task clock, less the idle time lost while
// the CPU was saturated (lost_idle_time). The unit is 1024 ns, a period is
// 1024 units, y^32 = 1/2.
//
// Where the kernel calls update_load_avg(): enqueue_entity() (with
// DO_ATTACH), dequeue_entity() (DO_DETACH when migrating),
// set_next_entity() and put_prev_entity() for a queued entity,
// entity_tick(), requeue_delayed_entity(). update_curr() does not update
// PELT. Blocked tasks stay attached to their cfs_rq and decay with it; an
// idle CPU's cfs_rq sums are refreshed when load balancing reads them
// (refreshIdlePELT, lbstats.go, standing in for the nohz blocked-load
// update) or something else updates them. A task woken off an idle CPU is
// decayed to the present on the way out (migrate_se_pelt_lag(), v6.x,
// pelt_migrate_lag.go).
// With task groups (cgroup_pelt.go) group entities are updated like tasks,
// propagate their cfs_rq's changes upward and update_tg_load_avg() runs
// under UPDATE_TG; util_est is util_est.go's; uclamp and the
// RT/DL/IRQ/hw-pressure signals are not tracked. v3.11's PELT (runnable_avg_sum/period, no util_avg) is not
// modelled: the v3.11 profile uses the modern rules.
//
// Who reads these signals (the util readers through util_est.go's
// cpuUtil() and taskUtilEst(), max of util_avg and util_est):
// wake_affine_weight() and find_idlest_group()/_cpu() read cpu_load(),
// cpu_util() and cpu_runnable() (select.go, idlest.go, sched_exec.go's
// *_without() helpers); task_fits_cpu() and misfit detection read the
// task's util_avg (capacity.go, misfit.go); update_sg_lb_stats() sums
// load, util and runnable per group, which also sets SIS_UTIL's scan
// budget (lbstats.go -> sis.go), and detach_tasks() weighs tasks by
// task_h_load() or util_avg (balance.go, cgroup_pelt.go); with task groups
// calc_group_shares() reads the group cfs_rq's load_avg (cgroup_shares.go).
// So they decide where tasks run; PELT emits no events itself, and
// TaskPELT/CPUPELT expose a snapshot to tests and tools.

import "math/bits"

const (
	loadAvgPeriod  = 32    // LOAD_AVG_PERIOD
	loadAvgMax     = 47742 // LOAD_AVG_MAX
	peltMinDivider = loadAvgMax - 1024
)

// runnableAvgYNInv is runnable_avg_yN_inv[]: y^n * 2^32 for n < 32.
var runnableAvgYNInv = [loadAvgPeriod]uint32{
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
}

// schedAvg is struct sched_avg. attached stands in for the kernel's
// "last_update_time != 0" test (a simulation clock starts at 0).
type schedAvg struct {
	lastUpdateTime uint64 // clock_pelt, ns
	loadSum        uint64
	runnableSum    uint64
	utilSum        uint32
	periodContrib  uint32
	loadAvg        uint64
	runnableAvg    uint64
	utilAvg        uint64
	attached       bool
	ue             utilEst // util_est; for a root cfs_rq the sum (util_est.go)
}

// cfsRemoved is cfs_rq->removed: contributions of tasks that left while
// blocked (exit, wakeup migration), subtracted at the next update.
type cfsRemoved struct {
	nr          int
	loadAvg     uint64
	utilAvg     uint64
	runnableAvg uint64
}

// update_load_avg() flags.
const (
	peltUpdateTG    = 0x1 // update_tg_load_avg() (a no-op for the root group)
	peltSkipAgeLoad = 0x2
	peltDoAttach    = 0x4
	peltDoDetach    = 0x8
)

// decayLoad mirrors decay_load(): val * y^n.
func decayLoad(val, n uint64) uint64 {
	if n > loadAvgPeriod*63 {
		return 0
	}
	if n >= loadAvgPeriod {
		val >>= n / loadAvgPeriod
		n %= loadAvgPeriod
	}
	// mul_u64_u32_shr(val, runnable_avg_yN_inv[n], 32)
	hi, lo := bits.Mul64(val, uint64(runnableAvgYNInv[n]))
	return hi<<32 | lo>>32
}

// accumulatePeltSegments mirrors __accumulate_pelt_segments().
func accumulatePeltSegments(periods uint64, d1, d3 uint32) uint32 {
	c1 := uint32(decayLoad(uint64(d1), periods))
	c2 := uint32(loadAvgMax - decayLoad(loadAvgMax, periods) - 1024)
	return c1 + c2 + d3
}

// decayShifted is decay_load() for n <= LOAD_AVG_PERIOD*63 split into its
// two steps, sh = n/LOAD_AVG_PERIOD (at most 63) and y =
// runnable_avg_yN_inv[n%LOAD_AVG_PERIOD], so that accumulate_sum() takes
// them once for its five decays by the same n; the same bits as decayLoad.
func decayShifted(val uint64, sh uint, y uint64) uint64 {
	hi, lo := bits.Mul64(val>>(sh&63), y)
	return hi<<32 | lo>>32
}

// accumulateSum mirrors accumulate_sum(); delta is in 1024 ns units.
func accumulateSum(delta uint64, sa *schedAvg, load, runnable uint64, running bool) uint64 {
	contrib := uint32(delta)
	delta += uint64(sa.periodContrib)
	periods := delta / 1024
	if periods > loadAvgPeriod*63 {
		sa.loadSum, sa.runnableSum, sa.utilSum = 0, 0, 0 // decay_load() is 0
		delta %= 1024
		if load != 0 {
			contrib = accumulatePeltSegments(periods, 1024-sa.periodContrib, uint32(delta))
		}
	} else if periods != 0 {
		sh, y := uint(periods/loadAvgPeriod), uint64(runnableAvgYNInv[periods%loadAvgPeriod])
		sa.loadSum = decayShifted(sa.loadSum, sh, y)
		sa.runnableSum = decayShifted(sa.runnableSum, sh, y)
		sa.utilSum = uint32(decayShifted(uint64(sa.utilSum), sh, y))
		delta %= 1024
		if load != 0 { // __accumulate_pelt_segments()
			c1 := uint32(decayShifted(uint64(1024-sa.periodContrib), sh, y))
			c2 := uint32(loadAvgMax - decayShifted(loadAvgMax, sh, y) - 1024)
			contrib = c1 + c2 + uint32(delta)
		}
	}
	sa.periodContrib = uint32(delta)
	if load != 0 {
		sa.loadSum += load * uint64(contrib)
	}
	if runnable != 0 {
		sa.runnableSum += runnable * uint64(contrib) << 10
	}
	if running {
		sa.utilSum += contrib << 10
	}
	return periods
}

// updateLoadSum mirrors ___update_load_sum(); now is clock_pelt in ns. It
// reports whether a period boundary was crossed. Inlined: about half of
// the calls come less than one 1024 ns unit after the last update and
// return at once (a clock behind the last update takes the slow path).
func updateLoadSum(now uint64, sa *schedAvg, load, runnable uint64, running bool) bool {
	if now-sa.lastUpdateTime < 1<<10 {
		return false
	}
	return updateLoadSumSlow(now, sa, load, runnable, running)
}

func updateLoadSumSlow(now uint64, sa *schedAvg, load, runnable uint64, running bool) bool {
	if int64(now-sa.lastUpdateTime) < 0 {
		sa.lastUpdateTime = now
		return false
	}
	delta := (now - sa.lastUpdateTime) >> 10
	if delta == 0 {
		return false
	}
	sa.lastUpdateTime += delta << 10
	if load == 0 {
		runnable, running = 0, false
	}
	return accumulateSum(delta, sa, load, runnable, running) != 0
}

// peltDivider mirrors get_pelt_divider().
func peltDivider(sa *schedAvg) uint64 { return peltMinDivider + uint64(sa.periodContrib) }

// updateLoadAvgSums mirrors ___update_load_avg().
func updateLoadAvgSums(sa *schedAvg, load uint64) {
	d := peltDivider(sa)
	sa.loadAvg = load * sa.loadSum / d
	sa.runnableAvg = sa.runnableSum / d
	sa.utilAvg = uint64(sa.utilSum) / d
}

// seWeight is se_weight(): scale_load_down(se->load.weight).
func (s *Sim) seWeight(t *Task) uint64 { return uint64(s.arith.scaleLoadDown(t.se.load.weight)) }

// seRunnable is se_runnable(): 0 for a delayed entity (v6.12+); for a
// task, queued; for a group entity, se->runnable_weight, its cfs_rq's
// runnable count (runnableCount).
func (s *Sim) seRunnable(t *Task) uint64 {
	if !t.se.onRq || t.se.delayed {
		return 0
	}
	if t.my != nil {
		return s.runnableCount(t.my.hNr, t.my.hDelayed)
	}
	return 1
}

// runnableCount is the count PELT's runnable reads for a cfs_rq of nr
// queued tasks, delayed of them delayed: h_nr_running - h_nr_delayed
// (h_nr_runnable) from v6.13, h_nr_running in v6.12.0 (rules.go
// peltRunnableSkipsDelayed).
func (s *Sim) runnableCount(nr, delayed int) uint64 {
	if s.rules.peltRunnableSkipsDelayed {
		nr -= delayed
	}
	return uint64(nr)
}

// updateRqClockPelt mirrors update_rq_clock() -> update_rq_clock_pelt():
// the time since the last update is charged to the task running then.
func (s *Sim) updateRqClockPelt(rq *rq) {
	now := uint64(s.now)
	delta := now - rq.clock
	if delta == 0 {
		return
	}
	rq.clock = now
	if rq.curr == nil {
		s.syncIdleRqClockPelt(rq) // idle: sync to clock_task
		return
	}
	rq.clockPelt += delta * uint64(s.topo[rq.cpu].archCapacity) >> 10 // cap_scale()
}

// updateIdleRqClockPelt mirrors update_idle_rq_clock_pelt(): a CPU that was
// fully busy lost the idle time a faster CPU would have had.
func (s *Sim) updateIdleRqClockPelt(rq *rq) {
	const divider = uint32(peltMinDivider<<10) - loadAvgMax
	if rq.cfs.avg.utilSum >= divider {
		rq.lostIdleTime += rq.clock - rq.clockPelt
	}
	if s.rules.migratePeltLag {
		s.syncIdleRqClockPelt(rq) // v6.0+: update_idle_rq_clock_pelt() syncs too
	}
}

// syncIdleRqClockPelt mirrors _update_idle_rq_clock_pelt(): clock_pelt
// catches up with clock_task and, where migrate_se_pelt_lag() exists, the
// pair it estimates from is stored (clock_idle, clock_pelt_idle).
func (s *Sim) syncIdleRqClockPelt(rq *rq) {
	rq.clockPelt = rq.clock
	if s.rules.migratePeltLag {
		rq.clockIdle = rq.clock
		rq.clockPeltIdle = rq.clockPeltNow()
	}
}

// clockPeltNow mirrors rq_clock_pelt() (= cfs_rq_clock_pelt() of the root;
// a group cfs_rq's is cgroup_pelt_clock.go).
func (rq *rq) clockPeltNow() uint64 { return rq.clockPelt - rq.lostIdleTime }

// updateCfsRqLoadAvg mirrors update_cfs_rq_load_avg().
func (s *Sim) updateCfsRqLoadAvg(now uint64, q *cfsRq) bool {
	sa := &q.avg
	decayed := false
	if q.removed.nr != 0 {
		d := peltDivider(sa)
		r := q.removed
		q.removed = cfsRemoved{}
		subPositive(&sa.loadAvg, r.loadAvg)
		subPositive(&sa.loadSum, r.loadAvg*d)
		sa.loadSum = max(sa.loadSum, sa.loadAvg*peltMinDivider)
		subPositive(&sa.utilAvg, r.utilAvg)
		us := uint64(sa.utilSum)
		subPositive(&us, r.utilAvg*d)
		sa.utilSum = uint32(max(us, sa.utilAvg*peltMinDivider))
		subPositive(&sa.runnableAvg, r.runnableAvg)
		subPositive(&sa.runnableSum, r.runnableAvg*d)
		sa.runnableSum = max(sa.runnableSum, sa.runnableAvg*peltMinDivider)
		if q.se != nil {
			addTGCfsPropagate(q, -int64(r.runnableAvg*d)>>10)
		}
		decayed = true
	}
	// __update_load_avg_cfs_rq()
	runnable := s.runnableCount(q.nrQueued, q.nrDelayed)
	if s.grouped() {
		runnable = s.runnableCount(q.hNr, q.hDelayed)
	}
	if updateLoadSum(now, sa, uint64(s.arith.scaleLoadDown(q.load.weight)), runnable, q.curr != nil) {
		updateLoadAvgSums(sa, 1)
		decayed = true
	}
	return decayed
}

func subPositive(v *uint64, d uint64) {
	if d > *v {
		*v = 0
	} else {
		*v -= d
	}
}

// updateLoadAvg mirrors update_load_avg() for task t on rq.
func (s *Sim) updateLoadAvg(rq *rq, t *Task, flags int) {
	s.updateRqClockPelt(rq)
	q := s.cfsOf(t)
	now := rq.clockPeltNow()
	if q.se != nil {
		now = s.cfsRqClockPelt(rq, q) // a group cfs_rq's clock stops while throttled
	}
	se := &t.se.avg
	if se.attached && flags&peltSkipAgeLoad == 0 {
		// __update_load_avg_se()
		var load uint64
		if t.se.onRq {
			load = 1
		}
		if updateLoadSum(now, se, load, s.seRunnable(t), q.curr == t) {
			updateLoadAvgSums(se, s.seWeight(t))
			s.cfsSeUtilChange(t) // util_est.go
		}
	}
	decayed := s.updateCfsRqLoadAvg(now, q)
	if q.tg == nil && t.my == nil {
		// The root group: no propagation, update_tg_load_avg() returns at once.
		switch {
		case flags&peltDoDetach != 0:
			s.detachEntityLoadAvg(q, t)
		case !se.attached && flags&peltDoAttach != 0:
			s.attachEntityLoadAvg(q, t)
		}
		return
	}
	if s.propagateEntityLoadAvg(q, t) {
		decayed = true
	}
	switch {
	case !se.attached && flags&peltDoAttach != 0:
		s.attachEntityLoadAvg(q, t)
		s.updateTGLoadAvg(q)
	case flags&peltDoDetach != 0:
		s.detachEntityLoadAvg(q, t)
		s.updateTGLoadAvg(q)
	case decayed && flags&peltUpdateTG != 0:
		s.updateTGLoadAvg(q)
	}
}

// attachEntityLoadAvg mirrors attach_entity_load_avg().
func (s *Sim) attachEntityLoadAvg(q *cfsRq, t *Task) {
	se, cfs := &t.se.avg, &q.avg
	d := peltDivider(cfs)
	se.lastUpdateTime = cfs.lastUpdateTime
	se.periodContrib = cfs.periodContrib
	se.utilSum = uint32(se.utilAvg * d)
	se.runnableSum = se.runnableAvg * d
	se.loadSum = se.loadAvg * d
	if w := s.seWeight(t); w < se.loadSum {
		se.loadSum /= w
	} else {
		se.loadSum = 1
	}
	se.attached = true
	// enqueue_load_avg()
	cfs.loadAvg += se.loadAvg
	cfs.loadSum += s.seWeight(t) * se.loadSum
	if q.se != nil {
		addTGCfsPropagate(q, int64(se.loadSum))
	}
	cfs.utilAvg += se.utilAvg
	cfs.utilSum += se.utilSum
	cfs.runnableAvg += se.runnableAvg
	cfs.runnableSum += se.runnableSum
}

// detachEntityLoadAvg mirrors detach_entity_load_avg().
func (s *Sim) detachEntityLoadAvg(q *cfsRq, t *Task) {
	se, cfs := &t.se.avg, &q.avg
	// dequeue_load_avg()
	subPositive(&cfs.loadAvg, se.loadAvg)
	subPositive(&cfs.loadSum, s.seWeight(t)*se.loadSum)
	cfs.loadSum = max(cfs.loadSum, cfs.loadAvg*peltMinDivider)
	subPositive(&cfs.utilAvg, se.utilAvg)
	us := uint64(cfs.utilSum)
	subPositive(&us, uint64(se.utilSum))
	cfs.utilSum = uint32(max(us, cfs.utilAvg*peltMinDivider))
	subPositive(&cfs.runnableAvg, se.runnableAvg)
	subPositive(&cfs.runnableSum, se.runnableSum)
	cfs.runnableSum = max(cfs.runnableSum, cfs.runnableAvg*peltMinDivider)
	if q.se != nil {
		addTGCfsPropagate(q, -int64(se.loadSum))
	}
	se.attached = false
}

// removeEntityLoadAvg mirrors remove_entity_load_avg(): a blocked task
// leaves its cfs_rq (exit, or a wakeup on another CPU); its averages are
// brought to the cfs_rq's last update (sync_entity_load_avg()) and queued
// for subtraction at the cfs_rq's next update.
func (s *Sim) removeEntityLoadAvg(rq *rq, t *Task) {
	q := s.cfsOf(t)
	se := &t.se.avg
	if !se.attached {
		return
	}
	if updateLoadSum(q.avg.lastUpdateTime, se, 0, 0, false) {
		updateLoadAvgSums(se, s.seWeight(t))
	}
	q.removed.nr++
	q.removed.utilAvg += se.utilAvg
	q.removed.loadAvg += se.loadAvg
	q.removed.runnableAvg += se.runnableAvg
}

// migrateTaskRqFair mirrors the PELT part of migrate_task_rq_fair() for a
// task woken onto another CPU: remove it from the old cfs_rq, decay it over
// the idle time the source's stale clock missed (migrate_se_pelt_lag(),
// pelt_migrate_lag.go); the next enqueue attaches it to the new one.
func (s *Sim) migrateTaskRqFair(from *rq, t *Task) {
	s.removeEntityLoadAvg(from, t)
	if s.rules.migratePeltLag {
		s.migrateSEPeltLag(from, t)
	}
	t.se.avg.attached = false
	t.se.avg.lastUpdateTime = 0
}

// initEntityRunnableAverage mirrors init_entity_runnable_average() (at
// fork): a new task starts with its full weight as load.
func (s *Sim) initEntityRunnableAverage(t *Task) {
	t.se.avg = schedAvg{loadAvg: s.seWeight(t)}
}

// postInitEntityUtilAvg mirrors post_init_entity_util_avg(): a new task's
// util_avg is extrapolated from its CPU's, capped at half of the capacity
// the CPU has left (so successive forks get 512, 256, 128, ...).
func (s *Sim) postInitEntityUtilAvg(rq *rq, t *Task) {
	cfs, sa := &s.cfsOf(t).avg, &t.se.avg
	cpuScale := s.topo[rq.cpu].archCapacity
	capLeft := (cpuScale - int64(cfs.utilAvg)) / 2
	if capLeft > 0 {
		if cfs.utilAvg != 0 {
			w := s.seWeight(t)
			if !s.rules.postInitSEWeight {
				w = uint64(t.se.load.weight) // se->load.weight before se_weight() [M]
			}
			sa.utilAvg = cfs.utilAvg * w / (cfs.loadAvg + 1)
			sa.utilAvg = min(sa.utilAvg, uint64(capLeft))
		} else {
			sa.utilAvg = uint64(capLeft)
		}
	}
	sa.runnableAvg = sa.utilAvg
}

// PELT is a snapshot of one struct sched_avg as of its last update (as
// reading it in the kernel without updating it first would show).
type PELT struct {
	LoadAvg, RunnableAvg, UtilAvg uint64
	LoadSum, RunnableSum          uint64
	UtilSum, PeriodContrib        uint32
	LastUpdate                    uint64 // clock_pelt, ns
}

func (sa *schedAvg) snapshot() PELT {
	return PELT{LoadAvg: sa.loadAvg, RunnableAvg: sa.runnableAvg, UtilAvg: sa.utilAvg,
		LoadSum: sa.loadSum, RunnableSum: sa.runnableSum, UtilSum: sa.utilSum,
		PeriodContrib: sa.periodContrib, LastUpdate: sa.lastUpdateTime}
}

// TaskPELT returns task id's load, runnable and util averages.
func (s *Sim) TaskPELT(id TaskID) PELT { return s.tasks[id].se.avg.snapshot() }

// CPUPELT returns cpu's cfs_rq load, runnable and util averages
// (cpu_load(), cpu_runnable(), cpu_util_cfs() without util_est; the sum
// is CPUUtilEst()).
func (s *Sim) CPUPELT(cpu CPUID) PELT { return s.rqs[cpu].cfs.avg.snapshot() }
