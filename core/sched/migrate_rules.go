package sched

// Version variants of the migration rules (kernel/sched/fair.c
// migrate_task_rq_fair(), enqueue_entity(), can_migrate_task() and
// task_is_ineligible_on_dst_cpu()), read per profile in
// docs/kernel-rules.md §9.7. Each predicate names the commit that
// introduced its rule; the code that applies them is in migrate.go and
// balance.go.

// migrateClearsExecStart reports whether migrate_task_rq_fair() sets
// se->exec_start = 0 on every set_task_cpu() of a fair task (wakeup
// migrations and queued moves alike), so task_hot() sees the task cold.
// v3.11's migrate_task_rq_fair() only queues the removed load [R]; v5.8's
// clears exec_start [R]; a53ce18cacb4 (v6.3) moved the reset into
// enqueue_entity() (enqueueClearsExecStart). The release between v3.11
// and v5.8 that added it was not resolved [M]: no profile lies between.
func (s *Sim) migrateClearsExecStart() bool {
	return !s.eevdf && s.version >= 500
}

// enqueueClearsExecStart reports whether enqueue_entity() clears
// se->exec_start for ENQUEUE_MIGRATED, which ttwu sets for a wakeup onto
// another CPU (WF_MIGRATED) and activate_task() for a queued move
// (task_on_rq_migrating()): a53ce18cacb4 "sched/fair: Sanitize vruntime of
// entity being migrated", v6.3 [R patch]. Every EEVDF profile has it.
func (s *Sim) enqueueClearsExecStart() bool {
	return s.eevdf && s.version >= 603
}

// lbRefusesDelayed reports whether can_migrate_task() refuses a
// delayed-dequeue task under this migration type: 61b82dfb6b7e
// "sched/fair: Do not try to migrate delayed dequeue task" (v6.14)
// refuses it unless the balancer migrates load. v6.12 has no such test:
// its balancer moves a delayed task like any other (it stays delayed on
// the destination).
func (s *Sim) lbRefusesDelayed(migrationType int) bool {
	return s.version >= 614 && migrationType != migrateLoad
}

// lbSoftLimitsIneligible reports whether can_migrate_task() refuses, while
// the domain's nr_balance_failed is 0, a task not eligible on its source
// when the destination has queued fair entities
// (task_is_ineligible_on_dst_cpu(), PLACE_LAG): 873199d27bb2
// "sched/core: Prioritize migrating eligible tasks in sched_balance_rq()",
// v6.14 [R patch].
func (s *Sim) lbSoftLimitsIneligible() bool {
	return s.eevdf && s.version >= 614 && s.feat.Has(PlaceLag)
}

// forkSetsRecentUsedCPU reports whether wake_up_new_task() seeds
// p->recent_used_cpu with task_cpu(p), the CPU sched_fork() gave the
// child (the parent's), before select_task_rq() places it: from the
// commit that introduced recent_used_cpu, 32e839dda3ba (v4.16) [M: the
// commit; R: the line in v5.x and v6.18 core.c]. v3.11 has no
// recent_used_cpu.
func (s *Sim) forkSetsRecentUsedCPU() bool {
	return s.version >= 416
}

// wakeAffineSkipsDelayed reports whether wake_affine_idle()'s sync test
// subtracts cfs_h_nr_delayed() from rq->nr_running (the "Fix
// wake_affine_idle" patch that reads h_nr_queued - h_nr_runnable, so
// v6.14 or later [R patch; its release M]); v6.12 counts delayed tasks.
func (s *Sim) wakeAffineSkipsDelayed() bool {
	return s.version >= 614
}

// rqNrRunning is rq->nr_running: the queued tasks of every class,
// including each class's running one and delayed fair tasks. Throttled RT
// tasks are dequeued from it (dequeue_rt_stack() -> sub_nr_running()).
func (s *Sim) rqNrRunning(rq *rq) int {
	n := rq.nrRunning + len(rq.dl.queue)
	if rq.rt.runnable() {
		n += rq.rt.nrRunning
	}
	return n
}

// dequeueBalancesSchedIdle reports whether a dequeue that leaves only
// SCHED_IDLE tasks on the runqueue sets rq->next_balance = jiffies
// ("balance early to pull high priority tasks", dequeue_task_fair() /
// dequeue_entities()): 323af6deaf70 "sched/fair: Load balance aggressively
// for SCHED_IDLE CPUs", v5.4 [M: the commit; R: the test in the v5.9-rc
// and post-v6.18 copies]. v3.11 has no such rule.
func (s *Sim) dequeueBalancesSchedIdle() bool {
	return s.version >= 504
}

// schedIdleRq mirrors sched_idle_rq(): the runqueue is not empty and every
// task on it (of any class) is a SCHED_IDLE fair task, counted as
// rq->nr_running == cfs.h_nr_idle.
func (s *Sim) schedIdleRq(rq *rq) bool {
	n := s.rqNrRunning(rq)
	if n == 0 {
		return false
	}
	idle := 0
	if c := rq.cfs.curr; c != nil && c.se.onRq && c.policy == SchedIdle {
		idle++
	}
	for _, t := range rq.cfs.queue {
		if t.policy == SchedIdle {
			idle++
		}
	}
	return n == idle
}
