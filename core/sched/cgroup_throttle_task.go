package sched

// The task-based throttle of v6.18 (Aaron Lu's series, merged for v6.18:
// e1fad12dcb66 "sched/fair: Switch to task based throttle model",
// eb962f251fbb "Task based throttle time accounting", 5b726e9bf954 "Get rid
// of throttled_lb_pair()"): kernel/sched/fair.c throttle_cfs_rq() only
// marks the cfs_rq; pick_task_fair() queues task_throttle_setup_work() on a
// task it picks under a throttled hierarchy, and throttle_cfs_rq_work()
// dequeues the task (DEQUEUE_SLEEP|DEQUEUE_SPECIAL) onto its cfs_rq's
// throttled_limbo_list when it returns to user mode; tg_unthrottle_up()
// enqueues the limbo tasks again (ENQUEUE_WAKEUP) once no ancestor is
// throttled. A task in the kernel (a sys step) keeps running until it
// leaves it, so it is not stopped holding kernel resources. Its
// follow-ups in the same merge: 253b3f587241 "Do not special case tasks in
// throttled hierarchy" (such a task gets the cgroup next buddy and wakeup
// preemption like any other: wakeeThrottled, dequeueEntities) and
// 0d4eaf8caf8c "Do not balance task to a throttled cfs_rq"
// (balance.go throttledForLB).
//
// Simplified: a user-mode task picked under a throttled hierarchy is
// dequeued at the pick (its way back to user mode takes no simulated time,
// so no switch to it is shown). The throttled time of a cfs_rq starts when
// its first task goes to limbo.

// taskThrottleAtPick handles a task picked under a throttled hierarchy. It
// reports whether the task was throttled (the pick must be repeated).
func (s *Sim) taskThrottleAtPick(rq *rq, p *Task) bool {
	if p.kmode == kmodeSys && p.runLeft != 0 {
		p.throttleWork = true // task_throttle_setup_work(): runs at the return to user mode
		return false
	}
	return s.throttleTaskWork(rq, p)
}

// throttleTaskWork mirrors throttle_cfs_rq_work(). It reports whether the
// task was throttled.
func (s *Sim) throttleTaskWork(rq *rq, p *Task) bool {
	p.throttleWork = false
	q := s.cfsOf(p)
	if !s.throttledHierarchy(q) {
		return false // raced with the unthrottle
	}
	s.updateRqClock(rq)
	s.dequeueTask(rq, p, deqSleep|deqSpecial)
	q.limbo = append(q.limbo, p)
	p.throttled = true
	for c := q; c.se != nil; c = s.cfsOf(c.se) {
		if c.bwq.throttled && c.bwq.throttledClock < 0 {
			c.bwq.throttledClock = s.now
		}
	}
	return true
}

// unthrottleTasks mirrors the tg_unthrottle_up() walk of
// unthrottle_cfs_rq(): the limbo tasks of q's group and its descendants on
// this CPU go back on their queues, deepest groups first, unless another
// throttled ancestor still holds them.
func (s *Sim) unthrottleTasks(rq *rq, q *cfsRq) {
	for k := len(s.tgs) - 1; k >= 1; k-- {
		tg := s.tgs[k]
		if tg == nil || !s.tgUnder(tg, q.tg) {
			continue
		}
		c := tg.cfs[rq.cpu]
		if len(c.limbo) == 0 || s.throttledHierarchy(c) {
			continue
		}
		for i, p := range c.limbo {
			c.limbo[i] = nil
			p.throttled = false
			s.enqueueTask(rq, p, enqWakeup)
		}
		c.limbo = c.limbo[:0]
	}
}

// dropLimbo is dequeue_throttled_task() for a class or priority change:
// the task leaves its cfs_rq's limbo list.
func (s *Sim) dropLimbo(p *Task) {
	q := s.cfsOf(p)
	for i, t := range q.limbo {
		if t == p {
			q.limbo = append(q.limbo[:i], q.limbo[i+1:]...)
			return
		}
	}
}

// enqueueThrottledTask mirrors enqueue_throttled_task() after dropLimbo():
// a fair task whose hierarchy is still throttled goes back on the limbo
// list (it reports true); otherwise the task is no longer throttled and
// the caller enqueues it (in its new class, for a class change).
func (s *Sim) enqueueThrottledTask(p *Task) bool {
	if !p.isRT() && !p.isDL() && s.throttledHierarchy(s.cfsOf(p)) {
		q := s.cfsOf(p)
		q.limbo = append(q.limbo, p)
		return true
	}
	p.throttled = false
	return false
}

// wakeeThrottled is check_preempt_wakeup_fair()'s early return for a
// throttled wakee: before v6.18 any task under a throttled hierarchy
// (throttled_hierarchy()), from v6.18 only a task on a limbo list
// (task_is_throttled(), 253b3f587241: rules.go throttledTasksNormal).
func (s *Sim) wakeeThrottled(p *Task) bool {
	if s.rules.throttledTasksNormal {
		return s.bwUsed && p.throttled
	}
	return s.throttledHierarchy(s.cfsOf(p))
}
