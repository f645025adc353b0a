package sched

// The class hooks a policy or priority change runs: kernel/sched/core.c
// check_class_changed() with switched_from_*/switched_to_*/prio_changed_*
// of fair.c, rt.c and deadline.c (the v6.x forms; v3.11's
// prio_changed_fair() lacks the lone-task return, v5.6 7c2e8bbd87db), and
// sched_dl_overflow() of deadline.c for the bandwidth of a task that
// enters, leaves or stays in SCHED_DEADLINE.
//
// The RT and deadline pulls these hooks queue (rt_queue_pull_task(),
// deadline_queue_pull_task()) run as balance callbacks once the rq lock is
// dropped, after the reschedule tests; pull_rt_task() and pull_dl_task()
// reschedule the CPU when they pulled something. The pushes
// (rt_queue_push_tasks(), deadline_queue_push_tasks()) run there too.
// v3.11's switched_to_rt() and prio_changed_rt() push or pull at once,
// before the test, and skip the reschedule when the push moved the task:
// the same outcome here, as push_rt_task() never moves a task that is to
// preempt its CPU's curr and the pulled task always beats the lowered one.

import (
	"fmt"
	"math/bits"
	"schedplay/core/quote"
)

type schedClass uint8

const (
	classFair schedClass = iota
	classRT
	classDL
)

// prioClass is the class __setscheduler_prio() gives prio.
func prioClass(prio int) schedClass {
	switch {
	case prio < 0:
		return classDL
	case prio < MaxRTPrio:
		return classRT
	}
	return classFair
}

// classChanged mirrors check_class_changed() after p went from oldprio to
// its effective prio; queued is task_on_rq_queued(p).
func (s *Sim) classChanged(rq *rq, p *Task, oldprio int, queued bool) {
	running := rq.curr == p
	from, to := prioClass(oldprio), prioClass(p.effPrio)
	if from != to {
		s.switchedFrom(rq, p, from, queued)
		s.switchedTo(rq, p, to, queued, running)
		return
	}
	if oldprio != p.effPrio || to == classDL {
		s.prioChanged(rq, p, oldprio, queued, running)
	}
}

func (s *Sim) switchedFrom(rq *rq, p *Task, from schedClass, queued bool) {
	switch from {
	case classRT:
		// switched_from_rt(): the last RT task left: pull.
		if queued && rq.rt.nrRunning == 0 {
			s.setattrPullRT(rq)
		}
	case classDL:
		s.switchedFromDL(rq, p, queued)
	}
	// The fair class detached p before the enqueue (switchedFromFair).
}

func (s *Sim) switchedTo(rq *rq, p *Task, to schedClass, queued, running bool) {
	switch to {
	case classFair:
		if !queued {
			// attach_task_cfs_rq() of a sleeping task.
			if !s.eevdf && !p.se.onRq && p.se.sumExec != 0 {
				p.se.vruntime += s.cfsOf(p).minVruntime
			}
			if !p.se.avg.attached {
				s.updateLoadAvg(rq, p, peltDoAttach)
			}
			return
		}
		if running {
			s.reschedCurr(rq, ReasonSetattr, p.id, false)
		} else {
			s.checkPreemptCurr(rq, p, 0)
		}
	case classRT:
		if !queued || running {
			return
		}
		if rq.curr == nil || p.prio() < rq.curr.prio() {
			s.reschedCurr(rq, ReasonSetattr, p.id, false)
		}
		if s.nrCPUsAllowed(p) > 1 && rq.rt.overloaded {
			s.pushRTTasks(rq)
		}
	case classDL:
		if running && p.dl.throttled {
			// enqueue_task_dl()'s dl_check_constrained_dl() throttled it
			// (a deadline left from earlier): the kernel reschedules at
			// the next update_curr_dl(); here at once.
			s.reschedCurr(rq, ReasonDLThrottled, NoTask, false)
		}
		if !queued || running {
			return
		}
		if rq.curr != nil && rq.curr.isDL() {
			s.checkPreemptDL(rq, p)
		} else {
			s.reschedCurr(rq, ReasonSetattr, p.id, false)
		}
		if s.nrCPUsAllowed(p) > 1 {
			s.pushDLTasks(rq)
		}
	}
}

func (s *Sim) prioChanged(rq *rq, p *Task, oldprio int, queued, running bool) {
	if !queued {
		return
	}
	switch prioClass(p.effPrio) {
	case classFair:
		if s.rules.prioChangedSkipsLone && rq.cfs.nrQueued == 1 {
			return
		}
		if running {
			if p.effPrio > oldprio {
				s.reschedCurr(rq, ReasonSetattr, p.id, false)
			}
		} else {
			s.checkPreemptCurr(rq, p, 0)
		}
	case classRT:
		if running {
			if p.effPrio > rq.rt.highestPrio() {
				s.reschedCurr(rq, ReasonSetattr, p.id, false)
			}
			if oldprio < p.effPrio {
				s.setattrPullRT(rq) // our priority decreased: pull
			}
		} else if rq.curr == nil || p.prio() < rq.curr.prio() {
			s.reschedCurr(rq, ReasonSetattr, p.id, false)
		}
	case classDL:
		if running {
			// rq->dl.earliest_dl.curr is 0 with the tree empty (p throttled).
			if len(rq.dl.queue) == 0 || rq.dl.queue[0].dl.deadline < p.dl.deadline {
				s.reschedCurr(rq, ReasonSetattr, p.id, false)
			}
		} else if rq.curr == nil || !rq.curr.isDL() || p.dl.deadline < rq.curr.dl.deadline {
			s.reschedCurr(rq, ReasonSetattr, p.id, false)
		}
		if s.pickNextPushableDL(rq, -1) == nil {
			s.setattrPullDL(rq) // !rq->dl.overloaded
		}
	}
}

// setattrPullRT is the pull_rt_task() callback, with its reschedule.
func (s *Sim) setattrPullRT(rq *rq) {
	n := rq.rt.nrRunning
	saved := s.localCPU
	s.localCPU = rq.cpu
	s.pullRTTask(rq)
	if rq.rt.nrRunning > n {
		s.reschedCurr(rq, preemptReason(rq.curr, rq.rt.first()), NoTask, false)
	}
	s.localCPU = saved
}

// setattrPullDL is the pull_dl_task() callback, with its reschedule.
func (s *Sim) setattrPullDL(rq *rq) {
	n := len(rq.dl.queue)
	saved := s.localCPU
	s.localCPU = rq.cpu
	s.pullDLTask(rq)
	if len(rq.dl.queue) > n {
		s.reschedCurr(rq, preemptReason(rq.curr, rq.dl.queue[0]), NoTask, false)
	}
	s.localCPU = saved
}

// switchedFromDL mirrors switched_from_dl(): the task's bandwidth stays
// admitted until its 0-lag time (task_non_contending(): released at once
// when that has passed, else by the inactive timer); its dl_timer finds
// it out of the class (dl_task_timer(): !dl_task(p)); the CPU pulls when
// its last deadline task left.
func (s *Sim) switchedFromDL(rq *rq, p *Task, queued bool) {
	p.dl.timerGen++
	p.dl.throttled, p.dl.yielded = false, false
	s.dlLeave(p)
	if queued && len(rq.dl.queue) == 0 {
		s.setattrPullDL(rq)
	}
}

// dlLeave is the bandwidth part of switched_from_dl() ->
// task_non_contending() for a task no longer of SCHED_DEADLINE policy:
// released at once when its 0-lag time has passed, else then. pi.go calls
// it too, when the deadline boost of such a task ends.
func (s *Sim) dlLeave(p *Task) {
	if !p.dl.admitted || p.policy.IsDeadline() || p.dl.releaseAt != 0 {
		return
	}
	prm := p.dl.params
	zerolag := p.dl.deadline - Time(mulDiv(p.dl.runtime, int64(prm.Period), int64(prm.Runtime)))
	if zerolag <= s.now {
		s.dlReleaseNow(p)
		return
	}
	p.dl.releaseAt = zerolag
	s.dl.pending = append(s.dl.pending, p)
}

// mulDiv is a*b/c truncated toward zero without overflowing (c > 0).
func mulDiv(a, b, c int64) int64 {
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = uint64(-a)
	}
	if b < 0 {
		ub = uint64(-b)
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi >= uint64(c) {
		if neg {
			return -1 << 63
		}
		return 1<<63 - 1
	}
	q, _ := bits.Div64(hi, lo, uint64(c))
	if q > 1<<63-1 {
		q = 1<<63 - 1
	}
	if neg {
		return -int64(q)
	}
	return int64(q)
}

// dlReleaseNow is __dl_sub() of a task that left SCHED_DEADLINE.
func (s *Sim) dlReleaseNow(p *Task) {
	if p.dl.admitted {
		p.dl.rd.dlTotalBW -= p.dl.bw
		p.dl.admitted = false
	}
	p.dl.releaseAt = 0
}

// dlReleaseDue applies the inactive timers that have fired: the pending
// releases whose 0-lag time has come.
func (s *Sim) dlReleaseDue() {
	keep := s.dl.pending[:0]
	for _, p := range s.dl.pending {
		if p.dl.releaseAt == 0 {
			continue
		}
		if p.dl.releaseAt <= s.now {
			s.dlReleaseNow(p)
			continue
		}
		keep = append(keep, p)
	}
	s.dl.pending = keep
}

// dlExitPending releases the pending bandwidth of a task that exits
// before its 0-lag time (SIMPLIFIED: the kernel's inactive timer, which
// holds a reference to the task, releases it at the 0-lag time).
func (s *Sim) dlExitPending(p *Task) {
	if p.dl.releaseAt != 0 {
		s.dlReleaseNow(p)
		s.dlReleaseDue()
	}
}

// dlSetattrOverflow mirrors sched_dl_overflow() for a change of p to a.
func (s *Sim) dlSetattrOverflow(p *Task, a *Attr) error {
	s.dlReleaseDue()
	var newBW int64
	if a.Policy.IsDeadline() {
		newBW = toRatio(a.DL.Period, a.DL.Runtime)
	}
	hasDL := p.policy.IsDeadline()
	if hasDL && newBW == p.dl.bw {
		return nil
	}
	rd := s.dlRootDomain(p)
	if p.dl.admitted {
		rd = p.dl.rd
	}
	limit := s.dlBWLimit(rd)
	over := func(old int64) bool { return limit >= 0 && limit < rd.dlTotalBW-old+newBW }
	switch {
	case a.Policy.IsDeadline() && !hasDL && !over(0):
		if p.dl.admitted {
			// The inactive timer was still armed: __dl_sub() of the old
			// bandwidth. (Also for a task that left the policy while
			// boosted in the deadline class, whose bandwidth is still held
			// without one: the kernel adds the new on top; here it is
			// replaced, docs/kernel-rules.md 18.3.)
			s.dlReleaseNow(p)
			s.dlReleaseDue()
		}
		rd.dlTotalBW += newBW
		p.dl.bw, p.dl.admitted, p.dl.rd = newBW, true, rd
		return nil
	case a.Policy.IsDeadline() && hasDL && !over(p.dl.bw):
		rd.dlTotalBW += newBW - p.dl.bw
		p.dl.bw = newBW
		return nil
	case !a.Policy.IsDeadline() && hasDL:
		return nil // released at the 0-lag time (switchedFromDL)
	}
	if !a.Policy.IsDeadline() {
		return fmt.Errorf("task %s: sched_setattr(%s) at %s fails with EBUSY: the task runs in the deadline class by priority inheritance (sched_dl_overflow() refuses a change that neither enters, leaves nor stays in SCHED_DEADLINE)", quote.Clip(p.name), a.Policy, s.now)
	}
	unit := float64(int64(1) << bwShift)
	return fmt.Errorf("task %s: sched_setattr(SCHED_DEADLINE) at %s refused (sched_dl_overflow(): EBUSY): its bandwidth %.3f (dl_runtime/dl_period) on top of %.3f already admitted exceeds %.3f CPUs (sched_rt_runtime_us/sched_rt_period_us = %d/%d times the root domain's capacity)",
		quote.Clip(p.name), s.now, float64(newBW)/unit, float64(rd.dlTotalBW-p.dl.bw*boolInt(hasDL))/unit, float64(limit)/unit, s.sys.RTRuntimeUs, s.sys.RTPeriodUs)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
