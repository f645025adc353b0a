package sched

// The deferred wake-list enqueue (TTWU_QUEUE): kernel/sched/core.c
// ttwu_queue_wakelist() / __ttwu_queue_wakelist() on the waking CPU, and
// sched_ttwu_pending() -> ttwu_do_activate() on the target (v6.18 form,
// read in a post-v6.2 copy of core.c; v3.11's ttwu_queue_remote(),
// scheduler_ipi() and sched_ttwu_pending(void) read in a 3.x copy).
//
// When ttwu_queue_cond() says so (ipi.go), try_to_wake_up() does not take
// the target's rq lock: set_task_cpu() has run (the migration is done on
// the waking CPU), the task is TASK_WAKING, and __ttwu_queue_wakelist()
// sets rq->ttwu_pending and llist_add()s it to the target's queue. Only the
// first entry of an empty list notifies the target:
//   - v5.8+ ("sched: Replace rq::wake_list", the queue is the target's
//     call_single_queue): send_call_function_single_ipi(), which sets
//     TIF_NEED_RESCHED without an interrupt when the idle loop polls
//     (set_nr_if_polling(), trace sched_wake_idle_without_ipi), otherwise a
//     function-call IPI;
//   - v3.16-v5.7: the same polling test, otherwise smp_send_reschedule()
//     (e3baac47f0e8 "sched/idle: Optimize try-to-wake-up IPI");
//   - v3.11: smp_send_reschedule() always (rule wakeListPollNoIPI).
//
// The target runs sched_ttwu_pending() from the IPI handler (an idle CPU
// in a state after the state's exit latency), or from do_idle()'s
// flush_smp_call_function_queue() before schedule_idle() when it was
// polled: update_rq_clock(), then per entry ttwu_do_activate() with
// WF_MIGRATED only (no WF_SYNC): activate_task(), wakeup_preempt(),
// ttwu_do_wakeup() (sched_wakeup, printed there on the target, in hardirq
// context), the class's task_woken(), and the avg_idle update of an idle
// rq. Until then the task is on no runqueue: rq->nr_running does not count
// it, but idle_cpu() / available_idle_cpu() report the target busy through
// rq->ttwu_pending (v5.8+; v3.11 tests llist_empty(&rq->wake_list)), so
// select_idle_sibling() does not stack a second wakeup onto it.
//
// SIMPLIFIED: a handler that reaches a CPU in the irqs-off parts of the
// idle path (the governor, the exit path, __schedule()) runs at once, as
// the reschedule IPI does (ipi.go); a polled CPU enqueues when its state
// exits, before tick_nohz_idle_exit()'s cost (the kernel flushes after
// it); a wake-list entry queued while another request's IPI is in flight
// rides on that IPI; the p->on_cpu case (wakee still descheduling) and
// v6.17's TTWU_QUEUE_DELAYED (off by default) are not modelled. The
// ttwu_pending false-negative window of v5.8-v6.1 (cleared before the
// enqueue, fixed by "sched: Clear ttwu_pending after enqueue_task()", v6.2)
// has no width in a discrete-event engine.

// wakeEntry is a task on a CPU's wake list: what ttwu_do_activate() and
// the sched_wakeup line need when the target runs sched_ttwu_pending().
type wakeEntry struct {
	task   TaskID
	waker  TaskID // NoTask: interrupt context
	flags  int    // enq* flags of the activation (enqMigrated: p->sched_remote_wakeup)
	reason Reason
}

// queueWakelist mirrors __ttwu_queue_wakelist() and the notification of the
// target (send_call_function_single_ipi(), or before v5.8
// ttwu_queue_remote()'s smp_send_reschedule()) for t, woken by waker onto
// rq.
func (s *Sim) queueWakelist(rq *rq, t *Task, flags int, reason Reason, waker *Task) {
	t.state = stateWaking
	rq.wakeList = append(rq.wakeList, wakeEntry{task: t.id, waker: taskID(waker), flags: flags, reason: reason})
	if len(rq.wakeList) > 1 {
		return // llist_add() found entries: the pending notification takes this one too
	}
	if s.rules.wakeListPollNoIPI && !s.ideal() && s.csdPolled(rq) {
		// set_nr_if_polling(): the idle loop sees TIF_NEED_RESCHED, leaves
		// its state (the exit latency) and flushes the queue (idle.go).
		if !rq.needResched {
			rq.needResched = true
			rq.reschedReason, rq.reschedBy = ReasonIdleWakeup, t.id
			if s.observed() {
				s.emit(Event{Kind: EvResched, CPU: rq.cpu, Prev: NoTask, Next: t.id, Reason: ReasonIdleWakeup})
			}
		}
		s.emit(Event{Kind: EvWakeIdleNoIPI, CPU: rq.cpu, Prev: NoTask, Next: NoTask})
		if !rq.ipiPending {
			rq.ipiPending = true
			rq.ipiKind = 0
			s.q.push(qevent{at: s.now, kind: qResched, cpu: rq.cpu, prio: prioTimer})
		}
		return
	}
	if rq.ipiPending {
		return // an IPI is in flight: its handler runs the list (SIMPLIFIED)
	}
	rq.ipiPending = true
	kind := byte('R') // smp_send_reschedule(): scheduler_ipi() runs the list
	if s.rules.wakeListCSD {
		kind = 'F' // the call-function IPI: flush_smp_call_function_queue()
	}
	s.sendIPI(rq, kind)
}

// ttwuPending mirrors sched_ttwu_pending() on rq (the CPU that runs it):
// every queued wakeup is activated. llist_add() pushes at the head; from
// v5.8 __flush_smp_call_function_queue() restores the queued order with
// llist_reverse_order(), v3.11's llist_del_all() walk takes the newest
// first.
func (s *Sim) ttwuPending(rq *rq) {
	n := len(rq.wakeList)
	if n == 0 {
		return
	}
	s.updateRqClock(rq)
	for i := range n {
		if !s.rules.wakeListCSD {
			i = n - 1 - i
		}
		s.ttwuDoActivate(rq, rq.wakeList[i])
	}
	rq.wakeList = rq.wakeList[:0] // WRITE_ONCE(rq->ttwu_pending, 0) after the enqueues
}

// ttwuDoActivate mirrors ttwu_do_activate() for a wake-list entry: the
// class of the task as it is now (a PI boost or sched_setattr() may have
// changed it while it was queued).
func (s *Sim) ttwuDoActivate(rq *rq, w wakeEntry) {
	t := s.tasks[w.task]
	var waker *Task
	if w.waker != NoTask {
		waker = s.tasks[w.waker]
	}
	t.state = stateRunnable
	s.updateAvgIdle(rq)
	switch {
	case t.isDL():
		s.enqueueDL(rq, t, dlEnqWakeup)
		s.emitWakeup(rq.cpu, t, w.reason, waker, true)
		if t.dl.onRq {
			s.checkPreemptCurr(rq, t, 0)
			s.taskWokenDL(rq, t)
		}
	case t.isRT():
		s.enqueueRT(rq, t)
		s.emitWakeup(rq.cpu, t, w.reason, waker, true)
		s.checkPreemptCurr(rq, t, 0)
		s.taskWokenRT(rq, t)
	default:
		s.enqueueTask(rq, t, w.flags)
		if s.observed() {
			s.emitWakeup(rq.cpu, t, w.reason, waker, true)
		}
		s.checkPreemptCurr(rq, t, 0) // WF_MIGRATED only: no WF_SYNC, no WF_FORK
	}
}
