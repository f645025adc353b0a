package sched

// RT placement and balancing: kernel/sched/rt.c select_task_rq_rt(),
// find_lowest_rq() over kernel/sched/cpupri.c cpupri_find(),
// task_woken_rt(), push_rt_task()/push_rt_tasks() with
// find_lock_lowest_rq(), pull_rt_task(), and the overload tracking of
// update_rt_migration() / rt_set_overload() (rd->rto_mask, rto_count).
//
// The RT class keeps the N highest-priority runnable RT tasks on N CPUs by
// moving tasks at the moment priorities change, not periodically:
//
//   - a wakeup or fork whose target CPU runs an RT task of equal or higher
//     priority (or a pinned one) looks for the lowest-priority CPU
//     (select_task_rq_rt());
//   - after a schedule that picked an RT task, and when a woken RT task
//     cannot run at once, the CPU pushes its highest waiting migratable RT
//     task to the lowest-priority CPU if that CPU runs something of lower
//     priority (push_rt_tasks());
//   - when an RT task blocks and the CPU's priority drops, the CPU pulls
//     waiting RT tasks of higher priority from RT-overloaded CPUs
//     (pull_rt_task()).
//
// cpupri: a CPU's priority is its rt_rq's highest queued prio (the running
// RT task included); a CPU with no RT task queued is at CPUPRI_NORMAL,
// whether it runs a fair task or is idle (v5.11+ maps idle and normal to
// the same level; v5.8's separate CPUPRI_IDLE level is never set by
// cpupri_set() from highest_prio.curr either). cpupri_find() returns the
// allowed CPUs at the lowest non-empty level below the task's priority; the
// per-level bitmaps are recomputed by a scan.
//
// Simplified (exactly): RT_PUSH_IPI (on by default) is replaced by the
// remote-lock pull of RT_PUSH_IPI=off: the CPU that lowers its priority
// pulls directly, at the same instant, with no IPI chain through the
// overloaded CPUs and no IPI latency. find_lock_lowest_rq() does one try
// (the simulator has no lock races, so the RT_MAX_TRIES retries would see
// the same state). Moves cost no time. Capacity fitness
// (rt_task_fits_capacity() with uclamp) is not modelled: every CPU fits.
// check_preempt_equal_prio() is not modelled.

// pickNextPushable mirrors pick_next_pushable_task() (and, with dst >= 0,
// pick_highest_pushable_task(rq, dst)): the highest-priority queued RT task
// that is not running and may run elsewhere (rt.pushable_tasks).
func (s *Sim) pickNextPushable(rq *rq, dst CPUID) *Task {
	for _, t := range rq.rt.queue {
		if t == rq.curr || s.nrCPUsAllowed(t) <= 1 {
			continue
		}
		if dst >= 0 && !t.affinity.has(dst) {
			continue
		}
		return t
	}
	return nil
}

// highestPrioNext is rt.highest_prio.next: the best pushable prio.
func (s *Sim) highestPrioNext(rq *rq) int {
	if t := s.pickNextPushable(rq, -1); t != nil {
		return t.prio()
	}
	return MaxRTPrio
}

// updateRTMigration mirrors update_rt_migration(): an rt_rq with more than
// one RT task, one of them migratable, is overloaded.
func (s *Sim) updateRTMigration(rq *rq) {
	q := &rq.rt
	over := q.nrMigratory > 0 && q.nrRunning > 1
	if over != q.overloaded {
		q.overloaded = over
		if over {
			s.rdOf(rq.cpu).rtoCount++ // rt_set_overload()
		} else {
			s.rdOf(rq.cpu).rtoCount--
		}
	}
}

// lowestMask mirrors cpupri_find(): fill s.rtMask with the CPUs p may run
// on at the lowest priority level below p's. It reports whether any CPU
// qualifies.
func (s *Sim) lowestMask(p *Task) bool {
	clear(s.rtMask)
	best := -1
	rd := s.rdOf(p.cpu) // task_rq(p)->rd->cpupri (root_domain.go)
	for c := range s.rqs {
		if !p.affinity.has(CPUID(c)) || !rd.has(CPUID(c)) {
			continue
		}
		hp := s.rqs[c].rt.highestPrio()
		if hp <= p.prio() {
			continue
		}
		if hp > best {
			clear(s.rtMask)
			best = hp
		}
		if hp == best {
			s.rtMask.set(c)
		}
	}
	return best >= 0
}

// findLowestRq mirrors find_lowest_rq(): among the lowest-priority CPUs
// prefer p's CPU, then this_cpu if it shares an SD_WAKE_AFFINE domain with
// it, then the first such CPU in the smallest affine domain, then any.
func (s *Sim) findLowestRq(p *Task, thisCPU CPUID) CPUID {
	if s.nrCPUsAllowed(p) == 1 {
		return -1
	}
	if !s.lowestMask(p) {
		return -1
	}
	cpu := p.cpu
	if cpu >= 0 && s.rtMask.has(cpu) {
		return cpu
	}
	if thisCPU < 0 || !s.rtMask.has(thisCPU) {
		thisCPU = -1
	}
	if cpu >= 0 {
		for sd := s.topo[cpu].sd; sd != nil; sd = sd.parent {
			if sd.flags&SDWakeAffine == 0 {
				continue
			}
			if thisCPU >= 0 && sd.span.has(thisCPU) {
				return thisCPU
			}
			for c := range s.rqs {
				if s.rtMask.has(CPUID(c)) && sd.span.has(CPUID(c)) {
					return CPUID(c)
				}
			}
		}
	}
	if thisCPU >= 0 {
		return thisCPU
	}
	return s.rtMask.first(len(s.rqs))
}

// selectTaskRqRT mirrors select_task_rq_rt() for wakeups and forks: move
// only when the target's curr is rt_task() and pinned or of equal or
// higher priority, and the lowest CPU runs something of lower priority
// than p. rt_task() is rt_prio(p->prio): before v6.12 that is prio <
// MAX_RT_PRIO, so a deadline curr (prio -1) counts; "sched/rt: Clean up
// usage of rt_task()" (130fd056dd82, v6.12) made rt_prio() exclude
// deadline prios and did not touch rt.c, so from v6.12 it does not.
func (s *Sim) selectTaskRqRT(p *Task, cpu, thisCPU CPUID) (CPUID, Reason) {
	why := ReasonSISPrev
	if curr := s.rqs[cpu].curr; curr != nil && s.rtTask(curr) &&
		(s.nrCPUsAllowed(curr) < 2 || curr.prio() <= p.prio()) {
		if target := s.findLowestRq(p, thisCPU); target != -1 && p.prio() < s.rqs[target].rt.highestPrio() {
			cpu, why = target, ReasonRTFindLowest
		}
	}
	if !p.affinity.has(cpu) { // select_fallback_rq()
		cpu = p.affinity.first(len(s.rqs))
	}
	return cpu, why
}

// tryToWakeUpRT is try_to_wake_up() for an RT task: select_task_rq_rt(),
// set_task_cpu(), ttwu_do_activate() (enqueue, wakeup_preempt(),
// task_woken_rt()).
// waker: the task whose program is running (ipc.go; nil in interrupt
// context); it acts on a resched of its own CPU itself.
func (s *Sim) tryToWakeUpRT(t *Task, reason Reason, this CPUID, waker *Task) {
	cpu, why := s.selectTaskRqRT(t, t.cpu, this)
	if cpu != t.cpu {
		s.setTaskCPU(t, cpu, why)
	}
	rq := &s.rqs[cpu]
	s.updateAvgIdle(rq)
	s.enqueueRT(rq, t)
	s.emitWakeup(rq.cpu, t, reason, waker, false)
	s.checkPreemptCurr(rq, t, 0)
	s.taskWokenRT(rq, t)
	if waker == nil && rq.needResched && rq.cpu == s.localCPU && !s.inTimerIRQ(rq) {
		s.kick(rq)
	}
}

// wakeUpNewTaskRT is wake_up_new_task() for an RT task: no fair placement
// or PELT init (post_init_entity_util_avg() returns early for non-fair).
func (s *Sim) wakeUpNewTaskRT(t *Task, parent *Task, this CPUID) {
	t.cpu = this
	s.setTaskRq(t)
	cpu, _ := s.selectTaskRqRT(t, this, this)
	rq, reason := s.placeNewTask(t, parent, cpu)
	s.enqueueRT(rq, t)
	s.emit(Event{Kind: EvWakeupNew, CPU: cpu, Next: t.id, Reason: reason, Arg: int64(taskID(parent))})
	s.checkPreemptCurr(rq, t, wfFork)
	s.taskWokenRT(rq, t)
}

// rtTask is rt_task(p) at the profile's version (see selectTaskRqRT).
func (s *Sim) rtTask(p *Task) bool {
	if !s.rules.rtTaskExcludesDL {
		return p.isRT() || p.isDL()
	}
	return p.isRT()
}

// taskWokenRT mirrors task_woken_rt(): a woken task that will not run at
// once on a CPU busy with an RT or deadline task ((dl_task(rq->curr) ||
// rt_task(rq->curr)), in every version read) triggers a push.
func (s *Sim) taskWokenRT(rq *rq, p *Task) {
	curr := rq.curr
	if curr == p || rq.needResched || s.nrCPUsAllowed(p) <= 1 || curr == nil || !(curr.isRT() || curr.isDL()) {
		return
	}
	if s.nrCPUsAllowed(curr) < 2 || curr.prio() <= p.prio() {
		s.pushRTTasks(rq)
	}
}

// pushRTTasks mirrors push_rt_tasks(): push while push_rt_task() moves one.
// The push runs on rq's CPU: a destination CPU learns of its new task by a
// reschedule IPI.
func (s *Sim) pushRTTasks(rq *rq) {
	saved := s.localCPU
	s.localCPU = rq.cpu
	for s.pushRTTask(rq) {
	}
	s.localCPU = saved
}

// pushRTTask mirrors push_rt_task() with find_lock_lowest_rq().
func (s *Sim) pushRTTask(rq *rq) bool {
	if !rq.rt.overloaded {
		return false
	}
	next := s.pickNextPushable(rq, -1)
	if next == nil {
		return false
	}
	if rq.curr == nil || next.prio() < rq.curr.prio() {
		s.reschedCurr(rq, preemptReason(rq.curr, next), next.id, false)
		return false
	}
	cpu := s.findLowestRq(next, rq.cpu)
	if cpu == -1 || cpu == rq.cpu {
		return false
	}
	dst := &s.rqs[cpu]
	if dst.rt.highestPrio() <= next.prio() {
		return false
	}
	s.moveRTTask(rq, dst, next, ReasonRTPush)
	s.reschedCurr(dst, preemptReason(dst.curr, next), next.id, false)
	return true
}

// moveRTTask is deactivate_task() + set_task_cpu() + activate_task() for a
// queued RT task.
func (s *Sim) moveRTTask(src, dst *rq, p *Task, why Reason) {
	s.dequeueRT(src, p)
	s.setTaskCPU(p, dst.cpu, why)
	s.enqueueRT(dst, p)
}

// pullRTTask mirrors pull_rt_task() (the RT_PUSH_IPI=off path; see the file
// comment). It runs from balance_rt() before the pick, which then takes the
// pulled task, so it does not reschedule this CPU.
func (s *Sim) pullRTTask(this *rq) {
	rd := s.rdOf(this.cpu) // this_rq->rd (root_domain.go)
	if rd.rtoCount == 0 {
		return
	}
	for c := range s.rqs {
		src := &s.rqs[c]
		if src == this || !src.rt.overloaded || !rd.has(CPUID(c)) {
			continue
		}
		if s.highestPrioNext(src) >= this.rt.highestPrio() {
			continue
		}
		p := s.pickNextPushable(src, this.cpu)
		if p == nil || p.prio() >= this.rt.highestPrio() {
			continue
		}
		if src.curr == nil || p.prio() < src.curr.prio() {
			continue // p is about to preempt src's curr: leave it
		}
		s.moveRTTask(src, this, p, ReasonRTPull)
	}
}
