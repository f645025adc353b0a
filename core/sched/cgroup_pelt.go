package sched

// PELT through the task-group hierarchy: kernel/sched/fair.c
// enqueue_load_avg() / dequeue_load_avg(), add_tg_cfs_propagate(),
// propagate_entity_load_avg() with update_tg_cfs_util(),
// update_tg_cfs_runnable() and update_tg_cfs_load(), and the hierarchical
// load of a task, update_cfs_rq_h_load() / task_h_load().
//
// A group entity's util and runnable sums are copied from its cfs_rq; its
// load sum follows the runnable time its cfs_rq gained or lost
// (prop_runnable_sum: a task attached adds its load_sum, one detached or
// removed takes it away), so a task's move between groups or CPUs shows up
// in every ancestor at the next update of each level, as in the kernel.

// enqueueLoadAvg mirrors enqueue_load_avg().
func (s *Sim) enqueueLoadAvg(q *cfsRq, t *Task) {
	cfs, se := &q.avg, &t.se.avg
	cfs.loadAvg += se.loadAvg
	cfs.loadSum += s.seWeight(t) * se.loadSum
}

// dequeueLoadAvg mirrors dequeue_load_avg().
func (s *Sim) dequeueLoadAvg(q *cfsRq, t *Task) {
	cfs, se := &q.avg, &t.se.avg
	subPositive(&cfs.loadAvg, se.loadAvg)
	subPositive(&cfs.loadSum, s.seWeight(t)*se.loadSum)
	cfs.loadSum = max(cfs.loadSum, cfs.loadAvg*peltMinDivider)
}

// addTGCfsPropagate mirrors add_tg_cfs_propagate().
func addTGCfsPropagate(q *cfsRq, runnableSum int64) {
	q.propagate = true
	q.propSum += runnableSum
}

func addPositive(v *uint64, d int64) {
	if d < 0 && uint64(-d) > *v {
		*v = 0
		return
	}
	*v = uint64(int64(*v) + d)
}

// propagateEntityLoadAvg mirrors propagate_entity_load_avg() for group
// entity se on cfs_rq q. It reports whether anything was propagated.
func (s *Sim) propagateEntityLoadAvg(q *cfsRq, se *Task) bool {
	g := se.my
	if g == nil || !g.propagate {
		return false
	}
	g.propagate = false
	addTGCfsPropagate(q, g.propSum)
	sa, ga, ca := &se.se.avg, &g.avg, &q.avg
	divider := peltDivider(ca)
	// update_tg_cfs_util()
	if d := int64(ga.utilAvg) - int64(sa.utilAvg); d != 0 {
		sa.utilAvg = ga.utilAvg
		ns := uint32(sa.utilAvg * divider)
		ds := int64(ns) - int64(sa.utilSum)
		sa.utilSum = ns
		addPositive(&ca.utilAvg, d)
		us := uint64(ca.utilSum)
		addPositive(&us, ds)
		ca.utilSum = uint32(max(us, ca.utilAvg*peltMinDivider))
	}
	// update_tg_cfs_runnable()
	if d := int64(ga.runnableAvg) - int64(sa.runnableAvg); d != 0 {
		sa.runnableAvg = ga.runnableAvg
		ns := sa.runnableAvg * divider
		ds := int64(ns) - int64(sa.runnableSum)
		sa.runnableSum = ns
		addPositive(&ca.runnableAvg, d)
		addPositive(&ca.runnableSum, ds)
		ca.runnableSum = max(ca.runnableSum, ca.runnableAvg*peltMinDivider)
	}
	// update_tg_cfs_load()
	rs := g.propSum
	if rs == 0 {
		return true
	}
	g.propSum = 0
	if rs >= 0 {
		rs = min(rs+int64(sa.loadSum), int64(divider))
	} else {
		var ls uint64
		if w := uint64(s.arith.scaleLoadDown(g.load.weight)); w != 0 {
			ls = ga.loadSum / w
		}
		rs = int64(min(sa.loadSum, ls))
	}
	rs = max(rs, int64(sa.utilSum>>10))
	w := s.seWeight(se)
	loadSum := w * uint64(rs)
	loadAvg := loadSum / divider
	da := int64(loadAvg) - int64(sa.loadAvg)
	if da == 0 {
		return true
	}
	ds := int64(loadSum) - int64(w*sa.loadSum)
	sa.loadSum = uint64(rs)
	sa.loadAvg = loadAvg
	addPositive(&ca.loadAvg, da)
	addPositive(&ca.loadSum, ds)
	ca.loadSum = max(ca.loadSum, ca.loadAvg*peltMinDivider)
	return true
}

// updateCfsRqHLoad mirrors update_cfs_rq_h_load(): the share of the CPU's
// root load that q's level carries, computed top-down once per jiffy.
func (s *Sim) updateCfsRqHLoad(q *cfsRq) {
	now := s.jiffies()
	if q.hLoadStamp == now {
		return
	}
	// Walk up to the first level already computed this jiffy (or the root).
	var path [64]*cfsRq
	n := 0
	c := q
	for c.se != nil && n < len(path) {
		path[n] = c
		n++
		c.hLoadStamp = now
		c = s.cfsOf(c.se)
		if c.hLoadStamp == now {
			break
		}
	}
	if c.hLoadStamp != now { // the root, not yet computed this jiffy
		c.hLoad = cfsRqLoadAvg(c)
		c.hLoadStamp = now
	}
	for i := n - 1; i >= 0; i-- {
		child := path[i]
		parent := s.cfsOf(child.se)
		child.hLoad = parent.hLoad * child.se.se.avg.loadAvg / (cfsRqLoadAvg(parent) + 1)
	}
}

func cfsRqLoadAvg(q *cfsRq) uint64 { return q.avg.loadAvg }

// taskHLoad mirrors task_h_load(): the task's load as the root cfs_rq sees
// it (its load_avg without groups).
func (s *Sim) taskHLoad(p *Task) int64 {
	if !s.grouped() || p.tg == nil {
		return int64(p.se.avg.loadAvg)
	}
	q := s.cfsOf(p)
	s.updateCfsRqHLoad(q)
	return int64(p.se.avg.loadAvg * q.hLoad / (cfsRqLoadAvg(q) + 1))
}
