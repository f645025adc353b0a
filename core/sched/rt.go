package sched

// The RT class (SCHED_FIFO, SCHED_RR): kernel/sched/rt.c as read at
// torvalds/linux 00d6a8a7 (see docs/kernel-rules.md section 10).
//
// Mirrors enqueue_task_rt() / __enqueue_rt_entity(), dequeue_task_rt(),
// requeue_task_rt(), pick_next_rt_entity() / pick_task_rt(),
// set_next_task_rt(), put_prev_task_rt(), update_curr_rt(), task_tick_rt(),
// check_preempt_curr_rt() (wakeup_preempt_rt() in 6.x) and yield_task_rt().
//
// The kernel keeps one list per priority level and a bitmap of non-empty
// levels (struct rt_prio_array); the running task stays on its list. Here
// the lists are flattened into one slice ordered by prio and, within a
// level, by list position: queue[0] is what sched_find_first_bit() +
// list_first_entry() returns. Enqueue appends at the tail of its level
// (ENQUEUE_HEAD is never used by the paths modelled), a preempted task
// keeps its place (so it is at the head of its level when it runs again),
// an RR slice expiry and sched_yield() move it to the tail
// (requeue_task_rt(rq, p, 0)).
//
// A group's own RT bandwidth (CONFIG_RT_GROUP_SCHED) is rt_group.go,
// for groups directly below the root. Not modelled: nested group rt_rqs,
// priority inheritance (prio == normal_prio),
// check_preempt_equal_prio() (an equal-prio wakee never reschedules to push
// curr away), the RT PELT signal (avg_rt) and RT task PELT, and the
// watchdog (RLIMIT_RTTIME).

import "slices"

// rtEntity is struct sched_rt_entity.
type rtEntity struct {
	onRq      bool
	timeSlice int // SCHED_RR: ticks left (rt.time_slice)
}

// rtRq is the CPU's root struct rt_rq.
type rtRq struct {
	queue       []*Task // the priority array, flattened (see the file comment)
	nrRunning   int     // rt_nr_running
	rrNrRunning int     // rr_nr_running
	nrMigratory int     // rt_nr_migratory: queued tasks with nr_cpus_allowed > 1
	overloaded  bool    // rt_rq->overloaded (in rd->rto_mask)

	// Bandwidth (rt_bandwidth.go).
	rtTime    int64 // rt_time, ns used in the current period
	throttled bool  // rt_throttled
	// nrGroupThrottled counts the throttled group rt_rqs of this CPU
	// (rt_group.go); their tasks stay in queue but are not picked.
	nrGroupThrottled int

	fs fairServer // v6.12+ rq->fair_server (rt_bandwidth.go)
}

// highestPrio is rt_rq->highest_prio.curr: the best queued prio (the
// running task included), MaxRTPrio when no RT task is queued.
func (q *rtRq) highestPrio() int {
	t := q.first() // rt_group.go: a throttled group's tasks are not counted
	if t == nil {
		return MaxRTPrio
	}
	return t.prio()
}

// rrTimeslice is sched_rr_timeslice in jiffies: msecs_to_jiffies() of
// sysctl_sched_rr_timeslice (rounded up); RR_TIMESLICE (100 ms) when <= 0
// (sched_rr_handler(), [R]).
func (s *Sim) rrTimeslice() int {
	ms := s.sys.RRTimesliceMs
	if ms <= 0 {
		ms = 100
	}
	hz := int64(s.cfg.Profile.HZ)
	return int((ms*hz + 999) / 1000)
}

// nrCPUsAllowed is p->nr_cpus_allowed.
func (s *Sim) nrCPUsAllowed(p *Task) int {
	n := 0
	for c := range s.rqs {
		if p.affinity.has(CPUID(c)) {
			n++
		}
	}
	return n
}

// enqueueRT mirrors enqueue_task_rt(): add p at the tail of its level,
// inc_rt_tasks() (counts, highest prio, migration/overload) and
// inc_rt_group() -> start_rt_bandwidth().
func (s *Sim) enqueueRT(rq *rq, p *Task) {
	s.updateRqClock(rq)
	q := &rq.rt
	pr := p.prio()
	i := len(q.queue)
	for i > 0 && q.queue[i-1].prio() > pr {
		i--
	}
	q.queue = append(q.queue, nil)
	copy(q.queue[i+1:], q.queue[i:])
	q.queue[i] = p
	p.rt.onRq = true
	q.nrRunning++
	if p.policy == SchedRR {
		q.rrNrRunning++
	}
	if s.nrCPUsAllowed(p) > 1 {
		q.nrMigratory++
	}
	s.updateRTMigration(rq)
	s.startRTBandwidth(rq)
	s.startRTGroupBandwidth(p) // rt_group.go
}

// dequeueRT mirrors dequeue_task_rt(): update_curr_rt(), then take p off
// its list (dec_rt_tasks()).
func (s *Sim) dequeueRT(rq *rq, p *Task) {
	s.updateRqClock(rq)
	s.updateCurrRT(rq)
	q := &rq.rt
	if i := slices.Index(q.queue, p); i >= 0 {
		q.queue = slices.Delete(q.queue, i, i+1) // clears the vacated slot
	}
	p.rt.onRq = false
	q.nrRunning--
	if p.policy == SchedRR {
		q.rrNrRunning--
	}
	if s.nrCPUsAllowed(p) > 1 {
		q.nrMigratory--
	}
	s.updateRTMigration(rq)
}

// requeueRTTail mirrors requeue_task_rt(rq, p, 0): list_move_tail() within
// p's level.
func (s *Sim) requeueRTTail(rq *rq, p *Task) {
	q := &rq.rt
	pr := p.prio()
	i := 0
	for i < len(q.queue) && q.queue[i] != p {
		i++
	}
	if i == len(q.queue) {
		return
	}
	for i+1 < len(q.queue) && q.queue[i+1].prio() == pr {
		q.queue[i], q.queue[i+1] = q.queue[i+1], q.queue[i]
		i++
	}
}

// hasRTPeer reports whether p's list holds another task
// (rt_se->run_list.prev != rt_se->run_list.next).
func (q *rtRq) hasPeer(p *Task) bool {
	pr := p.prio()
	n := 0
	for _, t := range q.queue {
		if t.prio() == pr {
			n++
		}
	}
	return n > 1
}

// rtRunnable is sched_rt_runnable(): RT tasks are queued and the rt_rq is
// not throttled (a throttled rt_rq is dequeued from the rq).
func (q *rtRq) runnable() bool {
	return q.nrRunning > 0 && !q.throttled && (q.nrGroupThrottled == 0 || q.first() != nil)
}

// updateCurrRT mirrors update_curr_rt(): charge curr's run time and account
// it against the RT bandwidth.
func (s *Sim) updateCurrRT(rq *rq) {
	curr := rq.curr
	if curr == nil || !curr.isRT() {
		return
	}
	delta := int64(s.now - curr.se.execStart)
	if delta <= 0 {
		return
	}
	curr.se.sumExec += delta
	curr.se.execStart = s.now
	if curr.tg != nil {
		s.chargeCgroup(curr, delta) // cgroup_account_cputime() (cgroup_stat.go)
	}
	s.rtBandwidthAccount(rq, delta)
}

// setNextRT mirrors set_next_task_rt(): the running task is never pushable
// (it stays on its list, see pickNextPushable).
func (s *Sim) setNextRT(rq *rq, t *Task) {
	t.se.execStart = s.execStartClock(rq, t) // pick_next_task_rt(): rq->clock_task (rq_clock.go)
}

// taskTickRT mirrors task_tick_rt() (rt.c at 00d6a8a7 and 251c226c, [R]):
// update_curr_rt(); for SCHED_RR `if (--p->rt.time_slice) return;`, refill
// it with sched_rr_timeslice and, only if run_list.prev != run_list.next
// (another task on its list; one pass of for_each_sched_rt_entity()
// without RT group scheduling), requeue_task_rt(rq, p, 0) and resched.
func (s *Sim) taskTickRT(rq *rq) {
	p := rq.curr
	s.updateCurrRT(rq)
	if p.policy != SchedRR {
		return
	}
	p.rt.timeSlice--
	if p.rt.timeSlice > 0 {
		return
	}
	p.rt.timeSlice = s.rrTimeslice()
	if rq.rt.hasPeer(p) {
		s.requeueRTTail(rq, p)
		by := p.id
		if next := rq.rt.first(); next != nil {
			by = next.id
		}
		s.reschedCurr(rq, ReasonRRSliceExpired, by, false)
	}
}

// checkPreemptRT mirrors check_preempt_curr_rt() (wakeup_preempt_rt()):
// a wakee of higher priority (lower prio value) preempts the RT curr.
func (s *Sim) checkPreemptRT(rq *rq, p *Task) {
	if p.prio() < rq.curr.prio() {
		s.reschedCurr(rq, ReasonRTHigherPrio, p.id, false)
	}
}

// yieldRT mirrors yield_task_rt(): requeue curr at the tail of its list.
func (s *Sim) yieldRT(rq *rq) { s.requeueRTTail(rq, rq.curr) }
