//go:build invariants

package sched

// Self-checks of the task-group hierarchy (cgroup*.go), run after every
// event with -tags invariants: every group cfs_rq's load, counts and
// avg_vruntime sums equal what its entities give; a queued group entity
// has a non-empty cfs_rq unless it is delayed; a task's entity chain is
// curr at every level while it runs; a throttled cfs_rq runs nothing
// (v6.18: unless its async unthrottle is pending).

import "fmt"

func (s *Sim) checkCgroupInvariants(rq *rq) {
	if !s.grouped() {
		return
	}
	hNr, hDel, _ := s.checkCfsRqTree(rq, &rq.cfs)
	if hNr != rq.cfs.hNr || hDel != rq.cfs.hDelayed {
		panic(fmt.Sprintf("invariant: cpu %d root h_nr_queued %d/%d delayed, recomputed %d/%d at %s", rq.cpu, rq.cfs.hNr, rq.cfs.hDelayed, hNr, hDel, s.now))
	}
	if c := rq.curr; c != nil && !c.isRT() && !c.isDL() {
		for se := c; se != nil; se = s.parentOf(se) {
			q := s.cfsOf(se)
			if q.curr != se {
				panic(fmt.Sprintf("invariant: cpu %d runs %s but the cfs_rq of %s has curr %v at %s", rq.cpu, c.name, se.name, q.curr != nil, s.now))
			}
			// Before v6.0 sched_move_task() can leave the running task
			// under a throttled group until it blocks (no resched_curr()).
			// v6.18: a cfs_rq given runtime and waiting for the async
			// unthrottle is still marked throttled, but check_cfs_rq_runtime()
			// lets its queued tasks be picked (cgroup_unthrottle_async.go).
			// A task a setattr step brought into the fair class runs
			// there until its pending reschedule (switched_to_fair()).
			pending := q.bwq.csdQueued && q.bwq.remaining > 0
			if q.bwq.throttled && s.rules.moveResched && !c.throttleWork && !pending && !rq.needResched {
				panic(fmt.Sprintf("invariant: cpu %d runs %s under a throttled cfs_rq (%s) at %s", rq.cpu, c.name, se.name, s.now))
			}
		}
	}
}

// checkCfsRqTree checks the group cfs_rqs below q and returns the tasks
// queued below q (h_nr_queued, h_nr_delayed, h_nr_idle) as recomputed.
func (s *Sim) checkCfsRqTree(rq *rq, q *cfsRq) (nr, delayed, idle int) {
	ents := q.queue
	if q.curr != nil && q.curr.se.onRq {
		ents = append(ents[:len(ents):len(ents)], q.curr)
	}
	var w, avg, load int64
	for _, e := range q.queue {
		sw := s.arith.scaleLoadDown(e.se.load.weight)
		avg += (e.se.vruntime - q.minVruntime) * sw
		load += sw
	}
	if q.se != nil && (avg != q.avgVruntime || load != q.avgLoad) {
		panic(fmt.Sprintf("invariant: cpu %d cfs_rq %s avg_vruntime sums %d/%d, recomputed %d/%d at %s", rq.cpu, q.se.name, q.avgVruntime, q.avgLoad, avg, load, s.now))
	}
	for _, e := range ents {
		w += e.se.load.weight
		if e.cpu != rq.cpu || !e.se.onRq {
			panic(fmt.Sprintf("invariant: cpu %d queue holds %s (cpu %d, on_rq %v) at %s", rq.cpu, e.name, e.cpu, e.se.onRq, s.now))
		}
		if e.tg != nil && (e.pq != e.tg.cfs[e.cpu] || e.parent != e.tg.se[e.cpu]) {
			panic(fmt.Sprintf("invariant: cpu %d: %s caches a cfs_rq or parent of another CPU or group at %s", rq.cpu, e.name, s.now))
		}
		if e.my == nil {
			nr++
			if e.se.delayed {
				delayed++
			}
			if e.policy == SchedIdle {
				idle++
			}
			continue
		}
		n, d, i := s.checkCfsRqTree(rq, e.my)
		if n != e.my.hNr || d != e.my.hDelayed || i != e.my.hIdle {
			panic(fmt.Sprintf("invariant: cpu %d cfs_rq %s h_nr %d/%d/%d, recomputed %d/%d/%d at %s", rq.cpu, e.name, e.my.hNr, e.my.hDelayed, e.my.hIdle, n, d, i, s.now))
		}
		if e.my.nrQueued == 0 && !e.se.delayed && !e.my.bwq.throttled {
			panic(fmt.Sprintf("invariant: cpu %d group entity %s queued with an empty cfs_rq at %s", rq.cpu, e.name, s.now))
		}
		if e.my.tg.idle {
			i = n
		}
		nr, delayed, idle = nr+n, delayed+d, idle+i
	}
	if q.se != nil && w != q.load.weight {
		panic(fmt.Sprintf("invariant: cpu %d cfs_rq %s load %d, recomputed %d at %s", rq.cpu, q.se.name, q.load.weight, w, s.now))
	}
	return nr, delayed, idle
}
