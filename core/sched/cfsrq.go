package sched

// The fair runqueue (struct cfs_rq): the queue of runnable entities, the
// running one, and the sums EEVDF keeps to find the weighted average
// vruntime.
//
// The kernel keeps queued entities in an rbtree (by vruntime in CFS and
// v6.6, by deadline from v6.8, augmented with subtree minima). We keep a
// sorted slice with the same order and the same tie rule (an entity equal to
// others goes after them, as rb insertion does), so "leftmost" and "first
// eligible in deadline order" are the kernel's. Runqueues are short (a few
// tasks per CPU), where a slice beats a tree; [cfsRq.insert] is O(n).
//
// Like the kernel, curr is not in the queue while it runs but still counts
// in nrQueued, load and (explicitly, in avgVruntime()) the average.

type cfsRq struct {
	queue       []*Task // queued entities except curr, sorted by key
	curr        *Task   // cfs_rq->curr
	nrQueued    int     // cfs_rq->nr_running (v6.6) / nr_queued (v6.12+): on_rq entities incl. curr and delayed
	nrDelayed   int     // h_nr_delayed
	load        loadWeight
	minVruntime int64 // min_vruntime (reference of avgVruntime)
	avgVruntime int64 // Σ (v_i - minVruntime) * w_i over queue entities
	avgLoad     int64 // Σ w_i over queue entities (scale_load_down weights)
	next        *Task // buddies
	last        *Task
	skip        *Task
	byDeadline  bool       // EEVDF key order
	avg         schedAvg   // cfs_rq->avg (pelt.go)
	removed     cfsRemoved // cfs_rq->removed
	// peltIdleStopped: cfs_rq->throttled_pelt_idle == U64_MAX, the queue
	// emptied under a throttled hierarchy (pelt_migrate_lag.go).
	peltIdleStopped bool

	// Task groups (cgroup.go), maintained only when the run has them.
	tg         *taskGroup     // cfs_rq->tg (nil: the root)
	se         *Task          // the group entity owning this queue (nil: the root)
	hNr        int            // h_nr_queued: tasks queued below, delayed ones included
	hDelayed   int            // h_nr_delayed
	hIdle      int            // h_nr_idle (idle_h_nr_running): SCHED_IDLE tasks or tasks of idle groups
	tgContrib  int64          // tg_load_avg_contrib
	tgStamp    Time           // last_update_tg_load_avg (v6.7+ rate limit)
	propagate  bool           // propagate (PELT to the parent level)
	propSum    int64          // prop_runnable_sum
	hLoad      uint64         // h_load (cgroup_pelt.go)
	hLoadStamp int64          // last_h_load_update, jiffies; -1 = never
	bwq        cfsRqBandwidth // cgroup_bandwidth.go
	limbo      []*Task        // throttled_limbo_list (v6.18, cgroup_throttle_task.go)
	pc         cfsPeltClock   // throttle_count and the throttled PELT clock (cgroup_pelt_clock.go)
}

func (q *cfsRq) key(t *Task) int64 {
	if q.byDeadline {
		return t.se.deadline
	}
	return t.se.vruntime
}

// insert mirrors __enqueue_entity(): add t to the queue in key order.
// The entries after t's place move up one by one: the queues are short,
// and copy() of pointers is a runtime call (typedslicecopy), dear in WASM.
func (q *cfsRq) insert(s *Sim, t *Task) {
	k := q.key(t)
	q.queue = append(q.queue, t)
	qq := q.queue
	i := len(qq) - 1
	if q.byDeadline {
		for ; i > 0 && qq[i-1].se.deadline > k; i-- {
			qq[i] = qq[i-1]
		}
	} else {
		for ; i > 0 && qq[i-1].se.vruntime > k; i-- {
			qq[i] = qq[i-1]
		}
	}
	qq[i] = t
	w := s.arith.scaleLoadDown(t.se.load.weight)
	q.avgVruntime += (t.se.vruntime - q.minVruntime) * w
	q.avgLoad += w
}

// remove mirrors __dequeue_entity().
func (q *cfsRq) remove(s *Sim, t *Task) {
	qq := q.queue
	for i, e := range qq {
		if e == t {
			for ; i+1 < len(qq); i++ {
				qq[i] = qq[i+1]
			}
			qq[len(qq)-1] = nil
			q.queue = qq[:len(qq)-1]
			w := s.arith.scaleLoadDown(t.se.load.weight)
			q.avgVruntime -= (t.se.vruntime - q.minVruntime) * w
			q.avgLoad -= w
			return
		}
	}
	panic("sched: cfsRq.remove: task not queued")
}

// first mirrors __pick_first_entity(): the leftmost queued entity.
func (q *cfsRq) first() *Task {
	if len(q.queue) == 0 {
		return nil
	}
	return q.queue[0]
}

// accountEnqueue / accountDequeue mirror account_entity_enqueue/dequeue.
func (q *cfsRq) accountEnqueue(t *Task) {
	q.load.weight += t.se.load.weight
	q.load.invWeight = 0
	q.nrQueued++
}

func (q *cfsRq) accountDequeue(t *Task) {
	q.load.weight -= t.se.load.weight
	q.load.invWeight = 0
	q.nrQueued--
}

// currWeight returns curr's weight when it counts in the average.
func (q *cfsRq) currCounts() bool { return q.curr != nil && q.curr.se.onRq }

// avgVruntimeOf mirrors avg_vruntime(): the load-weighted average vruntime V
// of the queue and curr, rounded toward minus infinity.
func (q *cfsRq) avgVruntimeOf(s *Sim) int64 {
	avg, load := q.avgVruntime, q.avgLoad
	if q.currCounts() {
		w := s.arith.scaleLoadDown(q.curr.se.load.weight)
		if load == 0 && avg == 0 && w > 0 && w < 1<<31 {
			// curr alone (common on a group's cfs_rq): (v-min)*w/w is v-min
			// exactly while the product fits, as it does for |v-min| < 2^31.
			if d := q.curr.se.vruntime - q.minVruntime; d == int64(int32(d)) {
				return q.curr.se.vruntime
			}
		}
		avg += (q.curr.se.vruntime - q.minVruntime) * w
		load += w
	}
	if load != 0 {
		if avg < 0 {
			avg -= load - 1
		}
		avg /= load
	}
	return q.minVruntime + avg
}

// vruntimeEligible mirrors vruntime_eligible() / entity_eligible():
// v <= V, evaluated without division.
func (q *cfsRq) vruntimeEligible(s *Sim, v int64) bool {
	avg, load := q.eligibleSums(s)
	return avg >= (v-q.minVruntime)*load
}

// eligibleSums returns the numerator and load of V with curr counted, the
// two sides vruntime_eligible() compares; a scan over the queue takes them
// once (nothing it reads changes during the scan).
func (q *cfsRq) eligibleSums(s *Sim) (avg, load int64) {
	avg, load = q.avgVruntime, q.avgLoad
	if q.currCounts() {
		w := s.arith.scaleLoadDown(q.curr.se.load.weight)
		avg += (q.curr.se.vruntime - q.minVruntime) * w
		load += w
	}
	return avg, load
}

func (q *cfsRq) eligible(s *Sim, t *Task) bool { return q.vruntimeEligible(s, t.se.vruntime) }

// updateMinVruntime mirrors update_min_vruntime(): min_vruntime follows the
// smallest vruntime of curr and the queue but never goes backwards.
func (q *cfsRq) updateMinVruntime() {
	v := q.minVruntime
	curr := q.curr
	if curr != nil {
		if curr.se.onRq {
			v = curr.se.vruntime
		} else {
			curr = nil
		}
	}
	if m, ok := q.minQueuedVruntime(); ok {
		if curr == nil || m < v {
			v = m
		}
	}
	if d := v - q.minVruntime; d > 0 {
		q.avgVruntime -= q.avgLoad * d // avg_vruntime_update()
		q.minVruntime = v
	}
}

func (q *cfsRq) minQueuedVruntime() (int64, bool) {
	if len(q.queue) == 0 {
		return 0, false
	}
	if !q.byDeadline {
		return q.queue[0].se.vruntime, true
	}
	m := q.queue[0].se.vruntime
	for _, t := range q.queue[1:] {
		m = min(m, t.se.vruntime)
	}
	return m, true
}

// clearBuddies mirrors clear_buddies().
func (q *cfsRq) clearBuddies(t *Task) {
	if q.next == t {
		q.next = nil
	}
	if q.last == t {
		q.last = nil
	}
	if q.skip == t {
		q.skip = nil
	}
}
