package sched

// Moving a task between runqueues: kernel/sched/core.c set_task_cpu(),
// move_queued_task() / detach_task() + attach_task() (fair.c), and the fair
// class's migrate_task_rq_fair() with the PELT helpers
// remove_entity_load_avg() / detach_entity_load_avg() /
// attach_entity_load_avg() (pelt.go).
//
// Two kinds of move exist:
//
//   - A waking task (blocked, off every queue) placed on another CPU by
//     select_task_rq_fair(). migrate_task_rq_fair() sees TASK_WAKING:
//     legacy CFS (v5.8) subtracts the source min_vruntime from the absolute
//     vruntime the sleep-dequeue left (v3.11 did it earlier, in
//     task_waking_fair(), with the same net effect), and the enqueue with
//     ENQUEUE_WAKEUP|ENQUEUE_MIGRATED adds the destination min_vruntime back
//     before place_entity(). EEVDF carries the lag saved in vlag by the
//     sleep-dequeue; place_entity() on the new queue applies it. PELT: the
//     blocked task's averages are queued on the old cfs_rq's "removed" sums
//     (remove_entity_load_avg()), on v6.x decayed to the present when the
//     old CPU is idle (migrate_se_pelt_lag(), pelt_migrate_lag.go), and
//     attached to the new one by the enqueue (DO_ATTACH).
//   - A queued task moved by load balancing (detach_task()/attach_task(),
//     also the stopper of active balancing). The dequeue is not a sleep:
//     legacy CFS makes vruntime relative to the source min_vruntime and the
//     enqueue (no ENQUEUE_WAKEUP) renormalises it; EEVDF saves the lag and,
//     with PLACE_REL_DEADLINE, keeps the deadline relative to vruntime;
//     PELT detaches on the dequeue (DO_DETACH) and attaches on the enqueue.
//     A delayed-dequeue task (v6.12; v6.14+ only under migrate_load, see
//     canMigrateTask()) is dequeued without DEQUEUE_DELAYED: it stays
//     delayed, takes its lag along and counts in the destination's
//     h_nr_queued but not its h_nr_runnable. With task groups this holds
//     at every level: dequeue_entities() drops it from h_nr_queued only
//     (h_nr_runnable = 0 for a delayed task without DEQUEUE_SLEEP), an
//     emptied group entity may itself be delayed, and enqueue_task_fair()
//     (task_new && sched_delayed) adds it to h_nr_queued only.
//
// Both kinds leave the task cache-cold for task_hot(): v5.8's
// migrate_task_rq_fair() and, from v6.3, enqueue_entity() on
// ENQUEUE_MIGRATED clear se->exec_start; v3.11 keeps it
// (rules.go execStartResetOnMigrate, execStartResetOnEnqueue).
//
// set_task_cpu() emits EvMigrate (the sched_migrate_task tracepoint, Arg =
// the source CPU) with the rule that chose the destination. A new task's
// placement uses __set_task_cpu() in the kernel: no tracepoint, no
// nr_migrations, so no EvMigrate either.

// setTaskCPU mirrors set_task_cpu(): the task now belongs to dst.
func (s *Sim) setTaskCPU(t *Task, dst CPUID, why Reason) {
	src := t.cpu
	if src == dst {
		return
	}
	t.cpu = dst
	s.setTaskRq(t)
	t.nrMigrations++
	s.emit(Event{Kind: EvMigrate, CPU: dst, Next: t.id, Reason: why, Arg: int64(src)})
}

// migrateWaking moves a blocked task that is being woken from its previous
// CPU to dst: migrate_task_rq_fair() for TASK_WAKING, then set_task_cpu().
// The caller enqueues it with enqWakeup|enqMigrated.
func (s *Sim) migrateWaking(t *Task, dst CPUID, why Reason) {
	src := &s.rqs[t.cpu]
	if !s.eevdf {
		t.se.vruntime -= s.cfsOf(t).minVruntime
	}
	s.migrateTaskRqFair(src, t)
	if s.rules.execStartResetOnMigrate {
		t.se.execStart = 0 // migrate_task_rq_fair(): task_hot() sees it cold
	}
	s.setTaskCPU(t, dst, why)
}

// detachTask mirrors detach_task(): dequeue a queued, not running task from
// src for a load-balancing move (DEQUEUE_NOCLOCK, not a sleep; PELT
// detaches it at once) and set its CPU.
func (s *Sim) detachTask(src *rq, t *Task, dst CPUID, why Reason) {
	if s.grouped() {
		s.dequeueTask(src, t, deqMigrating) // a delayed task leaves h_nr_delayed on every level
		if t.se.delayed {
			s.cfsOf(t).nrDelayed-- // it stays delayed and counts on dst (attachTask)
		}
		s.migrateTaskRqFairHot(t)
		s.setTaskCPU(t, dst, why)
		return
	}
	wasSchedIdle := s.rules.schedIdleBalanceEarly && s.schedIdleRq(src)
	s.utilEstDequeueTask(src, t, deqMigrating) // dequeue_task_fair(): not a sleep
	s.updateLoadAvg(src, t, peltUpdateTG|peltDoDetach)
	// dequeueTask() would update PELT again (a no-op at the same instant);
	// call the class directly to keep the DO_DETACH order of the kernel.
	s.entityDequeue(src, &src.cfs, t, 0)
	if t.se.delayed {
		src.cfs.nrDelayed-- // it stays delayed and counts on dst (attachTask)
	}
	src.nrRunning--
	s.noteMayIdle(src) // idle_hint.go
	if s.rules.schedIdleBalanceEarly && !wasSchedIdle && s.schedIdleRq(src) {
		src.nextBalance = s.jiffies() // dequeue_task_fair(), as in dequeueTask()
	}
	s.migrateTaskRqFairHot(t)
	s.setTaskCPU(t, dst, why)
}

// migrateTaskRqFairHot is the cache-hotness part of migrate_task_rq_fair()
// that set_task_cpu() runs for a queued move: up to v6.2 it clears
// se->exec_start (v6.3+ does it in enqueue_entity(), eevdf.go).
func (s *Sim) migrateTaskRqFairHot(t *Task) {
	if s.rules.execStartResetOnMigrate {
		t.se.execStart = 0
	}
}

// attachTask mirrors attach_task(): activate_task(ENQUEUE_MIGRATED) on dst
// and wakeup_preempt().
func (s *Sim) attachTask(dst *rq, t *Task, preempt bool) {
	s.enqueueTask(dst, t, enqMigrated)
	if t.se.delayed {
		s.cfsOf(t).nrDelayed++ // not counted runnable: h_nr_runnable stays
	}
	if preempt {
		s.checkPreemptCurr(dst, t, 0)
	}
}
