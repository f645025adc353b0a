package sched

// CPU bandwidth control (CONFIG_CFS_BANDWIDTH, cpu.max): kernel/sched/fair.c
// struct cfs_bandwidth and the runtime of each cfs_rq.
//
// Mirrors __refill_cfs_bandwidth_runtime() (with burst and the
// nr_bursts/burst_time accounting of v5.14+), start_cfs_bandwidth(),
// __assign_cfs_rq_runtime() / assign_cfs_rq_runtime() (runtime taken from
// the global pool in slices of sched_cfs_bandwidth_slice_us),
// __account_cfs_rq_runtime() / account_cfs_rq_runtime() from update_curr(),
// check_cfs_rq_runtime() (pick and put_prev_entity()),
// check_enqueue_throttle(), throttle_cfs_rq() / unthrottle_cfs_rq(),
// do_sched_cfs_period_timer() with distribute_cfs_runtime(), the slack
// timer (return_cfs_rq_runtime(), __return_cfs_rq_runtime(),
// start_cfs_slack_bandwidth(), do_sched_cfs_slack_timer(),
// runtime_refresh_within()) and throttled_hierarchy().
//
// Each cfs_rq of a limited group runs on local runtime; when it runs out,
// update_curr() asks for a slice from the group's pool and, if the pool is
// empty, reschedules; the next pick or put of that level throttles it: its
// group entity leaves the parent (and up while the parents empty) and its
// tasks stop counting in nr_running. The period timer refills the pool and
// hands it to the throttled cfs_rqs in the order they were throttled.
//
// Version variants (docs/kernel-rules.md "Task groups and bandwidth"):
//   - the per-CPU slice expiry of v3.16-v5.3 (feature CFS_SLICE_EXPIRY, on
//     for v3.11, which expired local runtime by comparing runtime_expires):
//     runtime a cfs_rq holds expires with the period it was taken in;
//     de53fd7aedb1 (v5.4) removed it;
//   - burst (cpu.max.burst) from v5.14;
//   - v6.x throttle_cfs_rq() first asks for 1 ns of runtime and gives up
//     throttling if the pool has it [inferred: the v5.10 race fix];
//   - v3.11 refills an inactive pool when a cfs_rq asks for runtime.
//
// The throttled PELT clock is cgroup_pelt_clock.go, the asynchronous
// unthrottle of remote CPUs (v6.2+) cgroup_unthrottle_async.go, the
// task-based throttle of v6.18 (tasks leave a throttled hierarchy on return
// to user mode) cgroup_throttle_task.go. Abstracted: cfs_b->lock
// contention.

import "fmt"

// Bandwidth constants (fair.c).
const (
	minCfsRqRuntime        = Millisecond     // min_cfs_rq_runtime
	cfsBandwidthSlackPer   = 5 * Millisecond // cfs_bandwidth_slack_period
	minBandwidthExpiration = 2 * Millisecond // min_bandwidth_expiration
)

// cfsBandwidth is struct cfs_bandwidth.
type cfsBandwidth struct {
	limited              bool // quota != RUNTIME_INF
	quota, period, burst int64
	runtime, runtimeSnap int64
	idle                 bool
	periodActive         bool
	periodAt             Time // expiry of the period timer while active
	periodGen            uint32
	slackStarted         bool
	slackGen             uint32
	throttledList        []*cfsRq
	expires              Time   // runtime_expires (CFS_SLICE_EXPIRY)
	expiresSeq           uint32 // expires_seq
	timerCPU             CPUID  // the CPU the pinned timers run on
	nrPeriods            int64
	nrThrottled          int64
	throttledTime        int64
	nrBurst              int64
	burstTime            int64
}

// cfsRqBandwidth is the bandwidth part of struct cfs_rq.
type cfsRqBandwidth struct {
	enabled        bool  // runtime_enabled
	throttled      bool  // throttled
	remaining      int64 // runtime_remaining
	throttledClock Time  // throttled_clock; -1 = not set
	expires        Time  // runtime_expires (CFS_SLICE_EXPIRY)
	expiresSeq     uint32
	csdQueued      bool // on its rq's cfsb_csd_list (cgroup_unthrottle_async.go)
}

// checkBandwidthSpec validates the cpu.max values of a cgroup. A zero
// quota and period mean no limit, like Unlimited.
func (s *Sim) checkBandwidthSpec(where string, spec CgroupSpec) error {
	if spec.Quota == Unlimited || (spec.Quota == 0 && spec.Period == 0) {
		if spec.Burst != 0 {
			return fmt.Errorf("%s: burst %s without a quota", where, spec.Burst)
		}
		return nil
	}
	if spec.Period < Millisecond || spec.Period > Second {
		return fmt.Errorf("%s: period %s, want 1ms..1s", where, spec.Period)
	}
	if spec.Quota < Millisecond {
		return fmt.Errorf("%s: quota %s, want at least 1ms or unlimited", where, spec.Quota)
	}
	if spec.Burst < 0 || spec.Burst > spec.Quota {
		return fmt.Errorf("%s: burst %s, want 0..quota (%s)", where, spec.Burst, spec.Quota)
	}
	if spec.Burst > 0 && !s.rules.cfsBurst {
		return fmt.Errorf("%s: cpu.max.burst arrived in v5.14; kernel %s has none", where, s.cfg.Profile.Name)
	}
	return nil
}

// initBandwidth mirrors tg_set_cfs_bandwidth(): the pool starts full and
// every cfs_rq of the group runs on local runtime.
func (s *Sim) initBandwidth(tg *taskGroup, spec CgroupSpec) {
	bw := &tg.bw
	if spec.Quota == Unlimited || spec.Quota == 0 {
		return
	}
	bw.limited = true
	s.bwUsed = true
	bw.quota, bw.period, bw.burst = int64(spec.Quota), int64(spec.Period), int64(spec.Burst)
	bw.runtime = bw.quota
	bw.runtimeSnap = bw.runtime
	bw.timerCPU = -1
	bw.throttledList = make([]*cfsRq, 0, len(tg.cfs))
	for _, q := range tg.cfs {
		q.bwq = cfsRqBandwidth{enabled: true, throttledClock: -1}
	}
}

func (s *Sim) bwSlice() int64 { return s.sys.CfsBandwidthSliceUs * int64(Microsecond) }

// throttledHierarchy mirrors throttled_hierarchy(): q or an ancestor is
// throttled (the kernel keeps this as throttle_count).
func (s *Sim) throttledHierarchy(q *cfsRq) bool {
	if !s.bwUsed {
		return false
	}
	for q.se != nil {
		if q.bwq.throttled {
			return true
		}
		q = s.cfsOf(q.se)
	}
	return false
}

// refillBandwidth mirrors __refill_cfs_bandwidth_runtime().
func (s *Sim) refillBandwidth(bw *cfsBandwidth) {
	if s.rules.cfsBurst {
		bw.runtime += bw.quota
		if d := bw.runtimeSnap - bw.runtime; d > 0 {
			bw.burstTime += d
			bw.nrBurst++
		}
		bw.runtime = min(bw.runtime, bw.quota+bw.burst)
		bw.runtimeSnap = bw.runtime
	} else {
		bw.runtime = bw.quota
	}
	if s.feat.Has(CfsSliceExpiry) {
		bw.expires = s.now + Time(bw.period)
		bw.expiresSeq++
	}
}

// startBandwidth mirrors start_cfs_bandwidth(): arm the period timer on
// the period grid (hrtimer_forward_now() from its last expiry).
func (s *Sim) startBandwidth(tg *taskGroup, cpu CPUID) {
	bw := &tg.bw
	if bw.periodActive {
		return
	}
	bw.periodActive = true
	p := Time(bw.period)
	bw.periodAt = (s.now/p + 1) * p
	bw.periodGen++
	bw.timerCPU = cpu
	if s.feat.Has(CfsSliceExpiry) {
		bw.expires = bw.periodAt // v4.x start_cfs_bandwidth(): runtime_expires moves to the period's end
		bw.expiresSeq++
	}
	s.q.push(qevent{at: bw.periodAt, kind: qCfsPeriod, task: TaskID(tg.id), cpu: cpu, gen: bw.periodGen, prio: prioTimer})
}

// assignRuntime mirrors __assign_cfs_rq_runtime(): top q's local runtime
// up to target from the pool. It reports whether q has runtime left.
func (s *Sim) assignRuntime(q *cfsRq, target int64) bool {
	tg := q.tg
	bw := &tg.bw
	need := target - q.bwq.remaining
	if s.rules.refillInactivePool && !bw.periodActive {
		s.refillBandwidth(bw) // v3.11: an inactive pool is refreshed first
	}
	s.startBandwidth(tg, q.se.cpu)
	var amount int64
	if bw.runtime > 0 {
		amount = min(bw.runtime, need)
		bw.runtime -= amount
		bw.idle = false
	}
	if s.feat.Has(CfsSliceExpiry) {
		if bw.expires > q.bwq.expires {
			q.bwq.expires = bw.expires
		}
		q.bwq.expiresSeq = bw.expiresSeq
	}
	q.bwq.remaining += amount
	return q.bwq.remaining > 0
}

// expireRuntime mirrors expire_cfs_rq_runtime() (CFS_SLICE_EXPIRY): local
// runtime taken in an earlier period is lost.
func (s *Sim) expireRuntime(q *cfsRq) {
	if s.now < q.bwq.expires || q.bwq.remaining < 0 {
		return
	}
	if q.bwq.expiresSeq == q.tg.bw.expiresSeq {
		q.bwq.expires += s.tickNs // the period did not roll over yet: extend
	} else {
		q.bwq.remaining = 0
	}
}

// accountCfsRqRuntime mirrors account_cfs_rq_runtime() (update_curr()).
func (s *Sim) accountCfsRqRuntime(q *cfsRq, delta int64) {
	if !q.bwq.enabled {
		return
	}
	q.bwq.remaining -= delta
	if s.feat.Has(CfsSliceExpiry) {
		s.expireRuntime(q)
	}
	if q.bwq.remaining > 0 || q.bwq.throttled {
		return
	}
	if !s.assignRuntime(q, s.bwSlice()) && q.curr != nil {
		rq := &s.rqs[q.se.cpu]
		s.reschedCurr(rq, ReasonCgroupThrottled, NoTask, false)
	}
}

// checkCfsRqRuntime mirrors check_cfs_rq_runtime(): throttle q if it has
// no runtime left. It reports whether q is throttled.
func (s *Sim) checkCfsRqRuntime(q *cfsRq) bool {
	if !q.bwq.enabled || q.bwq.remaining > 0 {
		return false
	}
	if q.bwq.throttled {
		return true
	}
	return s.throttleCfsRq(q)
}

// checkCfsRqRuntimeAtPut is the check_cfs_rq_runtime() of
// put_prev_entity().
func (s *Sim) checkCfsRqRuntimeAtPut(q *cfsRq) {
	if q.bwq.enabled {
		s.checkCfsRqRuntime(q)
	}
}

// checkEnqueueThrottle mirrors check_enqueue_throttle(): a group that
// becomes runnable without runtime is throttled at once.
func (s *Sim) checkEnqueueThrottle(q *cfsRq) {
	if !q.bwq.enabled || q.curr != nil || q.bwq.throttled {
		return
	}
	s.accountCfsRqRuntime(q, 0)
	if q.bwq.remaining <= 0 {
		s.throttleCfsRq(q)
	}
}

// returnCfsRqRuntime mirrors return_cfs_rq_runtime(): a cfs_rq that goes
// empty gives back all but min_cfs_rq_runtime of its local runtime, and
// arms the slack timer if throttled cfs_rqs could use it.
func (s *Sim) returnCfsRqRuntime(q *cfsRq) {
	if !q.bwq.enabled || q.nrQueued != 0 {
		return
	}
	slack := q.bwq.remaining - int64(minCfsRqRuntime)
	if slack <= 0 {
		return
	}
	bw := &q.tg.bw
	if !s.feat.Has(CfsSliceExpiry) || q.bwq.expires == bw.expires {
		bw.runtime += slack
		if bw.runtime > s.bwSlice() && len(bw.throttledList) > 0 {
			s.startSlack(q.tg)
		}
	}
	q.bwq.remaining -= slack
}

// bandwidthStat fills cpu.stat's bandwidth fields (cpu_cfs_stat_show()).
func (s *Sim) bandwidthStat(tg *taskGroup, st *CgroupStat) {
	bw := &tg.bw
	st.NrPeriods, st.NrThrottled = bw.nrPeriods, bw.nrThrottled
	st.ThrottledNs = bw.throttledTime
	for _, q := range tg.cfs {
		if q.bwq.throttled && q.bwq.throttledClock >= 0 {
			st.ThrottledNs += int64(s.now - q.bwq.throttledClock)
		}
	}
	st.NrBursts, st.BurstNs = bw.nrBurst, bw.burstTime
}
