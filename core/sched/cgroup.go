package sched

// Task groups (CONFIG_FAIR_GROUP_SCHED): struct task_group with one group
// sched_entity and one cfs_rq per CPU, built from Config.Cgroups as
// alloc_fair_sched_group() / init_tg_cfs_entry() build them, and the
// helpers of kernel/sched/fair.c that navigate the hierarchy:
// cfs_rq_of(), group_cfs_rq(), parent_entity(), find_matching_se(),
// se_is_idle(), set_next_buddy() and the clear_buddies() walks.
//
// A group entity is a *Task with my (group_cfs_rq()) set: the fair code
// queues *Task, and a second kind of value would cost the flat case a type
// switch on every queue access. Group entities are not in Sim.tasks, have
// the id NoTask and never appear in events; their tg is the parent group
// (so cfs_rq_of() is the same lookup for both kinds) and their cpu is fixed.
// The root task group's cfs_rq is rq.cfs, as before; a run without cgroups
// (and autogroup off) has no taskGroup at all and takes the flat paths.

import (
	"fmt"

	"schedplay/core/quote"
)

// taskGroup is struct task_group.
type taskGroup struct {
	id     int // cgroup number (Config.Cgroups[id-1]); 0 = root
	path   string
	parent *taskGroup // nil for children of the root
	shares int64      // tg->shares, scale_load()ed
	idle   bool       // tg->idle (cpu.idle, v5.15+)
	depth  int        // depth of the group's entities (children of the root: 0)
	se     []*Task    // tg->se[cpu]
	cfs    []*cfsRq   // tg->cfs_rq[cpu]
	// loadAvg is tg->load_avg: the sum of the cfs_rqs' tg_load_avg_contrib.
	loadAvg int64
	bw      cfsBandwidth // cgroup_bandwidth.go
	rt      *rtGroupBw   // RT bandwidth (rt_group.go); nil = no RT runtime
	usage   int64        // cpuacct usage: run time of the group's tasks, ns
	sysNs   int64        // of which kernel (sys) time
}

// MinShares and MaxShares bound tg->shares (before scale_load()).
const (
	MinShares = 2
	MaxShares = 1 << 18
)

// initCgroups builds the task groups of Config.Cgroups.
func (s *Sim) initCgroups() error {
	if err := s.checkAutogroupNice(); err != nil { // autogroup.go
		return err
	}
	if len(s.cfg.Cgroups) == 0 && !s.cfg.Autogroup {
		return nil
	}
	for i := range s.rqs {
		s.rqs[i].cfs.hLoadStamp = -1
	}
	s.tgs = make([]*taskGroup, len(s.cfg.Cgroups)+1)
	for k, spec := range s.cfg.Cgroups {
		id := k + 1
		where := fmt.Sprintf("cgroups[%d] (%s)", k, quote.Clip(spec.Path))
		if spec.Parent < 0 || spec.Parent >= id {
			return fmt.Errorf("%s: parent %d, want a cgroup numbered before it (0 = root)", where, spec.Parent)
		}
		if spec.Shares < MinShares || spec.Shares > MaxShares {
			return fmt.Errorf("%s: shares %d, want %d..%d", where, spec.Shares, MinShares, MaxShares)
		}
		if spec.Idle && !s.rules.idleGroups {
			return fmt.Errorf("%s: cpu.idle arrived in v5.15 (sched_group_set_idle()); kernel %s has no idle groups", where, s.cfg.Profile.Name)
		}
		if err := s.checkBandwidthSpec(where, spec); err != nil {
			return err
		}
		if spec.RTRuntime != 0 || spec.RTPeriod != 0 {
			if !s.cfg.RTGroupSched {
				return fmt.Errorf("%s: cpu.rt_runtime_us and cpu.rt_period_us need kernel.rt_group_sched (CONFIG_RT_GROUP_SCHED)", where)
			}
			if spec.RTPeriod <= 0 || spec.RTRuntime < Unlimited || spec.RTRuntime != Unlimited && spec.RTRuntime > spec.RTPeriod {
				return fmt.Errorf("%s: RT runtime %d ns per period %d ns, want a positive period and a runtime of at most the period or -1 (tg_rt_schedulable())", where, spec.RTRuntime, spec.RTPeriod)
			}
		}
		tg := s.newTaskGroup(id, spec.Path, s.tgs[spec.Parent], s.arith.scaleLoad(int64(spec.Shares)))
		tg.idle = spec.Idle
		if spec.Idle {
			// sched_group_set_idle(): idle groups have the minimum weight.
			s.setGroupShares(tg, s.arith.scaleLoad(weightIdlePrio))
		}
		s.initBandwidth(tg, spec)
		s.initRTGroup(tg, spec) // rt_group.go
		s.tgs[id] = tg
	}
	if err := s.checkRTSchedulable(); err != nil { // rt_group.go
		return err
	}
	s.initAutogroups() // autogroup.go
	return nil
}

// newTaskGroup mirrors sched_create_group() with alloc_fair_sched_group()
// and init_tg_cfs_entry(): a group entity and a cfs_rq per CPU.
func (s *Sim) newTaskGroup(id int, path string, parent *taskGroup, shares int64) *taskGroup {
	n := len(s.rqs)
	tg := &taskGroup{id: id, path: path, parent: parent, shares: shares}
	if parent != nil {
		tg.depth = parent.depth + 1
	}
	tg.se = make([]*Task, n)
	tg.cfs = make([]*cfsRq, n)
	for c := range n {
		q := &cfsRq{tg: tg, byDeadline: s.rqs[c].cfs.byDeadline, queue: make([]*Task, 0, 4), hLoadStamp: -1}
		se := &Task{id: NoTask, name: path, cpu: CPUID(c), tg: parent, my: q, depth: tg.depth,
			policy: SchedOther, effPrio: 120, lastWakee: NoTask, recentUsedCPU: -1}
		se.se.slice = s.sys.BaseSliceNs
		s.setTaskRq(se)
		q.se = se
		tg.cfs[c], tg.se[c] = q, se
	}
	s.setGroupShares(tg, shares)
	return tg
}

// setGroupShares sets tg->shares before any entity is queued
// (__sched_group_set_shares() on an empty group).
func (s *Sim) setGroupShares(tg *taskGroup, shares int64) {
	tg.shares = shares
	for _, se := range tg.se {
		se.se.load = loadWeight{weight: shares}
		se.se.avg = schedAvg{} // init_entity_runnable_average(): a group entity starts with no load
	}
}

// grouped reports whether the run schedules through task groups.
func (s *Sim) grouped() bool { return s.tgs != nil }

// tgCfs is tg->cfs_rq[cpu] (tg nil = the root).
func (s *Sim) tgCfs(tg *taskGroup, cpu CPUID) *cfsRq {
	if tg == nil {
		return &s.rqs[cpu].cfs
	}
	return tg.cfs[cpu]
}

// cfsOf mirrors cfs_rq_of(se): the queue an entity is (or will be) on.
func (s *Sim) cfsOf(t *Task) *cfsRq {
	if t.tg == nil {
		return &s.rqs[t.cpu].cfs
	}
	return t.pq
}

// parentOf mirrors parent_entity(se).
func (s *Sim) parentOf(t *Task) *Task {
	if t.tg == nil {
		return nil
	}
	return t.parent
}

// setTaskRq mirrors set_task_rq(): refresh the cached cfs_rq and parent
// entity after t's CPU or group changed.
func (s *Sim) setTaskRq(t *Task) {
	if t.tg == nil || t.cpu < 0 {
		t.pq, t.parent = nil, nil
		return
	}
	t.pq, t.parent = t.tg.cfs[t.cpu], t.tg.se[t.cpu]
}

// findMatchingSE mirrors find_matching_se(): walk both entities up to the
// first cfs_rq they share.
func (s *Sim) findMatchingSE(se, pse *Task) (*Task, *Task) {
	if !s.grouped() {
		return se, pse
	}
	for se.depth > pse.depth {
		se = s.parentOf(se)
	}
	for pse.depth > se.depth {
		pse = s.parentOf(pse)
	}
	for se.tg != pse.tg {
		se, pse = s.parentOf(se), s.parentOf(pse)
	}
	return se, pse
}

// seIsIdle mirrors se_is_idle() (v5.15+): an idle-policy task, or the
// entity of a cpu.idle group.
func (s *Sim) seIsIdle(t *Task) bool {
	if t.my != nil {
		return t.my.tg.idle
	}
	return t.policy == SchedIdle
}

// setNextBuddy mirrors set_next_buddy(): mark p's entity as the next
// buddy at every level, stopping at an idle entity (v5.15+).
func (s *Sim) setNextBuddy(p *Task) {
	for se := p; se != nil; se = s.parentOf(se) {
		if se != p && s.rules.idleGroups && s.seIsIdle(se) {
			return
		}
		s.cfsOf(se).next = se
	}
}

// clearBuddies mirrors clear_buddies() with __clear_buddies_next() and
// friends: a buddy that leaves is cleared up the hierarchy as far as the
// levels still name its ancestors.
func (s *Sim) clearBuddies(q *cfsRq, t *Task) {
	if !s.grouped() {
		q.clearBuddies(t)
		return
	}
	if q.next == t {
		for se := t; se != nil && s.cfsOf(se).next == se; se = s.parentOf(se) {
			s.cfsOf(se).next = nil
		}
	}
	if q.last == t {
		for se := t; se != nil && s.cfsOf(se).last == se; se = s.parentOf(se) {
			s.cfsOf(se).last = nil
		}
	}
	if q.skip == t {
		for se := t; se != nil && s.cfsOf(se).skip == se; se = s.parentOf(se) {
			s.cfsOf(se).skip = nil
		}
	}
}

// fairCurr reports whether t's entity is its cfs_rq's curr (the
// FAIR_GROUP_SCHED form of "rq->cfs.curr == prev").
func (s *Sim) fairCurr(t *Task) bool { return t.cpu >= 0 && s.cfsOf(t).curr == t }

// taskOfQueue descends from q to a task: the leftmost entity at every
// level (curr first when it is queued). NoTask when nothing is queued.
func (s *Sim) peekTask(q *cfsRq) TaskID {
	for q != nil {
		var e *Task
		switch {
		case len(q.queue) > 0:
			e = q.queue[0]
		case q.curr != nil:
			e = q.curr
		default:
			return NoTask
		}
		if e.my == nil {
			return e.id
		}
		q = e.my
	}
	return NoTask
}

// appendTasks appends the tasks queued under q (curr included), in queue
// order, descending into group entities: rq->cfs_tasks for the balancer.
func appendTasks(l []*Task, q *cfsRq) []*Task {
	if c := q.curr; c != nil && c.se.onRq {
		if c.my == nil {
			l = append(l, c)
		} else {
			l = appendTasks(l, c.my)
		}
	}
	for _, e := range q.queue {
		if e.my == nil {
			l = append(l, e)
		} else {
			l = appendTasks(l, e.my)
		}
	}
	return l
}

// NumCgroups is the number of cgroups of the run (Config.Cgroups).
func (s *Sim) NumCgroups() int { return len(s.cfg.Cgroups) }
