package sched

// The rq clock as exec_start sees it: kernel/sched/core.c update_rq_clock(),
// put_prev_task() and init_idle() of v3.11, with
// kernel/sched/fair.c set_next_entity() -> update_stats_curr_start()
// (se->exec_start = rq->clock_task) and kernel/sched/rt.c
// pick_next_task_rt() (p->se.exec_start = rq->clock_task).
//
// The simulator reads s.now wherever the kernel reads the rq clock. The one
// place where the difference is visible is a wakeup of an idle CPU on v3.11
// (kernel-rules.md "stale rq clock at wakeup from idle"):
//
//   - ttwu_queue(): a same-LLC remote wakeup takes the target's rq->lock on
//     the waker's CPU and ttwu_do_activate() -> activate_task() ->
//     enqueue_task() -> update_rq_clock(target rq): the clock is read at the
//     waker's instant (the wake list, and an update when the IPI handler
//     runs sched_ttwu_pending(), is for CPUs that do not share the LLC);
//   - nothing on the target updates it again before the pick: the
//     reschedule IPI (scheduler_ipi() returns early with an empty wake
//     list), the C-state exit, tick_nohz_idle_exit() ->
//     tick_nohz_restart_sched_tick() -> update_cpu_load_nohz() (takes
//     rq->lock, no clock update), and __schedule() -> put_prev_task(), which
//     updates the clock only `if (prev->on_rq || rq->skip_clock_update < 0)`
//     and the idle task's on_rq is 0 (init_idle() never sets it);
//   - so set_next_entity() stamps exec_start with the waker's instant, and
//     the woken task's first update_curr() charges the whole wakeup path
//     (IPI delivery, exit latency, idle exit with the tick restart, the pick
//     and switch) to its sum_exec_runtime and vruntime.
//
// Later kernels set idle->on_rq = TASK_ON_RQ_QUEUED in init_idle() and made
// __schedule() update the clock unconditionally (`rq->clock_update_flags
// <<= 1; update_rq_clock(rq);`): the sources read have both in the v5.x
// era; the first release with either is [M] (taken as v4.11, the rq_flags /
// DEQUEUE_NOCLOCK rework that the unconditional update came with). Every
// profile from v5.8 on reads the clock at the pick.
//
// getrusage() (time(1)) reports sum_exec_runtime split by cputime_adjust()
// in the ratio of the tick-sampled user and system time; the metrics report
// does that split with the task's modelled user:sys ratio (metrics/report.go).
//
// SIMPLIFIED: rq.clockAt is the instant of the last update_rq_clock() as the
// simulator's paths call it (enqueue/dequeue of any class, the tick, a
// __schedule() with a task as prev); the kernel's other callers (load
// balancing's detach/attach go through dequeue/enqueue; hrtick is not
// modelled) are not separated. Only a pick with the idle task as prev reads
// it; every other pick follows an update at the same instant.

// staleIdleClock reports whether the profile's kernel picks a task after
// idle with the rq clock of the last update (put_prev_task() skipping the
// idle task).
func (s *Sim) staleIdleClock() bool { return s.rules.staleIdleClock }

// updateRqClock mirrors update_rq_clock(rq) as far as the instant is
// concerned.
func (s *Sim) updateRqClock(rq *rq) { rq.clockAt = s.now }

// execStartClock is rq->clock_task as the pick reads it: the instant of
// the last update on a stale-clock profile when prev is the idle task,
// otherwise now. The difference is charged to t's sum_exec_runtime by its
// first update_curr(); it is also summed in t.staleExec for the report.
func (s *Sim) execStartClock(rq *rq, t *Task) Time {
	if rq.curr != nil || !s.staleIdleClock() || rq.clockAt >= s.now {
		return s.now
	}
	t.staleExec += int64(s.now - rq.clockAt)
	return rq.clockAt
}

// TaskStaleExecNs is the time charged to task id's sum_exec_runtime
// through a stale rq clock at wakeup from idle (0 on every profile but the
// stale-clock ones): sum_exec_runtime = its running time + this.
func (s *Sim) TaskStaleExecNs(id TaskID) int64 { return s.tasks[id].staleExec }
