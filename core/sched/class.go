package sched

// The scheduling-class layer of kernel/sched/core.c: __pick_next_task() with
// put_prev_task_balance(), wakeup_preempt() with sched_class_above(), and the
// per-class dispatch of task_tick, yield_task, update_curr and the
// enqueue/dequeue of a task that sleeps or exits.
//
// Classes run in the order stop > dl > rt > fair > idle. The simulator has
// no stop task: the stopper of active balancing is an engine event
// (balance.go). The deadline class holds SCHED_DEADLINE tasks (dl.go) and
// tasks boosted by a deadline mutex waiter (pi.go); the v6.12+ fair server
// (rt_bandwidth.go) is a deadline entity too, which picks a fair task above
// the RT class while it is running, and above the deadline tasks when its
// deadline is earlier (pickDL()). A task's class follows its effective
// prio (p->prio), which priority inheritance can raise.

// pickNextTask mirrors __pick_next_task() for prev (nil = idle):
// put_prev_task_balance() runs the balance callbacks from prev's class
// down until one reports a runnable task (balance_dl() -> pull_dl_task()
// when a deadline prev left its tree; balance_rt() -> pull_rt_task() when
// an RT prev left its list and the CPU's priority drops, or after
// balance_dl() found no deadline task), then the classes are asked in
// order. A fair prev is put
// (put_prev_task_fair()) only when another class or task wins, as
// pick_next_task_fair() does.
func (s *Sim) pickNextTask(rq *rq, prev *Task) (*Task, PickRule) {
	fairPrev := prev
	if prev != nil && prev.isDL() {
		fairPrev = nil
		s.updateCurrDL(rq) // put_prev_task_dl()
		if !prev.dl.onRq {
			s.pullDLTask(rq) // balance_dl(): need_pull_dl_task()
		}
		// balance_dl() returns sched_dl_runnable(); when nothing is left
		// the class walk goes on to balance_rt(rq, prev): a deadline prev
		// is never on an rt list and need_pull_rt_task() (highest_prio.curr
		// > prev->prio = -1) always holds, so the CPU pulls RT tasks too.
		// A v6.12+ fair server that is running (enqueued on the dl_rq)
		// counts in dl_nr_running.
		if len(rq.dl.queue) == 0 && !rq.rt.fs.running {
			s.pullRTTask(rq)
		}
	} else if prev != nil && prev.isRT() {
		fairPrev = nil
		s.updateCurrRT(rq) // put_prev_task_rt()
		if !prev.rt.onRq && rq.rt.highestPrio() > prev.prio() {
			s.pullRTTask(rq) // balance_rt(): need_pull_rt_task()
		}
	} else if prev != nil && s.fairCurr(prev) && prev.se.onRq {
		s.updateCurr(rq) // update_curr() before the classes look (fair server accounting)
	}
	if next := s.pickDL(rq); next != nil {
		if fairPrev != nil && s.fairCurr(fairPrev) {
			s.putPrev(rq, fairPrev)
		}
		if next != prev {
			s.setNextDL(next)
		}
		return next, PickDLEarliestDeadline
	}
	if rq.rt.fs.running && rq.cfs.nrQueued > 0 {
		// pick_task_dl() -> the fair server -> pick_task_fair().
		next, _ := s.pickNextFair(rq, fairPrev)
		if next != nil {
			return next, PickFairServer
		}
	}
	if rq.rt.runnable() {
		next := rq.rt.first()
		if fairPrev != nil && s.fairCurr(fairPrev) {
			s.putPrev(rq, fairPrev) // put_prev_task_fair(): update_curr() on the class switch
		}
		if next != prev {
			s.setNextRT(rq, next)
		}
		return next, PickRTPrio
	}
	return s.pickNextFair(rq, fairPrev)
}

// wakeupPreempt mirrors wakeup_preempt(): the same class decides for
// itself; a class above curr's preempts it; a class below does nothing. The
// idle task always gives way.
func (s *Sim) wakeupPreempt(rq *rq, p *Task, wakeFlags int) bool {
	curr := rq.curr
	if curr == nil {
		s.reschedCurr(rq, ReasonIdleWakeup, p.id, false)
		return true
	}
	switch {
	case p.isDL() && curr.isDL():
		s.checkPreemptDL(rq, p)
	case p.isDL():
		s.reschedCurr(rq, ReasonHigherClass, p.id, false)
	case curr.isDL():
		// Nothing below the deadline class preempts it.
	case p.isRT() && curr.isRT():
		s.checkPreemptRT(rq, p)
	case p.isRT():
		s.reschedCurr(rq, ReasonHigherClass, p.id, false)
	case curr.isRT():
		// A fair wakee never preempts the RT class.
	default:
		return false // fair vs fair: the fair class decides
	}
	return true
}

// preemptReason is the reason resched_curr() is given when p, already
// queued on rq (a push or pull), is to run there.
func preemptReason(curr, p *Task) Reason {
	switch {
	case curr == nil:
		return ReasonIdleWakeup
	case curr.isDL() && p.isDL():
		return ReasonDLEarlierDeadline
	case p.isDL() && !curr.isDL():
		return ReasonHigherClass
	case curr.isRT():
		return ReasonRTHigherPrio
	default:
		_ = p
		return ReasonHigherClass
	}
}

// taskTick dispatches sched_tick()'s curr->sched_class->task_tick().
func (s *Sim) taskTick(rq *rq) {
	if rq.curr.isDL() {
		s.taskTickDL(rq)
		return
	}
	if rq.curr.isRT() {
		s.taskTickRT(rq)
		return
	}
	s.taskTickFair(rq)
}

// classUpdateCurr dispatches update_curr for the running task.
func (s *Sim) classUpdateCurr(rq *rq) {
	if rq.curr != nil && rq.curr.isDL() {
		s.updateCurrDL(rq)
		return
	}
	if rq.curr != nil && rq.curr.isRT() {
		s.updateCurrRT(rq)
		return
	}
	s.updateCurr(rq)
}
