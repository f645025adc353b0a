package sched

// The timers of CPU bandwidth control: kernel/sched/fair.c
// sched_cfs_period_timer() -> do_sched_cfs_period_timer() with
// distribute_cfs_runtime(), and the slack timer sched_cfs_slack_timer() ->
// do_sched_cfs_slack_timer() armed by start_cfs_slack_bandwidth(), with
// runtime_refresh_within(). The period timer runs on the CPU that started
// the group's bandwidth (HRTIMER_MODE_ABS_PINNED) at every multiple of the
// period while the group is active; the slack timer 5 ms after a cfs_rq
// returned runtime that throttled cfs_rqs could use (cgroup_bandwidth.go).

// refreshWithin mirrors runtime_refresh_within().
func (bw *cfsBandwidth) refreshWithin(now, d Time) bool {
	return bw.periodActive && bw.periodAt-now < d
}

// startSlack mirrors start_cfs_slack_bandwidth().
func (s *Sim) startSlack(tg *taskGroup) {
	bw := &tg.bw
	if bw.refreshWithin(s.now, cfsBandwidthSlackPer+minBandwidthExpiration) || bw.slackStarted {
		return
	}
	bw.slackStarted = true
	bw.slackGen++
	cpu := bw.timerCPU
	if cpu < 0 {
		cpu = max(s.localCPU, 0)
	}
	s.q.push(qevent{at: s.now + cfsBandwidthSlackPer, kind: qCfsSlack, task: TaskID(tg.id), cpu: cpu, gen: bw.slackGen, prio: prioTimer})
}

// slackTimer mirrors do_sched_cfs_slack_timer().
func (s *Sim) slackTimer(tg *taskGroup) {
	bw := &tg.bw
	bw.slackStarted = false
	if bw.refreshWithin(s.now, minBandwidthExpiration) {
		return
	}
	if bw.runtime <= s.bwSlice() {
		return
	}
	s.distributeRuntime(tg)
	s.kickLocal()
}

// periodTimer mirrors sched_cfs_period_timer() -> do_sched_cfs_period_timer()
// for one expiry (overrun 1: the timer runs every period while active).
func (s *Sim) periodTimer(tg *taskGroup) {
	bw := &tg.bw
	throttled := len(bw.throttledList) > 0
	bw.nrPeriods++
	if !s.rules.cfsBurst {
		// Before burst: an idle pool is left as it is (it was refilled
		// at the previous expiry and nothing used it).
		if bw.idle && !throttled {
			bw.periodActive = false
			return
		}
		s.refillBandwidth(bw)
	} else {
		s.refillBandwidth(bw) // refilled even when idle
		if bw.idle && !throttled {
			bw.periodActive = false
			return
		}
	}
	if throttled {
		bw.nrThrottled++
		for len(bw.throttledList) > 0 && bw.runtime > 0 {
			if !s.distributeRuntime(tg) {
				break
			}
		}
		bw.idle = false
	} else {
		bw.idle = true
	}
	p := Time(bw.period)
	bw.periodAt += p
	s.q.push(qevent{at: bw.periodAt, kind: qCfsPeriod, task: TaskID(tg.id), cpu: bw.timerCPU, gen: bw.periodGen, prio: prioTimer})
	s.kickLocal()
}

// distributeRuntime mirrors distribute_cfs_runtime(): give each throttled
// cfs_rq, in throttle order, what it needs to run again, while the pool
// lasts. It reports whether a cfs_rq is still throttled.
func (s *Sim) distributeRuntime(tg *taskGroup) bool {
	bw := &tg.bw
	still := false
	var local *cfsRq // local_unthrottle (v6.2+)
	for i := 0; i < len(bw.throttledList); {
		q := bw.throttledList[i]
		if q.bwq.csdQueued || q == local {
			i++ // already queued for the async unthrottle
			continue
		}
		amount := min(-q.bwq.remaining+1, bw.runtime)
		bw.runtime -= amount
		q.bwq.remaining += amount
		if s.feat.Has(CfsSliceExpiry) {
			q.bwq.expires = bw.expires
			q.bwq.expiresSeq = bw.expiresSeq
		}
		switch {
		case q.bwq.remaining <= 0:
			still = true
			i++
		case !s.rules.asyncUnthrottle:
			s.unthrottleCfsRq(q) // under the remote rq lock; removes q from the list
		case q.se.cpu == s.localCPU:
			local = q
			i++
		default:
			s.unthrottleCfsRqAsync(q) // cgroup_unthrottle_async.go
			i++
		}
		if bw.runtime <= 0 {
			break
		}
	}
	if local != nil && local.bwq.throttled {
		s.unthrottleCfsRq(local)
	}
	return still
}

// kickLocal acts on a resched of the CPU the timer ran on.
func (s *Sim) kickLocal() {
	if s.localCPU >= 0 {
		s.kickIfResched(&s.rqs[s.localCPU])
	}
}
