package sched

// The constant bandwidth server (CBS) rules of kernel/sched/deadline.c:
// update_dl_entity() with dl_entity_overflow() and
// update_dl_revised_wakeup(), replenish_dl_new_period(),
// replenish_dl_entity(), dl_check_constrained_dl(), start_dl_timer() and
// the replenishment timer dl_task_timer().
//
// A deadline task owns runtime Q every period P, to be used before its
// relative deadline D. When it wakes, it keeps its current deadline and
// remaining runtime unless the deadline has passed or the remaining
// runtime would exceed its bandwidth up to that deadline
// (dl_entity_overflow(): runtime / (deadline - now) > Q / D, compared in
// units of 2^DL_SCALE ns); then it gets a fresh period (deadline = now + D,
// runtime = Q). For a constrained task (D < P) whose deadline has not
// passed, the revised wakeup rule scales the runtime down to the density
// left instead (update_dl_revised_wakeup()). When its runtime is used up it
// is throttled (update_curr_dl(), dl.go) and dl_timer replenishes it at the
// start of its next period, deadline - D + P (dl_next_period()):
// replenish_dl_entity() adds P to the deadline and Q to the runtime until
// the runtime is positive, so an overrun is paid back from the next
// periods.

const (
	dlScale = 10 // DL_SCALE
	bwShift = 20 // BW_SHIFT
)

// toRatio mirrors to_ratio(period, runtime): runtime/period in units of
// 2^-BW_SHIFT; a zero period means no limit (-1 in the kernel's u64).
func toRatio(period, runtime Time) int64 {
	if period == 0 {
		return 0
	}
	return int64(runtime<<bwShift) / int64(period)
}

// dlEntityOverflow mirrors dl_entity_overflow().
func (s *Sim) dlEntityOverflow(p *Task) bool {
	pp := p.piParams()
	left := (int64(pp.Deadline) >> dlScale) * (p.dl.runtime >> dlScale)
	right := (int64(p.dl.deadline-s.now) >> dlScale) * (int64(pp.Runtime) >> dlScale)
	return right < left
}

// updateDLEntity mirrors update_dl_entity() at a wakeup.
func (s *Sim) updateDLEntity(p *Task) {
	if p.dl.deadline < s.now || s.dlEntityOverflow(p) {
		if p.dl.params.Deadline != p.dl.params.Period && p.dl.deadline >= s.now && !p.dlBoosted() {
			// update_dl_revised_wakeup(): runtime = density * laxity.
			laxity := int64(p.dl.deadline - s.now)
			p.dl.runtime = (p.dl.density * laxity) >> bwShift
			return
		}
		s.replenishDLNewPeriod(p)
	}
}

// replenishDLNewPeriod mirrors replenish_dl_new_period().
func (s *Sim) replenishDLNewPeriod(p *Task) {
	pp := p.piParams()
	p.dl.deadline = s.now + pp.Deadline
	p.dl.runtime = int64(pp.Runtime)
}

// replenishDL mirrors replenish_dl_entity().
func (s *Sim) replenishDL(p *Task) {
	pp := p.piParams()
	if p.dl.params.Deadline == 0 {
		// A boosted task of another class: full inherited parameters.
		p.dl.deadline = s.now + pp.Deadline
		p.dl.runtime = int64(pp.Runtime)
	}
	if p.dl.yielded && p.dl.runtime > 0 {
		p.dl.runtime = 0
	}
	for p.dl.runtime <= 0 {
		p.dl.deadline += pp.Period
		p.dl.runtime += int64(pp.Runtime)
	}
	if p.dl.deadline < s.now {
		s.replenishDLNewPeriod(p) // "sched: DL replenish lagged too much"
	}
	p.dl.yielded = false
	p.dl.throttled = false
}

// dlNextPeriod mirrors dl_next_period().
func (p *Task) dlNextPeriod() Time {
	pp := p.piParams()
	return p.dl.deadline - pp.Deadline + pp.Period
}

// dlCheckConstrained mirrors dl_check_constrained_dl(): a constrained task
// that wakes after its deadline but before its next period waits for that
// period, throttled.
func (s *Sim) dlCheckConstrained(p *Task) {
	if p.dl.deadline < s.now && s.now < p.dlNextPeriod() {
		if p.dlBoosted() || !s.startDLTimer(p) {
			return
		}
		p.dl.throttled = true
		if p.dl.runtime > 0 {
			p.dl.runtime = 0
		}
	}
}

// startDLTimer mirrors start_dl_timer(): arm dl_timer at the next period
// on the task's CPU; false when that instant has already passed.
func (s *Sim) startDLTimer(p *Task) bool {
	act := p.dlNextPeriod()
	if act < s.now {
		return false
	}
	p.dl.timerGen++
	s.q.push(qevent{at: act, kind: qDLTimer, cpu: p.cpu, task: p.id, gen: p.dl.timerGen, prio: prioTimer})
	return true
}

// dlTaskTimer mirrors dl_task_timer(): replenish a throttled task; a
// runnable one goes back on its CPU's tree and preempts or is pushed.
func (s *Sim) dlTaskTimer(p *Task) {
	if !p.isDL() || p.dlBoosted() || !p.dl.throttled || p.state == stateDead {
		return
	}
	if p.state != stateRunnable {
		s.replenishDL(p) // a blocked task: replenish only
		return
	}
	rq := &s.rqs[p.cpu]
	s.enqueueDL(rq, p, dlEnqReplenish)
	if rq.curr != nil && rq.curr.isDL() {
		s.checkPreemptDL(rq, p)
	} else {
		s.reschedCurr(rq, preemptReason(rq.curr, p), p.id, false)
	}
	saved := s.localCPU
	s.localCPU = rq.cpu
	s.pushDLTask(rq) // "queueing this task back might have overloaded rq"
	s.localCPU = saved
	if rq.cpu == s.localCPU {
		s.kickIfResched(rq)
	}
}
