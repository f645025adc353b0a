package sched

// Tasks that read their own CPU clock while they work: the kernel path of
// task_sched_runtime() (kernel/sched/core.c).
//
// clock_gettime(CLOCK_THREAD_CPUTIME_ID) is a real system call (the vDSO
// serves only the wall clocks): posix_cpu_clock_get() -> cpu_clock_sample()
// -> task_sched_runtime(), which for a task running on its CPU takes the rq
// lock and runs update_rq_clock(rq) and p->sched_class->update_curr(rq).
// For a fair task that is update_curr() on the task's own cfs_rq
// (update_curr_fair()), the same function the tick calls, so every
// decision update_curr() takes is taken at the read instead of at the next
// tick: on EEVDF, update_deadline() sees the used-up request and asks for a
// reschedule (v6.6: when the cfs_rq has other entities; v6.12: also
// did_preempt_short(); v6.18: also when slice protection, vprot, ran out),
// and on every version account_cfs_rq_runtime() notices a cgroup's
// exhausted quota. The request is local and the task is in a system call,
// so it is honoured on the return to user mode, at the read. Legacy CFS's
// update_curr() checks no preemption (check_preempt_tick() is the tick's),
// so there a read changes nothing but the bandwidth case; before
// 6e998916dfe3 (v3.19) task_sched_runtime() only added the pending delta
// and called no update_curr() at all (rule cpuClockUpdateCurr, rules.go).
//
// A task with TaskSpec.ClockPoll P reads the clock at the start of each run
// step and after every P of its CPU time in it (worker.c's burn loop; P is
// its polling interval). In the model a read is an engine event only where
// update_curr() could decide something: the first read at or after the
// instant curr's request would be used up, its vprot would run out, it
// would turn ineligible after a short-slice wakeup (v6.12), or its cfs_rq's
// bandwidth runtime would run out; a read that finds nothing due schedules
// the next such read. The instant is re-targeted when a wakeup on the CPU
// may have changed it (checkPreemptCurr). On v6.18 a rescheduled task that
// is picked again keeps its lapsed vprot (set_next_entity() renews it only
// for a new task), so each later read reschedules it until it loses the
// pick: an event per read, as the kernel runs schedule() at each. Alone on
// its cfs_rq, v6.18's update_curr() returns before the vprot test
// (nr_queued 1), so a lapsed vprot decides nothing: there the reads that
// matter are the deadline's, the bandwidth runtime's and the fair server's
// (dl_server_update() throttles it at the read that uses it up), and the
// others are skipped until something could end that (an enqueue on the
// CPU, a reschedule request, a priority change: pollAloneEnded), from where
// every read is an event again. Other reads would only split
// update_curr()'s accounting into smaller deltas, which this abstracts
// (calc_delta_fair() rounding of a nanosecond per read; the alone case is
// taken only for nice-0 weights, where the split is exact, so its runs are
// the same as with every lapsed read an event).
//
// The read's own cost (the system call, about 100-300 ns) is not charged:
// a polling burn counts it against its CPU time, as worker.c does, so the
// step's duration already includes it. Only fair tasks are modelled; an RT
// or deadline task's reads (update_curr_rt()/update_curr_dl()) are not
// events.

// armPoll schedules curr's next clock read that could change a decision,
// at or after the earliest read of the current run segment (from). It
// replaces any pending read of the CPU.
func (s *Sim) armPoll(rq *rq, from Time) {
	rq.pollGen++
	rq.pollAlone = false
	t := rq.curr
	if t == nil || t.clockPoll <= 0 || t.kmode != kmodeUser || !s.rules.cpuClockUpdateCurr || t.isRT() || t.isDL() {
		return
	}
	due, alone, ok := s.pollDue(rq, t, !s.pollEveryRead && !s.pollNoAlone)
	if s.pollEveryRead {
		due, ok = from, true
	}
	if !ok {
		return
	}
	if alone {
		// The read each read would be an event from (pollAloneEnded).
		lapsed, _, _ := s.pollDue(rq, t, false)
		rq.pollAlone, rq.pollLapse = true, readAtOrAfter(t, from, lapsed)
	}
	s.q.push(qevent{at: readAtOrAfter(t, from, due), kind: qClockPoll, cpu: rq.cpu, gen: rq.pollGen, prio: prioRead})
}

// readAtOrAfter is t's first read at or after due, counting from the read
// at from.
func readAtOrAfter(t *Task, from, due Time) Time {
	if due <= from {
		return from
	}
	p := t.clockPoll
	return from + (due-from+p-1)/p*p
}

// pollAloneEnded runs where curr's pending read was found alone
// (rq.pollAlone) and something may end what made the skipped reads
// no-ops: an enqueue on the CPU (curr may no longer be alone), a change of
// curr's priority, class or weight, a reschedule request (a read returns
// to user mode, where it is honoured), the fair server's replenishment
// (its runtime counts again). From there every read is an event again, as
// without the alone case: the pending read becomes the one that model has
// pending, its first read at or after the lapse not yet run (a read at
// this instant has run unless the current event comes before reads).
func (s *Sim) pollAloneEnded(rq *rq) {
	rq.pollAlone = false
	t := rq.curr
	if t == nil || t.clockPoll <= 0 {
		return
	}
	at := rq.pollLapse
	if at < s.now || at == s.now && s.evPrio >= prioRead {
		at = s.nextPoll(rq, t)
		if p := t.clockPoll; s.evPrio < prioRead && at-p == s.now && at-p >= rq.pollLapse {
			at = s.now // the read due now comes after this event
		}
	}
	rq.pollGen++
	s.q.push(qevent{at: at, kind: qClockPoll, cpu: rq.cpu, gen: rq.pollGen, prio: prioRead})
}

// clockPoll is the read at the event: task_sched_runtime() for the running
// task, then the return to user mode.
func (s *Sim) clockPoll(rq *rq) {
	s.updateRqClock(rq)
	s.classUpdateCurr(rq)
	if rq.needResched {
		s.kick(rq)
		return
	}
	s.armPoll(rq, s.now+rq.curr.clockPoll)
}

// rearmPoll re-targets the pending read of rq after an event that may have
// moved the instant of curr's next decision (a wakeup on the CPU).
func (s *Sim) rearmPoll(rq *rq) {
	t := rq.curr
	if t == nil || t.clockPoll <= 0 || rq.needResched || t.runLeft == 0 {
		return
	}
	s.armPoll(rq, s.nextPoll(rq, t))
}

// nextPoll is the first read of t's current run segment after now.
func (s *Sim) nextPoll(rq *rq, t *Task) Time {
	p := t.clockPoll
	first := rq.pollFrom + p - t.pollDone
	if first > s.now {
		return first
	}
	return first + ((s.now-first)/p+1)*p
}

// pollStop carries the CPU time t ran in its segment over to the phase of
// its reads (stopRun).
func (s *Sim) pollStop(rq *rq, t *Task) {
	if d := s.now - rq.pollFrom; d > 0 {
		t.pollDone = (t.pollDone + d) % t.clockPoll
		rq.pollFrom = s.now
	}
}

// pollDue is the earliest instant at which update_curr() on t's cfs_rq
// could reschedule t, if any: the request used up (deadline), the
// protection gone (v6.18 vprot), ineligibility after a short-slice wakeup
// (v6.12 did_preempt_short()), or the bandwidth runtime used up. With
// mayAlone, v6.18's vprot is passed over when t is alone on its cfs_rq
// (pollAloneExact), which alone reports.
func (s *Sim) pollDue(rq *rq, t *Task, mayAlone bool) (due Time, alone, ok bool) {
	q := &rq.cfs
	if s.grouped() && s.fairCurr(t) {
		q = s.cfsOf(t)
	}
	if q.curr != t {
		return 0, false, false
	}
	const none = int64(1) << 62
	exec := none // CPU time after execStart
	if s.eevdf {
		dv := t.se.deadline - t.se.vruntime
		if s.rules.vprot {
			if pv := t.se.vprot - t.se.vruntime; pv < dv {
				if mayAlone && s.pollAloneExact(q, t) {
					alone = true
					if fs := &rq.rt.fs; fs.active && !fs.throttled {
						exec = max(0, fs.runtime) // dl_server_update()
					}
				} else {
					dv = pv
				}
			}
		} else if s.rules.preemptShort && s.feat.Has(PreemptShort) && t.se.vlag != t.se.deadline && q.avgLoad > 0 {
			// entity_eligible() with curr counted holds while
			// (v - min_vruntime) * load <= avg_vruntime of the
			// other entities: the first ineligible offset is
			// floor(avg / load) + 1.
			x := q.avgVruntime / q.avgLoad
			if q.avgVruntime%q.avgLoad != 0 && q.avgVruntime < 0 {
				x--
			}
			dv = min(dv, q.minVruntime+x+1-t.se.vruntime)
		}
		exec = min(exec, s.execForVruntime(dv, &t.se.load))
	}
	if q.bwq.enabled && !q.bwq.throttled {
		exec = min(exec, max(0, q.bwq.remaining))
	}
	if exec >= none {
		return 0, alone, false
	}
	return t.se.execStart + Time(exec), alone, true
}

// pollAloneExact reports whether v6.18's update_curr() on q would return
// before its vprot test at every read (t alone on q) and skipping those
// reads leaves the accounting exact: nice-0 weight (calc_delta_fair() is
// the identity) and no expiry of the local bandwidth slice, which
// expire_cfs_rq_runtime() checks against the clock at each update.
func (s *Sim) pollAloneExact(q *cfsRq, t *Task) bool {
	return q.nrQueued == 1 && t.se.load.weight == s.arith.nice0 && !(q.bwq.enabled && s.feat.Has(CfsSliceExpiry))
}

// execForVruntime inverts calc_delta_fair(): the CPU time after which an
// entity of weight lw has advanced dv in vruntime (rounded up; a read that
// comes a nanosecond early finds nothing due and schedules the next).
func (s *Sim) execForVruntime(dv int64, lw *loadWeight) int64 {
	if dv <= 0 {
		return 0
	}
	if lw.weight == s.arith.nice0 {
		return dv
	}
	if dv > 1<<40 {
		return 1 << 62 // hours of vruntime: no decision within a run
	}
	n := s.arith.nice0
	return dv/n*lw.weight + (dv%n*lw.weight+n-1)/n
}

// Bounds of TaskSpec.ClockPoll: a read every 100 ns is faster than the
// system call itself; one a second is far coarser than any slice.
const (
	MinClockPoll = 100 * Nanosecond
	MaxClockPoll = Second
)
