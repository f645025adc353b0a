package sched

// Priority inheritance: kernel/locking/rtmutex.c rt_mutex_adjust_prio()
// and rt_mutex_adjust_prio_chain(), and kernel/sched/core.c
// rt_mutex_setprio() with __rt_effective_prio() and check_class_changed().
//
// A mutex owner runs at the best priority of itself and the top waiter of
// every mutex it holds (task_top_pi_waiter()): p->prio = min(top waiter's
// prio, normal_prio), which may move it to another class (a fair owner of
// a mutex an RT task waits for runs as an RT task of that priority; one
// that a deadline task waits for runs in the deadline class with the
// waiter's parameters, pi_se, and is never throttled). When the owner is
// itself blocked on a mutex, its new priority requeues it among that
// mutex's waiters and the walk continues to that mutex's owner
// (rt_mutex_adjust_prio_chain(); max_lock_depth 1024). At unlock the owner
// gives the inherited priority back (rt_mutex_adjust_prio(current) in
// mark_wakeup_next_waiter()).
//
// rt_mutex_setprio() changes the class like sched_setscheduler(): dequeue
// (DEQUEUE_SAVE), put_prev if running, change prio and class, enqueue
// (ENQUEUE_RESTORE; ENQUEUE_REPLENISH for a deadline boost; ENQUEUE_HEAD
// for an RT task whose priority drops), set_next if
// running; then check_class_changed()/prio_changed: a running task that
// got a lower priority is rescheduled, a queued one that got a higher
// priority may preempt. A fair task leaving its class detaches its PELT
// signal (detach_task_cfs_rq()) and attaches again when it comes back; a
// delayed-dequeue fair task finishes its dequeue first.
//
// SIMPLIFIED: a deadline owner boosted by an earlier-deadline waiter keeps
// its own deadline and ordering but is not throttled while boosted; the
// RT balance callbacks after a boost (switched_to_rt()/prio_changed_rt()
// push and pull) are reduced to a push from the owner's CPU. A boost or
// deboost emits EvPISetprio (the kernel's sched_pi_setprio); the traces'
// prio fields show p->prio, the boosted prio (TaskInfo.EffectivePrio).

// piTarget is __rt_effective_prio() over task_top_pi_waiter(): the prio t
// should run at and the donor (nil = none).
func (s *Sim) piTarget(t *Task) (int, *Task) {
	prio := t.normalPrio()
	var donor *Task
	for _, m := range t.lk.held {
		r := &s.res[m]
		if len(r.waiters) == 0 {
			continue
		}
		w := s.tasks[r.waiters[0]]
		if donor == nil || s.waiterLess(w, donor) {
			donor = w
		}
	}
	if donor == nil {
		return prio, nil
	}
	if dp := donor.prio(); dp < prio {
		return dp, donor
	} else if dp < 0 && prio < 0 {
		return prio, donor // both deadline: the donor may lend its pi_se
	}
	return prio, nil
}

// adjustPrio is rt_mutex_adjust_prio(): reports whether t's prio changed.
func (s *Sim) adjustPrio(t *Task) bool {
	prio, donor := s.piTarget(t)
	return s.rtMutexSetprio(t, prio, donor)
}

// maxLockDepth is max_lock_depth.
const maxLockDepth = 1024

// adjustPrioChain is rt_mutex_adjust_prio_chain() from owner o: adjust it,
// requeue it as a waiter if it is blocked, and go on to that mutex's
// owner while priorities change.
func (s *Sim) adjustPrioChain(o *Task) {
	for depth := 0; o != nil && depth < maxLockDepth; depth++ {
		if !s.adjustPrio(o) {
			return
		}
		m := o.lk.blockedOn
		if m < 0 {
			return
		}
		r := &s.res[m]
		dequeueWaiter(r, o)
		s.enqueueWaiter(r, o)
		o = r.owner
	}
}

// rtMutexSetprio mirrors rt_mutex_setprio(t, donor) with prio the
// effective prio. It reports whether anything changed.
func (s *Sim) rtMutexSetprio(t *Task, prio int, donor *Task) bool {
	var pi *Task
	if prio < 0 && donor != nil && (!t.policy.IsDeadline() || donor.dl.deadline < t.dl.deadline) {
		pi = donor
		if donor.dl.pi != nil {
			pi = donor.dl.pi // pi_of(donor)
		}
	}
	old := t.effPrio
	if prio == old && pi == t.dl.pi {
		return false
	}
	if prio != old || prio < 0 {
		s.emitPISetprio(t, old, prio)
	}
	if t.state == stateUnborn || t.state == stateDead || t.cpu < 0 {
		t.effPrio, t.dl.pi = prio, pi
		return true
	}
	rq := &s.rqs[t.cpu]
	queued := t.state == stateRunnable
	running := rq.curr == t
	wasFair := !t.isDL() && !t.isRT()
	toFair := prio >= MaxRTPrio
	if wasFair && !toFair && !queued && t.se.onRq {
		s.dequeueTask(rq, t, deqSleep|deqDelayed) // finish a delayed dequeue first
	}
	if queued {
		s.classDequeue(rq, t, running)
	}
	if wasFair && !toFair && t.se.avg.attached {
		s.updateLoadAvg(rq, t, peltDoDetach) // switched_from_fair(): detach_task_cfs_rq()
	}
	t.effPrio, t.dl.pi = prio, pi
	if old < 0 && prio >= 0 {
		s.dlLeave(t) // switched_from_dl() of a task a setattr step took out of SCHED_DEADLINE (setattr_class.go)
	}
	if queued {
		flags := dlEnqRestore
		if pi != nil {
			flags |= dlEnqReplenish
		}
		s.classEnqueue(rq, t, flags, running)
		if t.isRT() && old < prio {
			s.rtMoveHead(rq, t) // deboost: ENQUEUE_HEAD
		}
	}
	if !queued {
		return true
	}
	switch {
	case running && (prio > old || prio == old):
		// Deboosted (or a new pi_se): let the classes pick again.
		s.reschedCurr(rq, ReasonPI, NoTask, false)
	case running:
	default:
		if rq.curr == nil || prio < old {
			s.checkPreemptCurr(rq, t, 0)
		}
		if t.isRT() {
			s.pushRTTasks(rq)
		} else if t.isDL() {
			s.pushDLTasks(rq)
		}
	}
	return true
}

// emitPISetprio is trace_sched_pi_setprio(), which rt_mutex_setprio()
// fires once it knows the prio changes (or is a deadline prio, whose
// parameters may), on the CPU running it: the locking or unlocking task's.
func (s *Sim) emitPISetprio(t *Task, oldprio, newprio int) {
	cpu := s.localCPU
	if cpu < 0 || int(cpu) >= len(s.rqs) {
		cpu = t.cpu
	}
	if cpu < 0 || int(cpu) >= len(s.rqs) {
		return // a task not placed yet has no CPU to print it on
	}
	s.emit(Event{Kind: EvPISetprio, CPU: cpu, Prev: NoTask, Next: t.id, Reason: ReasonPI, Arg: PISetprioArg(oldprio, newprio)})
}

// rtMoveHead moves t to the head of its priority level
// (__enqueue_rt_entity() with ENQUEUE_HEAD: list_add()).
func (s *Sim) rtMoveHead(rq *rq, t *Task) {
	q := rq.rt.queue
	i := 0
	for i < len(q) && q[i] != t {
		i++
	}
	for i > 0 && q[i-1].prio() == t.prio() {
		q[i], q[i-1] = q[i-1], q[i]
		i--
	}
}

// classDequeue takes a queued task out of its class (DEQUEUE_SAVE), and a
// running one through put_prev_task().
func (s *Sim) classDequeue(rq *rq, t *Task, running bool) {
	switch {
	case t.isDL():
		s.dequeueDL(rq, t)
	case t.isRT():
		s.dequeueRT(rq, t)
	case t.throttled:
		s.dropLimbo(t) // v6.18 dequeue_throttled_task() (cgroup_throttle_task.go)
	default:
		s.dequeueTask(rq, t, 0)
		if running {
			s.putPrev(rq, t)
		}
	}
}

// classEnqueue puts a task into its (new) class (ENQUEUE_RESTORE), and a
// running one through set_next_task().
func (s *Sim) classEnqueue(rq *rq, t *Task, dlFlags int, running bool) {
	if t.throttled && s.enqueueThrottledTask(t) {
		return
	}
	switch {
	case t.isDL():
		s.enqueueDL(rq, t, dlFlags)
		if running {
			s.setNextDL(t)
		}
	case t.isRT():
		s.enqueueRT(rq, t)
		if running {
			s.setNextRT(rq, t)
		}
	default:
		s.enqueueTask(rq, t, 0)
		if running {
			s.setNext(rq, t)
		}
	}
}
