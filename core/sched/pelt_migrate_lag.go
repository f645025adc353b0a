package sched

// PELT continuity across a wakeup migration off an idle CPU:
// kernel/sched/fair.c migrate_se_pelt_lag() and load_avg_is_decayed(), with
// the clocks it reads, kept by kernel/sched/pelt.h
// _update_idle_rq_clock_pelt() (rq->clock_idle, rq->clock_pelt_idle) and
// update_idle_cfs_rq_clock_pelt() (cfs_rq->throttled_pelt_idle).
//
// Read: the patch e2f3e35f1f5a "sched/fair: Decay task PELT values during
// wakeup migration" (Vincent Donnefort, v11 of 2022-06-21, queued on
// tip sched/core; in the kernel from v6.0, rules.go migratePeltLag).
//
// A task woken onto another CPU leaves its old cfs_rq with its averages
// synced to that cfs_rq's last update (remove_entity_load_avg()). An idle
// CPU's clocks are only updated when something takes its lock, so without
// more the time since then is lost: the task arrives at the destination
// with averages as of the moment its old CPU last updated, not decayed
// over the sleep. migrate_se_pelt_lag() estimates the present instead of
// taking the lock, for an idle source only:
//
//	now = clock_pelt_idle - throttled_pelt_idle + sched_clock_cpu() - clock_idle
//
// (or the cfs_rq's last_update_time if that is later) and decays the task
// to it with __update_load_avg_blocked_se(). A queue that emptied while its
// hierarchy was throttled has a stopped clock and is left alone.
//
// Abstracted: sched_clock_cpu() is the simulation clock and rq_clock() has
// no IRQ or steal time, so the estimate is exact up to lost_idle_time; the
// throttled_pelt_idle is the cfs_rq's throttled_clock_pelt_time
// (cgroup_pelt_clock.go) read at the migration, standing in for
// __update_blocked_fair()'s refresh of it, unless the queue emptied
// throttled (U64_MAX).

// loadAvgIsDecayed mirrors load_avg_is_decayed(): every sum is zero.
func loadAvgIsDecayed(sa *schedAvg) bool {
	return sa.loadSum == 0 && sa.utilSum == 0 && sa.runnableSum == 0
}

// updateIdleCfsRqClockPelt mirrors update_idle_cfs_rq_clock_pelt(),
// called when q's last entity is dequeued.
func (s *Sim) updateIdleCfsRqClockPelt(q *cfsRq) {
	q.peltIdleStopped = s.throttledHierarchy(q) // throttle_count != 0
}

// migrateSEPeltLag mirrors migrate_se_pelt_lag() for task t leaving src,
// after remove_entity_load_avg() synced it to its cfs_rq.
func (s *Sim) migrateSEPeltLag(src *rq, t *Task) {
	se := &t.se.avg
	if loadAvgIsDecayed(se) || src.curr != nil { // is_idle_task(rq->curr)
		return
	}
	q := s.cfsOf(t)
	if q.peltIdleStopped {
		return // throttled_pelt_idle == U64_MAX: the clock was stopped
	}
	now := src.clockPeltIdle - min(src.clockPeltIdle, q.pc.lost) // - throttled_pelt_idle
	if lut := q.avg.lastUpdateTime; now < lut {
		now = lut
	} else {
		now += uint64(s.now) - src.clockIdle // sched_clock_cpu() - clock_idle
	}
	// __update_load_avg_blocked_se()
	if updateLoadSum(now, se, 0, 0, false) {
		updateLoadAvgSums(se, s.seWeight(t))
	}
}
