package sched

// Exec balancing (OpExec): kernel/sched/core.c sched_exec(), called from
// fs/exec.c bprm_execve() once the new binary is opened and before it is
// loaded ("execve() is a valuable balancing opportunity, because at this
// point the task has the smallest effective memory and cache footprint").
//
// Kernel (v6.6; the same logic from v3.11 to v6.18, only its form changed:
// select_task_rq(p, SD_BALANCE_EXEC, 0) until v5.10's WF_EXEC, the
// scoped_guard form from 4bdada79f346 "sched: Simplify sched_exec()", v6.6):
//
//	dest_cpu = p->sched_class->select_task_rq(p, task_cpu(p), WF_EXEC);
//	if (dest_cpu == smp_processor_id()) return;
//	if (!cpu_active(dest_cpu)) return;
//	stop_one_cpu(task_cpu(p), migration_cpu_stop, &arg{p, dest_cpu});
//
// For a fair task select_task_rq_fair() takes sd_flag = WF_EXEC & 0xF =
// SD_BALANCE_EXEC: no WF_TTWU, so no wake_affine; the widest domain of the
// task's CPU with SD_BALANCE_EXEC (every level sd_init() builds, except
// NUMA levels beyond RECLAIM_DISTANCE) goes to the slow path
// find_idlest_cpu() (sched_balance_find_dst_cpu(), idlest.go), the path
// fork placement takes, but from the task's own CPU and with the task
// itself discounted: update_sg_wakeup_stats() uses cpu_load_without(),
// cpu_util_without(), cpu_runnable_without(), task_running_on_cpu() and
// idle_cpu_without() (57abff067a08, v5.5), so the CPU the exec'ing task
// runs on counts as idle when nothing else is queued there. The RT and
// deadline classes' select_task_rq() return the task's CPU for anything
// but a wakeup (or, for RT, a fork), so only fair tasks move.
//
// migration_cpu_stop() on the task's CPU: the stopper preempts the task
// and __migrate_task() -> move_queued_task() does deactivate_task(),
// set_task_cpu(dest_cpu), activate_task() and wakeup_preempt() on the
// destination, as for sched_setaffinity() (affinity.go migrationStop(),
// shared). The migration event carries the rule that chose the CPU
// (find_idlest), the switch out of the task the reason exec.
//
// SIMPLIFIED: the stopper thread is not shown and its two context switches
// (task -> migration/N -> next) are charged as the one switch to the CPU's
// next task (hw.ctx_switch_ns, hw.pick_ns), as for sched_setaffinity() and
// active balancing; the destination pays its own switch (and, when idle,
// the reschedule IPI and idle exit). The work of execve() itself (loading
// the binary, page faults of the new image) is not implied: put it in
// `run` or `sys` steps after the exec. sync_entity_load_avg() of
// find_idlest_cpu() is a no-op for the running task (its PELT was updated
// with its cfs_rq's). idle_cpu_without() tests rq->ttwu_pending as
// idleCPU() does (wakelist.go). The v3.11 profile uses
// the v5.5+ slow path and its _without helpers too, as for fork placement
// (before 57abff067a08 find_idlest_group() compared source/target loads;
// UNVERIFIED for exec).
//
// A task that execs is its own process image in the scenario: the step
// does not change the task's name, group or program.

const sdFlagExec = SDBalanceExec

// schedExec mirrors sched_exec() for t, running on rq: it reports whether
// the stopper must move t, with t.stopDest set to the destination.
func (s *Sim) schedExec(rq *rq, t *Task) bool {
	if t.isRT() || t.isDL() {
		return false // select_task_rq_rt() / _dl(): not a wakeup, keep the CPU
	}
	dest, _ := s.selectTaskRq(t, t.cpu, sdFlagExec, false, rq.cpu, nil)
	if dest == rq.cpu {
		return false
	}
	t.stopDest = dest
	return true
}

// taskRunningOnCPU mirrors task_running_on_cpu(): 1 when p is queued on c
// with a PELT contribution (an exec'ing task on its CPU; never a task being
// forked, which is not queued yet and has no contribution).
func taskRunningOnCPU(c CPUID, p *Task) int {
	if c != p.cpu || !p.se.avg.attached || !p.se.onRq {
		return 0
	}
	return 1
}

// cpuLoadWithout, cpuUtilWithout and cpuRunnableWithout mirror
// cpu_load_without(), cpu_util_without() and cpu_runnable_without(): the
// CPU's averages less p's when p contributes to them (lsub_positive()).
func (s *Sim) cpuLoadWithout(c CPUID, p *Task) int64 {
	load := s.cpuLoad(c)
	if c != p.cpu || !p.se.avg.attached {
		return load
	}
	return max(0, load-s.taskLoad(p))
}

func (s *Sim) cpuUtilWithout(c CPUID, p *Task) int64 {
	if c != p.cpu || !p.se.avg.attached {
		p = nil // no contribution, or a new task
	}
	return s.cpuUtil(c, p, -1, false) // util_est.go
}

func (s *Sim) cpuRunnableWithout(c CPUID, p *Task) int64 {
	r := int64(s.rqs[c].cfs.avg.runnableAvg)
	if c == p.cpu && p.se.avg.attached {
		r = max(0, r-int64(p.se.avg.runnableAvg))
	}
	return r
}

// idleCPUWithout mirrors idle_cpu_without(), called once the CPU's
// nr_running without p is known to be 0: idle, or running p itself.
func (s *Sim) idleCPUWithout(c CPUID, p *Task) bool {
	rq := &s.rqs[c]
	if rq.curr != nil && rq.curr != p {
		return false
	}
	return !rq.rt.runnable() && len(rq.wakeList) == 0
}
