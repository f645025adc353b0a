package sched

// Deadline placement and balancing: kernel/sched/deadline.c
// select_task_rq_dl(), find_later_rq() over kernel/sched/cpudeadline.c
// cpudl_find(), task_woken_dl(), push_dl_task() / push_dl_tasks() with
// find_lock_later_rq(), pull_dl_task() and the pushable-task tracking
// (has_pushable_dl_tasks(), dl_set_overload()).
//
// Global EDF is approximated as the kernel does it: each CPU's earliest
// deadline (earliest_dl.curr, the leftmost of its tree, running task
// included) is published in cpudl; a task that cannot run at once on its
// CPU is pushed to a CPU with no deadline task (cpudl's free_cpus) or else
// to the CPU whose earliest deadline is the latest, if that is later than
// the task's; a CPU whose deadline task blocks or is throttled pulls the
// earliest pushable task from the overloaded CPUs (those with a queued,
// not running, migratable deadline task), if it is earlier than its own
// earliest. So m CPUs run the m earliest-deadline tasks once the pushes
// and pulls have run.
//
// SIMPLIFIED (exactly as rt_balance.go): cpudl's max-heap is a scan (ties
// go to the lowest CPU number, where the heap would give one of them);
// cpumask_any_and_distribute() takes the first CPU; find_lock_later_rq()
// makes one try; moves cost nothing; the pull runs at the instant the CPU
// drops its priority, with no IPI.

// dlEarliest is earliest_dl.curr; ok is false when the CPU has no deadline
// task.
func (rq *rq) dlEarliest() (Time, bool) {
	if len(rq.dl.queue) == 0 {
		return 0, false
	}
	return rq.dl.queue[0].dl.deadline, true
}

// pickNextPushableDL mirrors pick_next_pushable_dl_task() and, with dst >=
// 0, pick_earliest_pushable_dl_task(rq, dst): the earliest queued task that
// is not running and may run elsewhere.
func (s *Sim) pickNextPushableDL(rq *rq, dst CPUID) *Task {
	for _, t := range rq.dl.queue {
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

// findLaterRq mirrors find_later_rq() with cpudl_find().
func (s *Sim) findLaterRq(p *Task, thisCPU CPUID) CPUID {
	if s.nrCPUsAllowed(p) == 1 {
		return -1
	}
	m := s.dl.mask
	clear(m)
	found := false
	rd := s.rdOf(p.cpu) // task_rq(p)->rd->cpudl (root_domain.go)
	for c := range s.rqs {
		if p.affinity.has(CPUID(c)) && rd.has(CPUID(c)) && len(s.rqs[c].dl.queue) == 0 {
			m.set(c) // cpudl free_cpus
			found = true
		}
	}
	if !found {
		best, bestDL := -1, Time(0)
		for c := range s.rqs {
			if !p.affinity.has(CPUID(c)) || !rd.has(CPUID(c)) {
				continue
			}
			if d, _ := s.rqs[c].dlEarliest(); best < 0 || d > bestDL {
				best, bestDL = c, d
			}
		}
		if best < 0 || !(p.dl.deadline < bestDL) {
			return -1
		}
		m.set(best)
	}
	cpu := p.cpu
	if cpu >= 0 && m.has(cpu) {
		return cpu
	}
	if thisCPU < 0 || !m.has(thisCPU) {
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
				if m.has(CPUID(c)) && sd.span.has(CPUID(c)) {
					return CPUID(c)
				}
			}
		}
	}
	if thisCPU >= 0 {
		return thisCPU
	}
	return m.first(len(s.rqs))
}

// laterOK is the acceptance test of select_task_rq_dl() and
// find_lock_later_rq(): the target has no deadline task or a later one.
func laterOK(p *Task, dst *rq) bool {
	d, ok := dst.dlEarliest()
	return !ok || p.dl.deadline < d
}

// selectTaskRqDL mirrors select_task_rq_dl() for wakeups and creation:
// move only when the CPU runs a deadline task that is pinned or that p
// would not preempt.
func (s *Sim) selectTaskRqDL(p *Task, cpu, thisCPU CPUID) (CPUID, Reason) {
	why := ReasonSISPrev
	if curr := s.rqs[cpu].curr; curr != nil && curr.isDL() &&
		(s.nrCPUsAllowed(curr) < 2 || !(p.dl.deadline < curr.dl.deadline)) && s.nrCPUsAllowed(p) > 1 {
		if target := s.findLaterRq(p, thisCPU); target != -1 && laterOK(p, &s.rqs[target]) {
			cpu, why = target, ReasonDLFindLater
		}
	}
	if !p.affinity.has(cpu) { // select_fallback_rq()
		cpu = p.affinity.first(len(s.rqs))
	}
	return cpu, why
}

// taskWokenDL mirrors task_woken_dl().
func (s *Sim) taskWokenDL(rq *rq, p *Task) {
	curr := rq.curr
	if curr == p || rq.needResched || s.nrCPUsAllowed(p) <= 1 || curr == nil || !curr.isDL() {
		return
	}
	if s.nrCPUsAllowed(curr) < 2 || !(p.dl.deadline < curr.dl.deadline) {
		s.pushDLTasks(rq)
	}
}

// pushDLTasks mirrors push_dl_tasks(), run on rq's CPU.
func (s *Sim) pushDLTasks(rq *rq) {
	saved := s.localCPU
	s.localCPU = rq.cpu
	for s.pushDLTask(rq) {
	}
	s.localCPU = saved
}

// pushDLTask mirrors push_dl_task() with find_lock_later_rq().
func (s *Sim) pushDLTask(rq *rq) bool {
	next := s.pickNextPushableDL(rq, -1)
	if next == nil {
		return false
	}
	if c := rq.curr; c != nil && c.isDL() && next.dl.deadline < c.dl.deadline && s.nrCPUsAllowed(c) > 1 {
		s.reschedCurr(rq, ReasonDLEarlierDeadline, next.id, false)
		return false
	}
	cpu := s.findLaterRq(next, rq.cpu)
	if cpu == -1 || cpu == rq.cpu {
		return false
	}
	dst := &s.rqs[cpu]
	if !laterOK(next, dst) {
		return false
	}
	s.moveDLTask(rq, dst, next, ReasonDLPush)
	s.reschedDLArrival(dst, next)
	return true
}

// reschedDLArrival is resched_curr() of a CPU that received a deadline
// task by a push.
func (s *Sim) reschedDLArrival(dst *rq, p *Task) {
	reason := preemptReason(dst.curr, p)
	s.reschedCurr(dst, reason, p.id, false)
}

// moveDLTask is deactivate_task() + set_task_cpu() + activate_task() for a
// queued deadline task (its deadline and runtime move with it).
func (s *Sim) moveDLTask(src, dst *rq, p *Task, why Reason) {
	s.dlRemove(src, p)
	s.setTaskCPU(p, dst.cpu, why)
	s.enqueueDL(dst, p, 0)
}

// pullDLTask mirrors pull_dl_task() (deadline.c at torvalds/linux
// 0039189a, a v5.10-era copy). It runs from balance_dl() before the
// pick, which takes the pulled task, so it does not reschedule this CPU.
func (s *Sim) pullDLTask(this *rq) {
	dmin := Time(1<<63 - 1)
	rd := s.rdOf(this.cpu) // this_rq->rd->dlo_mask (root_domain.go)
	for c := range s.rqs {
		src := &s.rqs[c]
		if src == this || !rd.has(CPUID(c)) {
			continue
		}
		next := s.pickNextPushableDL(src, -1) // earliest_dl.next; nil = not overloaded
		if next == nil {
			continue
		}
		if d, ok := this.dlEarliest(); ok && d < next.dl.deadline {
			continue
		}
		// pick_earliest_pushable_dl_task(src, this_cpu) must preempt the
		// last one pulled and this CPU's earliest ("it preempts our
		// current (if there's one)"): the test above used the earliest
		// pushable task of src, which may not be allowed here.
		p := s.pickNextPushableDL(src, this.cpu)
		if p == nil || !(p.dl.deadline < dmin) {
			continue
		}
		if d, ok := this.dlEarliest(); ok && !(p.dl.deadline < d) {
			continue
		}
		if sc := src.curr; sc != nil && sc.isDL() && p.dl.deadline < sc.dl.deadline {
			continue // p is about to preempt src's curr: leave it
		}
		s.moveDLTask(src, this, p, ReasonDLPull)
		dmin = p.dl.deadline
	}
}

// tryToWakeUpDL is try_to_wake_up() for a deadline task:
// select_task_rq_dl(), set_task_cpu(), enqueue (ENQUEUE_WAKEUP: the CBS
// wakeup rule), wakeup_preempt(), task_woken_dl().
func (s *Sim) tryToWakeUpDL(t *Task, reason Reason, this CPUID, waker *Task) {
	cpu, why := s.selectTaskRqDL(t, t.cpu, this)
	if cpu != t.cpu {
		s.setTaskCPU(t, cpu, why)
	}
	rq := &s.rqs[cpu]
	s.updateAvgIdle(rq)
	s.enqueueDL(rq, t, dlEnqWakeup)
	s.emitWakeup(rq.cpu, t, reason, waker, false)
	if t.dl.onRq {
		s.checkPreemptCurr(rq, t, 0)
		s.taskWokenDL(rq, t)
	}
	if waker == nil && rq.needResched && rq.cpu == s.localCPU && !s.inTimerIRQ(rq) {
		s.kick(rq)
	}
}

// wakeUpNewTaskDL is wake_up_new_task() followed by the sched_setattr()
// that made the task SCHED_DEADLINE: admission (dl_admit.go), a first
// period from now (setup_new_dl_entity()); no placement
// (select_task_rq_dl() only acts on wakeups), then switched_to_dl() /
// task_woken_dl() push it if it cannot run here.
func (s *Sim) wakeUpNewTaskDL(t *Task, parent *Task, this CPUID) {
	t.cpu = this
	s.setTaskRq(t)
	if !s.dlAdmit(t) {
		t.state = stateDead
		return
	}
	s.replenishDLNewPeriod(t)
	cpu := this
	if !t.affinity.has(cpu) { // select_fallback_rq()
		cpu = t.affinity.first(len(s.rqs))
	}
	rq, reason := s.placeNewTask(t, parent, cpu)
	s.enqueueDL(rq, t, 0)
	s.emit(Event{Kind: EvWakeupNew, CPU: cpu, Next: t.id, Reason: reason, Arg: int64(taskID(parent))})
	s.checkPreemptCurr(rq, t, wfFork)
	s.taskWokenDL(rq, t)
}
