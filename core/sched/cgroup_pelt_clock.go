package sched

// The PELT clock of a throttled hierarchy: kernel/sched/pelt.h
// cfs_rq_clock_pelt() (cfs_rq_clock_task() before v5.1) and
// kernel/sched/fair.c tg_throttle_down() / tg_unthrottle_up(), walked by
// throttle_cfs_rq() / unthrottle_cfs_rq() over the throttled group and all
// its descendants on that CPU (walk_tg_tree_from()), and, from v6.18, the
// stop and restart in dequeue_entity() / enqueue_entity().
//
// A cfs_rq's averages run on its own clock: the rq's PELT clock less the
// time it spent throttled (throttled_clock_pelt_time). While the clock is
// stopped the cfs_rq, its tasks and the group entities below it do not
// decay: a group throttled for 75 ms of every 100 comes back with the load
// it had when it stopped, not a quarter of it. What each profile does
// (docs/kernel-rules.md 17.4):
//
//   - v3.11: the first tg_throttle_down() of a cfs_rq (throttle_count 0 ->
//     1) snapshots rq->clock_task; while throttled the clock reads that
//     snapshot without subtracting the earlier throttled time (fixed by
//     1a99ae3f00d3, v4.8), so it jumps forward by it and back after the
//     unthrottle;
//   - v4.8 .. v5.18: the snapshot is still rq_clock_task(), less the
//     throttled time while throttled; unthrottled it is rq_clock_pelt()
//     less the throttled time, so the two clocks are mixed (fixed by
//     Chengming Zhou's "sched/fair: Fix cfs_rq_clock_pelt() for throttled
//     cfs_rq", v5.19);
//   - v5.19 .. v6.17: both are rq_clock_pelt();
//   - v6.18 (task-based throttle): tasks in the kernel keep running under a
//     throttled cfs_rq, so the clock stops at tg_throttle_down() only if the
//     cfs_rq has no entity queued, otherwise when its last entity is
//     dequeued (pelt_clock_throttled), and restarts when one is enqueued
//     again or at tg_unthrottle_up().
//
// The root cfs_rq is never throttled: its clock is rq_clock_pelt().

// cfsPeltClock is the throttled-clock part of struct cfs_rq.
type cfsPeltClock struct {
	count   int    // throttle_count: throttled ancestors, itself included
	stopped bool   // the clock reads at (throttle_count != 0; v6.18: pelt_clock_throttled)
	at      uint64 // throttled_clock_pelt (throttled_clock_task before v5.19)
	lost    uint64 // throttled_clock_pelt_time: time spent stopped
}

// cfsRqClockPelt mirrors cfs_rq_clock_pelt() for q on rq.
func (s *Sim) cfsRqClockPelt(rq *rq, q *cfsRq) uint64 {
	now := rq.clockPeltNow()
	c := &q.pc
	if c.stopped {
		if !s.rules.throttledClockLessLost {
			return c.at // v3.11: the raw snapshot
		}
		now = c.at
	}
	if now < c.lost {
		return 0
	}
	return now - c.lost
}

// throttleSnapshotClock is the clock tg_throttle_down() and
// tg_unthrottle_up() read: rq_clock_pelt() from v5.19, rq_clock_task()
// before.
func (s *Sim) throttleSnapshotClock(rq *rq) uint64 {
	if s.rules.throttledClockPelt {
		return rq.clockPeltNow()
	}
	return rq.clock
}

// tgThrottleDown mirrors the walk_tg_tree_from(tg_throttle_down) of
// throttle_cfs_rq(): q's group and every group below it on q's CPU.
func (s *Sim) tgThrottleDown(rq *rq, q *cfsRq) {
	s.updateRqClockPelt(rq)
	at := s.throttleSnapshotClock(rq)
	for k := q.tg.id; k < len(s.tgs); k++ {
		tg := s.tgs[k]
		if tg == nil || !s.tgUnder(tg, q.tg) {
			continue
		}
		c := tg.cfs[rq.cpu]
		c.pc.count++
		if c.pc.count > 1 {
			continue
		}
		if s.rules.peltClockStopEmpty && c.nrQueued > 0 {
			continue // stopped when its last entity leaves (peltClockDequeued)
		}
		c.pc.stopped, c.pc.at = true, at
	}
}

// tgUnthrottleUp mirrors the walk_tg_tree_from(tg_unthrottle_up) of
// unthrottle_cfs_rq().
func (s *Sim) tgUnthrottleUp(rq *rq, q *cfsRq) {
	s.updateRqClockPelt(rq)
	now := s.throttleSnapshotClock(rq)
	for k := q.tg.id; k < len(s.tgs); k++ {
		tg := s.tgs[k]
		if tg == nil || !s.tgUnder(tg, q.tg) {
			continue
		}
		c := tg.cfs[rq.cpu]
		c.pc.count--
		if c.pc.count == 0 && c.pc.stopped {
			c.pc.lost += now - c.pc.at
			c.pc.stopped = false
		}
	}
}

// peltClockDequeued mirrors the v6.18 dequeue_entity() tail: a cfs_rq left
// empty under a throttled hierarchy stops its clock.
func (s *Sim) peltClockDequeued(rq *rq, q *cfsRq) {
	if !s.rules.peltClockStopEmpty || q.se == nil || q.nrQueued != 0 || q.pc.count == 0 {
		return
	}
	q.pc.at = rq.clockPeltNow()
	q.pc.stopped = true
}

// peltClockEnqueued mirrors the v6.18 enqueue_entity() tail: the first
// entity queued on a cfs_rq whose clock was stopped restarts it.
func (s *Sim) peltClockEnqueued(rq *rq, q *cfsRq) {
	if !s.rules.peltClockStopEmpty || !q.pc.stopped {
		return
	}
	q.pc.lost += rq.clockPeltNow() - q.pc.at
	q.pc.stopped = false
}
