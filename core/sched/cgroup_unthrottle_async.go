package sched

// The asynchronous unthrottle of a remote CPU's cfs_rq: kernel/sched/fair.c
// unthrottle_cfs_rq_async() / __unthrottle_cfs_rq_async() and
// __cfsb_csd_unthrottle(), from 8ad075c2eb1f "sched: Async unthrottling for
// cfs bandwidth" (Josh Don, v3 of 2022-11, in the v6.2 merge window; rule
// asyncUnthrottle).
//
// distribute_cfs_runtime() runs in the period (or slack) timer on one CPU.
// Up to v6.1 it took each throttled cfs_rq's rq lock, remote or not, and
// unthrottled it there and then (unthrottle_cfs_rq(); the remote CPU hears
// of it through resched_curr()'s IPI when it was idle). From v6.2 a remote
// cfs_rq given runtime joins its rq's cfsb_csd_list and, if it is the
// first, smp_call_function_single_async() sends the CPU a call-function
// request (rq->cfsb_csd); the target unthrottles the list from its handler
// or its idle loop's flush_smp_call_function_queue(). Until then the
// cfs_rq stays throttled and on the group's throttled list, and later
// distributions skip it ("Already queued for async unthrottle"). The
// timer CPU's own cfs_rq is unthrottled after the loop (local_unthrottle).
//
// The request travels the csd.go path (set_nr_if_polling() or a
// call-function IPI, the idle exit, hw.csd_func_ns for the handler) with
// the marker csdCfsb as its sender; the sender does not wait.

// csdCfsb marks rq->cfsb_csd in a CPU's call_single_queue (rq.csd).
const csdCfsb TaskID = -2

// unthrottleCfsRqAsync mirrors __unthrottle_cfs_rq_async() for q, which
// distribution just gave positive runtime, from the timer's CPU.
func (s *Sim) unthrottleCfsRqAsync(q *cfsRq) {
	rq := &s.rqs[q.se.cpu]
	if q.bwq.csdQueued {
		return
	}
	first := len(rq.cfsbCSD) == 0
	rq.cfsbCSD = append(rq.cfsbCSD, q)
	q.bwq.csdQueued = true
	if first {
		s.q.push(qevent{at: s.now + Time(s.hw.IPISendNs), kind: qCSDQueue, cpu: rq.cpu, task: csdCfsb, gen: uint32(s.localCPU + 1), prio: prioTimer})
	}
}

// cfsbCSDUnthrottle mirrors __cfsb_csd_unthrottle() on rq: every cfs_rq of
// its list that is still throttled is unthrottled.
func (s *Sim) cfsbCSDUnthrottle(rq *rq) {
	s.localCPU = rq.cpu
	list := rq.cfsbCSD
	rq.cfsbCSD = nil
	for _, q := range list {
		q.bwq.csdQueued = false
		if q.bwq.throttled {
			s.unthrottleCfsRq(q)
		}
	}
	if rq.curr == nil && rq.needResched && rq.reschedReason == ReasonNone && rq.cfs.nrQueued > 0 {
		// Woken by set_nr_if_polling() for the flush: schedule_idle()
		// now finds the unthrottled tasks.
		rq.reschedReason, rq.reschedBy = ReasonIdleWakeup, s.peekTask(&rq.cfs)
	}
	s.kickIfResched(rq)
}
