package sched

// sched_setaffinity() of a task on itself (OpAffinity), as rt-app does
// between phases whose "cpus" differ (set_thread_affinity()).
//
// Mirrors kernel/sched/core.c: __sched_setaffinity() ->
// __set_cpus_allowed_ptr_locked(): an unchanged mask returns at once;
// otherwise dest_cpu = cpumask_any_and_distribute(new_mask,
// cpu_active_mask), __do_set_cpus_allowed() installs the mask (the class's
// set_cpus_allowed(): for RT, the rt_rq's migratory count), and
// affine_move_task() returns if the task's CPU is still allowed. If not,
// the task is running (it made the call), so stop_one_cpu() runs
// migration_cpu_stop() on its CPU: the stopper preempts it, and
// __migrate_task() -> move_queued_task() does deactivate_task(),
// set_task_cpu(dest_cpu), activate_task() on dest_cpu's rq and
// wakeup_preempt() there; the CPU then schedules its next task.
//
// cpumask_any_and_distribute() (lib/cpumask.c, from 46a87b3851f0,
// "sched/core: Distribute tasks within affinity masks", v5.7) returns the
// first CPU of the mask after the one it returned last on this CPU
// (per-CPU distribute_cpu_mask_prev, 0 at boot); v3.11 used
// cpumask_any_and(), the first CPU of the mask.
//
// SIMPLIFIED: the stopper thread is not shown (as for active balancing,
// balance.go): the task is switched out with reason affinity after its
// sched_migrate_task. __do_set_cpus_allowed()'s DEQUEUE_SAVE/ENQUEUE_RESTORE
// of a running fair task, which keeps its lag and so its vruntime up to
// rounding, is not replayed. After the move the CPU picks without the
// balance callbacks that run for the stopper as prev (pull_rt_task() and
// newidle balance run as for any pick, schedule()). A task whose class is
// raised by priority inheritance (pi.go) cannot change its affinity here:
// the run stops with an error instead of a move this model does not
// mirror. SCHED_DEADLINE tasks are refused by the scenario (the kernel's
// -EBUSY unless the mask spans the root domain). A forked child takes its
// group's affinity, not its parent's current one (sched.Sim.forkTask).

import (
	"fmt"

	"schedplay/core/quote"
)

// buildMasks turns the CPU lists of p's affinity ops into masks for this
// machine, once per task group.
func (s *Sim) buildMasks(p *program, spec TaskSpec) error {
	n := len(s.rqs)
	for i, op := range p.ops {
		if op.Kind != OpAffinity {
			continue
		}
		if spec.Policy == SchedDeadline {
			return fmt.Errorf("step %d: sched_setaffinity() of a SCHED_DEADLINE task fails with EBUSY unless the mask spans the root domain", i)
		}
		if p.masks == nil {
			p.masks = make([]cpuMask, len(p.ops))
		}
		m := newCPUMask(n)
		if op.CPUs == nil {
			for c := range n {
				m.set(c)
			}
		}
		for _, c := range op.CPUs {
			if c < 0 || c >= n {
				return fmt.Errorf("step %d: affinity CPU %d: the machine has CPUs 0..%d", i, c, n-1)
			}
			m.set(c)
		}
		p.masks[i] = m
	}
	return nil
}

// setAffinity installs mask m for t, running on rq, and reports whether t
// must leave rq (its CPU is not in m); t.stopDest is then where to.
func (s *Sim) setAffinity(rq *rq, t *Task, m cpuMask) bool {
	return s.setAffinityReq(rq, t, m, false)
}

// setAffinityReq is setAffinity; userReq marks a kernel-internal change
// (cpuset_attach()), which leaves user_cpus_ptr alone.
func (s *Sim) setAffinityReq(rq *rq, t *Task, m cpuMask, userReq bool) bool {
	if s.cpusetEff != nil {
		req := m
		if m = s.cpusetClip(t, m); m == nil {
			return false // -EINVAL: no CPU of the mask is in the cpuset (cpuset.go)
		}
		if s.rules.userCpusPtr && !userReq {
			t.userMask = req.clone() // v6.2+: sched_setaffinity() keeps the request (user_cpus_ptr)
		}
	}
	if masksEqual(t.affinity, m) {
		return false
	}
	if t.effPrio != t.normalPrio() {
		s.fail(fmt.Errorf("task %s: sched_setaffinity() while priority inheritance boosts it is not modelled (at %s)", quote.Clip(t.name), s.now))
		return false
	}
	dest := s.distribute(rq, m)
	wasMig := s.nrCPUsAllowed(t) > 1
	copy(t.affinity, m)
	if t.isRT() && t.rt.onRq { // set_cpus_allowed_common() via the class: update_rt_migration()
		if isMig := s.nrCPUsAllowed(t) > 1; isMig != wasMig {
			if isMig {
				rq.rt.nrMigratory++
			} else {
				rq.rt.nrMigratory--
			}
			s.updateRTMigration(rq)
		}
	}
	if m.has(rq.cpu) {
		return false
	}
	t.stopDest = dest
	return true
}

// distribute mirrors cpumask_any_and_distribute(m, active) on rq's CPU.
func (s *Sim) distribute(rq *rq, m cpuMask) CPUID {
	n := len(s.rqs)
	if !s.rules.affinityDistribute {
		return m.first(n) // cpumask_any_and()
	}
	for k := 1; k <= n; k++ {
		c := CPUID((int(rq.distPrev) + k) % n)
		if m.has(c) {
			rq.distPrev = c
			return c
		}
	}
	return m.first(n)
}

// migrationStop mirrors migration_cpu_stop() -> move_queued_task() for the
// running task t of rq, then the CPU's next pick (see the file comment).
// mig is the migration's reason (the rule that chose the destination),
// sw the switch's: affinity for both here, find_idlest and exec for
// sched_exec() (sched_exec.go).
func (s *Sim) migrationStop(rq *rq, t *Task, mig, sw Reason) {
	dst := &s.rqs[t.stopDest]
	s.stopRun(rq)
	s.updateRqClock(rq)
	if t.isRT() {
		s.updateCurrRT(rq) // put_prev_task_rt()
		s.moveRTTask(rq, dst, t, mig)
		s.checkPreemptCurr(dst, t, 0) // wakeup_preempt()
	} else {
		s.updateCurr(rq)
		s.putPrev(rq, t) // put_prev_task_fair(): the stopper took the CPU
		rq.curr = nil
		s.noteMayIdle(rq) // idle_hint.go
		s.detachTask(rq, t, dst.cpu, mig)
		s.attachTask(dst, t, true)
	}
	rq.curr = nil
	s.noteMayIdle(rq)
	next, rule := s.pickNextTask(rq, nil)
	if next == nil && s.newidleBalance(rq) > 0 {
		next, rule = s.pickNextFair(rq, nil)
	}
	if next == nil {
		s.updateIdleRqClockPelt(rq)
	}
	rq.curr = t // switchTo reports the switch from t
	s.switchTo(rq, t, next, rule, sw, NoTask, 'R')
	if next != nil && next.isDL() {
		s.pushDLTasks(rq)
	}
	if next != nil && next.isRT() {
		s.pushRTTasks(rq)
	}
}

func masksEqual(a, b cpuMask) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
