package sched

// A group's own RT bandwidth (CONFIG_RT_GROUP_SCHED, cgroup v1
// cpu.rt_runtime_us / cpu.rt_period_us): kernel/sched/rt.c gives each task
// group an rt_rq and an rt_se per CPU and its own struct rt_bandwidth.
// update_curr_rt() charges the running task's time to every rt_rq of its
// hierarchy (for_each_sched_rt_entity()); sched_rt_runtime_exceeded() on
// the group's rt_rq throttles it once rt_time passes the group's runtime
// (sched_rt_rq_dequeue(): the group's rt_se leaves the CPU's root rt_rq,
// taking its tasks out of rt_nr_running and highest_prio), and the group's
// period timer (sched_rt_period_timer() -> do_sched_rt_period_timer())
// takes one runtime off rt_time per period on every CPU and re-enqueues
// the rt_se (sched_rt_rq_enqueue(), resched_curr() if it preempts curr).
// The timer starts when a task enters the group's rt_rq
// (inc_rt_group() -> start_rt_bandwidth()) and stops when no CPU of the
// group has rt_time or RT tasks.
//
// Groups nest (/A/B below /A): a task's time is charged to its group's
// rt_rq and to every ancestor's (rt_rq_of_se() of each rt_se up the
// hierarchy), each level is throttled against its own runtime, and a
// throttled level's rt_se leaves its parent's rt_rq, taking everything
// below with it. tg_rt_schedulable() (checkRTSchedulable) keeps the
// children's runtime within the parent's. The root rt_rq's flattened
// priority queue (rt.go) keeps the tasks, and a task with a throttled
// group at any level on its CPU is skipped by rtRq.first(), which is what
// the root sees once that level's rt_se is dequeued. SIMPLIFIED: within
// one priority level the group's tasks keep their own list positions
// instead of sharing the group rt_se's one. RT_RUNTIME_SHARE
// (balanceRTRuntime) borrows per level (docs/kernel-rules.md 17.6).

import (
	"fmt"

	"schedplay/core/quote"
)

// rtGroupBw is a task group's struct rt_bandwidth and its per-CPU rt_rqs.
type rtGroupBw struct {
	runtime, period Time // rt_runtime (Unlimited = RUNTIME_INF), rt_period
	rqs             []rtGroupRq
	active          bool   // the period timer is armed
	gen             uint32 // cancels a pending qRTGroupPeriod
}

// rtGroupRq is the bandwidth part of the group's rt_rq on one CPU.
type rtGroupRq struct {
	rtTime    int64 // rt_time
	runtime   int64 // rt_runtime: the group's, plus what it borrowed (RT_RUNTIME_SHARE)
	throttled bool  // rt_throttled
}

// initRTGroup gives tg its RT bandwidth (init_rt_bandwidth() from
// sched_group_set_rt_runtime()/_period()).
func (s *Sim) initRTGroup(tg *taskGroup, spec CgroupSpec) {
	if spec.RTRuntime == 0 {
		return
	}
	tg.rt = &rtGroupBw{runtime: spec.RTRuntime, period: spec.RTPeriod, rqs: make([]rtGroupRq, len(s.rqs))}
	for i := range tg.rt.rqs {
		tg.rt.rqs[i].runtime = int64(spec.RTRuntime)
	}
}

// rtGroupOf is the RT group of an RT task: its cgroup when that has RT
// runtime, else nil (the root rt_rq; autogroups schedule RT tasks there).
func rtGroupOf(p *Task) *taskGroup {
	if p.tg != nil && p.tg.rt != nil {
		return p.tg
	}
	return nil
}

// rtGroupThrottled reports whether p's group rt_rq on its CPU, or an
// ancestor's, is throttled (rt_rq_throttled() of a level that dequeued
// its rt_se).
func rtGroupThrottled(p *Task) bool {
	for tg := rtGroupOf(p); tg != nil; tg = tg.parent {
		if tg.rt != nil && tg.rt.rqs[p.cpu].throttled {
			return true
		}
	}
	return false
}

// rtUnder reports whether p's RT group is tg or below it (p is counted
// in tg's rt_rq's rt_nr_running).
func (s *Sim) rtUnder(p *Task, tg *taskGroup) bool {
	g := rtGroupOf(p)
	return g != nil && s.tgUnder(g, tg)
}

// checkRTSchedulable mirrors tg_rt_schedulable() over the hierarchy: a
// group's children's RT bandwidth (to_ratio(period, runtime), RUNTIME_INF
// counting as a whole CPU) adds up to at most its own; a group without RT
// runtime (0) has none to give.
func (s *Sim) checkRTSchedulable() error {
	sum := make([]uint64, len(s.cfg.Cgroups)+1)
	for _, spec := range s.cfg.Cgroups {
		if spec.RTRuntime != 0 {
			sum[spec.Parent] += rtRatio(spec.RTPeriod, spec.RTRuntime)
		}
	}
	for k, spec := range s.cfg.Cgroups {
		own := uint64(0)
		if spec.RTRuntime != 0 {
			own = rtRatio(spec.RTPeriod, spec.RTRuntime)
		}
		if sum[k+1] > own {
			return fmt.Errorf("cgroups[%d] (%s): its child groups' RT runtime adds up to more than its own (%d ns per %d ns; tg_rt_schedulable(): -EINVAL)", k, quote.Clip(spec.Path), spec.RTRuntime, spec.RTPeriod)
		}
	}
	return nil
}

// rtRatio is to_ratio(period, runtime) in BW_SHIFT (20) fixed point.
func rtRatio(period, runtime Time) uint64 {
	if runtime == Unlimited {
		return 1 << 20
	}
	if period <= 0 {
		return 0
	}
	return uint64(runtime) << 20 / uint64(period)
}

// first is the task pick_next_rt_entity() reaches from the root rt_rq:
// queue[0], skipping tasks whose group is throttled; nil when none.
func (q *rtRq) first() *Task {
	if q.nrGroupThrottled == 0 {
		if len(q.queue) == 0 {
			return nil
		}
		return q.queue[0]
	}
	for _, t := range q.queue {
		if !rtGroupThrottled(t) {
			return t
		}
	}
	return nil
}

// startRTGroupBandwidth mirrors inc_rt_group() -> start_rt_bandwidth() at
// every level p's enqueue increments (its group's rt_rq and each
// ancestor's).
func (s *Sim) startRTGroupBandwidth(p *Task) {
	for tg := rtGroupOf(p); tg != nil; tg = tg.parent {
		if tg.rt != nil {
			s.startRTGroupTimer(p, tg)
		}
	}
}

// startRTGroupTimer mirrors start_rt_bandwidth(&tg->rt_bandwidth).
func (s *Sim) startRTGroupTimer(p *Task, tg *taskGroup) {
	if tg.rt.active || !s.rtThrottling() || tg.rt.runtime == Unlimited {
		return
	}
	tg.rt.active = true
	tg.rt.gen++
	cpu := s.localCPU
	if cpu < 0 {
		cpu = p.cpu
	}
	s.q.push(qevent{at: s.now + tg.rt.period, kind: qRTGroupPeriod, task: TaskID(tg.id), cpu: cpu, gen: tg.rt.gen, prio: prioTimer})
}

// rtGroupAccount charges delta to curr's group rt_rq and every
// ancestor's (the for_each_sched_rt_entity() walk of update_curr_rt())
// and reports whether one of them is throttled.
func (s *Sim) rtGroupAccount(rq *rq, curr *Task, delta int64) bool {
	throttled := false
	for tg := rtGroupOf(curr); tg != nil; tg = tg.parent {
		if tg.rt != nil && s.rtGroupAccountLevel(rq, tg, delta) {
			throttled = true
		}
	}
	return throttled
}

// rtGroupAccountLevel charges delta to tg's rt_rq on rq and reports
// whether sched_rt_runtime_exceeded() throttled it.
func (s *Sim) rtGroupAccountLevel(rq *rq, tg *taskGroup, delta int64) bool {
	g := &tg.rt.rqs[rq.cpu]
	g.rtTime += delta
	if g.throttled {
		return true
	}
	if tg.rt.runtime == Unlimited || tg.rt.runtime >= tg.rt.period {
		return false
	}
	s.balanceRTRuntime(tg, rq.cpu)
	if g.rtTime > g.runtime {
		g.throttled = true // sched_rt_rq_dequeue() of the group's rt_se
		rq.rt.nrGroupThrottled++
		return true
	}
	return false
}

// rtGroupPeriodTimer mirrors do_sched_rt_period_timer(&tg->rt_bandwidth, 1).
func (s *Sim) rtGroupPeriodTimer(tg *taskGroup) {
	b := tg.rt
	idle := true
	for i := range s.rqs {
		rq := &s.rqs[i]
		g := &b.rqs[i]
		queued := s.rtGroupQueued(rq, tg)
		if g.rtTime == 0 && queued == 0 {
			continue
		}
		enqueue := false
		if g.rtTime > 0 {
			if c := rq.curr; c != nil && c.isRT() && s.rtUnder(c, tg) {
				s.updateCurrRT(rq) // update_rq_clock(): charge the time up to now
			}
			if g.throttled {
				s.balanceRTRuntime(tg, CPUID(i))
			}
			runtime := g.runtime
			if b.runtime == Unlimited {
				runtime = int64(b.period)
			}
			g.rtTime -= min(g.rtTime, runtime)
			if g.throttled && g.rtTime < runtime {
				g.throttled = false
				rq.rt.nrGroupThrottled--
				enqueue = true
			}
			if g.rtTime > 0 || queued > 0 {
				idle = false
			}
		} else if queued > 0 {
			idle = false
		}
		if next := rq.rt.first(); enqueue && next != nil && s.rtUnder(next, tg) &&
			(rq.curr == nil || !rq.curr.isRT() || next.prio() < rq.curr.prio()) && !rq.rt.throttled {
			// sched_rt_rq_enqueue() -> resched_curr().
			s.reschedCurr(rq, preemptReason(rq.curr, next), next.id, false)
		}
	}
	if idle {
		b.active = false
		return
	}
	s.q.push(qevent{at: s.now + b.period, kind: qRTGroupPeriod, task: TaskID(tg.id), cpu: s.localCPU, gen: b.gen, prio: prioTimer})
	for i := range s.rqs {
		if s.rqs[i].cpu == s.localCPU {
			s.kickIfResched(&s.rqs[i])
		}
	}
}

// rtGroupQueued is the group rt_rq's rt_nr_running on rq: the RT tasks
// queued in tg or below it.
func (s *Sim) rtGroupQueued(rq *rq, tg *taskGroup) int {
	n := 0
	for _, t := range rq.rt.queue {
		if s.rtUnder(t, tg) {
			n++
		}
	}
	return n
}

// moveRTGroup finishes sched_move_task() of RT task t: enqueue_task_rt()
// into the new group starts its period timer, and a running t whose new
// group is throttled on its CPU is rescheduled.
func (s *Sim) moveRTGroup(rq *rq, t *Task) {
	s.startRTGroupBandwidth(t)
	if rq.curr == t && rtGroupThrottled(t) {
		by := NoTask
		if next := rq.rt.first(); next != nil {
			by = next.id
		} else if rq.cfs.nrQueued > 0 {
			by = s.peekTask(&rq.cfs)
		}
		s.reschedCurr(rq, ReasonRTThrottled, by, false)
	}
}

// balanceRTRuntime mirrors balance_runtime() -> do_balance_runtime() for
// the group's rt_rq on cpu: with RT_RUNTIME_SHARE, an rt_rq past its
// runtime takes 1/n of each other CPU's spare runtime (n = the CPUs of
// its root domain, root_domain.go), in CPU order, until it holds a whole
// period. The borrowed runtime stays (only __disable_runtime() at a
// domain rebuild returns it, which no scenario does).
func (s *Sim) balanceRTRuntime(tg *taskGroup, cpu CPUID) {
	b := tg.rt
	g := &b.rqs[cpu]
	if !s.rules.rtRuntimeShare || g.rtTime <= g.runtime {
		return
	}
	period := int64(b.period)
	rd := s.rdOf(cpu) // rd->span
	weight := int64(rd.weight)
	for i := range b.rqs {
		iter := &b.rqs[i]
		if CPUID(i) == cpu || !rd.has(CPUID(i)) {
			continue
		}
		diff := iter.runtime - iter.rtTime
		if diff <= 0 {
			continue
		}
		diff /= weight
		if g.runtime+diff > period {
			diff = period - g.runtime
		}
		iter.runtime -= diff
		g.runtime += diff
		if g.runtime == period {
			break
		}
	}
}
