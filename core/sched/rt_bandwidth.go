package sched

// What keeps an RT hog from starving the fair class, which differs by
// kernel version (docs/kernel-rules.md section 10):
//
// Up to v6.11 (profiles v3.11, v5.8, v6.6): RT throttling, kernel/sched/rt.c
// update_curr_rt() -> sched_rt_runtime_exceeded(), start_rt_bandwidth()
// and the period hrtimer sched_rt_period_timer() ->
// do_sched_rt_period_timer(). Each CPU's rt_rq accumulates rt_time while an
// RT task runs; once rt_time exceeds sysctl_sched_rt_runtime (950 ms) the
// rt_rq is throttled (dequeued from the rq) and curr is rescheduled, so the
// fair class runs until the period timer (sysctl_sched_rt_period, 1 s)
// subtracts one runtime from rt_time and unthrottles it. rt_time is charged
// where update_curr_rt() runs: the tick, a dequeue and put_prev, so the
// throttle lands on a tick. RT_RUNTIME_SHARE (borrowing runtime from other
// CPUs, do_balance_runtime()) is taken as off: the default since "sched/rt:
// Disable RT_RUNTIME_SHARE by default" (Daniel Bristot de Oliveira, in the
// v5.10 sched pull; backported to 5.4.y in 2022) [R: see kernel-rules.md
// 10.2]. SIMPLIFIED: v3.11 and v5.8 had it on and are modelled with it off
// too (a hog there borrows the other CPUs' spare runtime, up to a period). The period timer is one global hrtimer, pinned to the CPU
// that started it; it first expires one period after that start (the
// immediate expiry of hrtimer_forward_now(timer, 0) has nothing to
// replenish and is skipped) and stops when no CPU has rt_time or RT tasks.
//
// v6.12+ (profiles v6.12, v6.18): 5f6bd380c7bd ("sched/rt: Remove default
// bandwidth control", first in v6.12-rc1) removed the root rt_rq
// throttling; the fair class is protected by a per-CPU deferred deadline
// server, rq->fair_server (fair_server_init(): 50 ms runtime per 1000 ms
// period; a110a81c52a9 "sched/deadline: Deferrable dl server"). Modelled as:
// the server starts when the CPU's fair class goes from no queued task to
// one (dl_server_start() from enqueue_task_fair()) with runtime 50 ms and
// deadline now+1 s, and arms its timer at the zero-laxity instant
// deadline-runtime; any fair execution charges its runtime
// (dl_server_update() from update_curr()); at the zero-laxity instant, if
// runtime is left, the server runs: it picks fair tasks above the RT class
// until the runtime is used up (checked at update_curr, i.e. the tick), then
// it is throttled until the deadline, where it is replenished (runtime 50 ms,
// deadline +1 s) and deferred again. It stops when the fair class has no
// queued task (dl_server_stop()). Simplified: no CBS/EDF admission or
// deadline ordering against other deadline entities (there are none), no
// dl_server_idle lazy stop (v6.17+), the debugfs knobs are constants.

const (
	fairServerRuntime = 50 * Millisecond
	fairServerPeriod  = 1000 * Millisecond
)

// fairServer is rq->fair_server (struct sched_dl_entity as a dl_server).
type fairServer struct {
	active    bool // dl_server_active()
	running   bool // zero-laxity reached: dl_defer_running, picks fair above RT
	throttled bool // runtime used up; replenished at deadline
	runtime   int64
	deadline  Time
	gen       uint32 // cancels a pending qFairServer
	// The dl_timer, armed lazily: armAt is when it should fire (0 = not
	// armed) and queuedAt the time of the one live qFairServer event (0 =
	// none). Re-arming later than a live event only moves armAt (the event
	// re-queues itself when it fires early), so a server started and
	// stopped at every wakeup of an otherwise idle CPU keeps one event in
	// the queue instead of one per start.
	armAt    Time
	queuedAt Time
}

// rtThrottling reports whether the profile's kernel throttles the root
// rt_rq (rt_bandwidth_enabled(): sysctl_sched_rt_runtime >= 0, before
// v6.12; from v6.12 only in kernels built with CONFIG_RT_GROUP_SCHED,
// Config.RTGroupSched: 5f6bd380c7bd removed the default bandwidth control
// of !RT_GROUP_SCHED kernels, and the fair server runs beside it).
func (s *Sim) rtThrottling() bool {
	return (s.rules.rtThrottleRoot || s.cfg.RTGroupSched) && s.sys.RTRuntimeUs >= 0
}

// startRTBandwidth mirrors start_rt_bandwidth() from inc_rt_group().
func (s *Sim) startRTBandwidth(rq *rq) {
	if !s.rtThrottling() || s.rtPeriodActive {
		return
	}
	s.rtPeriodActive = true
	s.rtPeriodGen++
	cpu := s.localCPU
	if cpu < 0 {
		cpu = rq.cpu
	}
	s.q.push(qevent{at: s.now + Time(s.sys.RTPeriodUs)*Microsecond, kind: qRTPeriod, cpu: cpu, gen: s.rtPeriodGen, prio: prioTimer})
}

// rtBandwidthAccount is the bandwidth part of update_curr_rt().
func (s *Sim) rtBandwidthAccount(rq *rq, delta int64) {
	if !s.rtThrottling() {
		return
	}
	rq.rt.rtTime += delta
	group := s.rtGroupAccount(rq, rq.curr, delta) // rt_group.go
	if s.rtRuntimeExceeded(rq) || group {
		by := NoTask
		if next := rq.rt.first(); group && next != nil && !rq.rt.throttled {
			by = next.id
		} else if rq.cfs.nrQueued > 0 {
			by = s.peekTask(&rq.cfs)
		}
		s.reschedCurr(rq, ReasonRTThrottled, by, false)
	}
}

// rtRuntimeExceeded mirrors sched_rt_runtime_exceeded() without
// RT_RUNTIME_SHARE.
func (s *Sim) rtRuntimeExceeded(rq *rq) bool {
	q := &rq.rt
	if q.throttled {
		return true
	}
	runtime := s.sys.RTRuntimeUs * 1000
	if runtime >= s.sys.RTPeriodUs*1000 {
		return false
	}
	if q.rtTime > runtime {
		q.throttled = true // "sched: RT throttling activated"; sched_rt_rq_dequeue()
		return true
	}
	return false
}

// rtPeriodTimer mirrors sched_rt_period_timer() ->
// do_sched_rt_period_timer(rt_b, overrun=1).
func (s *Sim) rtPeriodTimer() {
	runtime := s.sys.RTRuntimeUs * 1000
	idle := true
	for i := range s.rqs {
		rq := &s.rqs[i]
		q := &rq.rt
		if q.rtTime == 0 && q.nrRunning == 0 {
			continue
		}
		enqueue := false
		if q.rtTime > 0 {
			if rq.curr != nil && rq.curr.isRT() {
				s.updateCurrRT(rq) // update_rq_clock(): charge the time up to now
			}
			q.rtTime -= min(q.rtTime, runtime)
			if q.throttled && q.rtTime < runtime {
				q.throttled = false
				enqueue = true
			}
			if q.rtTime > 0 || q.nrRunning > 0 {
				idle = false
			}
		} else if q.nrRunning > 0 {
			idle = false
		}
		if next := q.first(); enqueue && next != nil && (rq.curr == nil || !rq.curr.isRT()) {
			// sched_rt_rq_enqueue() -> resched_curr().
			s.reschedCurr(rq, preemptReason(rq.curr, next), next.id, false)
		}
	}
	if idle || runtime < 0 {
		s.rtPeriodActive = false
		return
	}
	s.q.push(qevent{at: s.now + Time(s.sys.RTPeriodUs)*Microsecond, kind: qRTPeriod, cpu: s.localCPU, gen: s.rtPeriodGen, prio: prioTimer})
	for i := range s.rqs {
		if s.rqs[i].cpu == s.localCPU {
			s.kickIfResched(&s.rqs[i])
		}
	}
}

// fairServerStart mirrors dl_server_start() for a deferred server:
// replenish and arm the zero-laxity timer.
func (s *Sim) fairServerStart(rq *rq) {
	if !s.rules.fairServer || rq.rt.fs.active {
		return
	}
	fs := &rq.rt.fs
	fs.active = true
	s.fairServerReplenish(rq)
}

func (s *Sim) fairServerReplenish(rq *rq) {
	fs := &rq.rt.fs
	if rq.pollAlone {
		s.pollAloneEnded(rq) // the runtime counts again (clock_poll.go)
	}
	fs.running, fs.throttled = false, false
	fs.runtime = int64(fairServerRuntime)
	fs.deadline = s.now + fairServerPeriod
	s.fairServerArm(rq, fs.deadline-Time(fs.runtime))
}

func (s *Sim) fairServerArm(rq *rq, at Time) {
	fs := &rq.rt.fs
	fs.armAt = at
	if fs.queuedAt != 0 && fs.queuedAt <= at {
		return // the live event fires first and re-queues for armAt
	}
	fs.gen++
	fs.queuedAt = at
	s.q.push(qevent{at: at, kind: qFairServer, cpu: rq.cpu, gen: fs.gen, prio: prioTimer})
}

// fairServerEvent handles the live qFairServer event: re-queue it when
// the timer was moved later, drop it when the timer was cancelled, else
// run the timer.
func (s *Sim) fairServerEvent(rq *rq) {
	fs := &rq.rt.fs
	fs.queuedAt = 0
	switch {
	case fs.armAt == 0:
		return
	case fs.armAt > s.now:
		s.fairServerArm(rq, fs.armAt)
		return
	}
	fs.armAt = 0
	s.fairServerTimer(rq)
}

// fairServerStop mirrors dl_server_stop().
func (s *Sim) fairServerStop(rq *rq) {
	fs := &rq.rt.fs
	if !fs.active {
		return
	}
	// hrtimer_try_to_cancel(): the live event stays queued, disarmed.
	*fs = fairServer{gen: fs.gen, queuedAt: fs.queuedAt}
}

// fairServerCharge mirrors dl_server_update(): fair execution uses the
// server's runtime, whether or not the server picked the task.
func (s *Sim) fairServerCharge(rq *rq, delta int64) {
	fs := &rq.rt.fs
	if !fs.active || fs.throttled {
		return
	}
	fs.runtime -= delta
	if fs.runtime > 0 {
		return
	}
	wasRunning := fs.running
	fs.running, fs.throttled = false, true
	s.fairServerArm(rq, fs.deadline) // replenished at the deadline
	if wasRunning && len(rq.dl.queue) > 0 {
		s.reschedCurr(rq, ReasonFairServerDone, rq.dl.queue[0].id, false)
	} else if wasRunning && rq.rt.runnable() {
		s.reschedCurr(rq, ReasonFairServerDone, rq.rt.first().id, false)
	}
}

// fairServerTimer is the server's dl_timer: the zero-laxity instant of a
// deferred server, or the replenishment at the deadline of a throttled one.
func (s *Sim) fairServerTimer(rq *rq) {
	fs := &rq.rt.fs
	if !fs.active {
		return
	}
	if fs.throttled {
		s.fairServerReplenish(rq)
		return
	}
	if fs.runtime <= 0 || rq.cfs.nrQueued == 0 {
		return
	}
	fs.running = true
	if c := rq.curr; c != nil && (c.isRT() || c.isDL() && fs.deadline < c.dl.deadline) {
		s.reschedCurr(rq, ReasonFairServer, s.peekTask(&rq.cfs), false)
		s.kickIfResched(rq)
	}
}
