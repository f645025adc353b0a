package sched

// Group entity weights: kernel/sched/fair.c calc_group_shares() (v4.15+;
// calc_cfs_shares() with calc_tg_weight() in v3.11), update_cfs_group()
// (update_cfs_shares() in v3.11), update_tg_load_avg() and
// reweight_entity() in each version's form:
//
//   - v3.11, v5.8 (legacy CFS): commit curr's runtime, move the weight out
//     of and back into the cfs_rq load; vruntime is not touched.
//   - v6.6: the relative deadline is rescaled to the new weight (the
//     entity's vruntime stays); a dequeued entity's vlag is rescaled.
//   - v6.12: reweight_eevdf(): lag and deadline are rescaled around the
//     average vruntime V taken before the entity leaves the tree
//     (eab03c23c2a1, with the avruntime fix of v6.9).
//   - v6.18: the lag is saved (update_entity_lag()), the deadline made
//     relative, both rescaled, and the entity placed again with
//     place_entity() (6d71a9c61604, v6.14); an empty group keeps its weight
//     (66951e4860d3, "Fix update_cfs_group() vs DELAY_DEQUEUE").
//
// calc_group_shares() gives a group entity tg->shares scaled by its
// cfs_rq's share of the group's load: tg_shares * load / tg_weight, with
// load = max(cfs_rq load weight, load_avg) and tg_weight = tg->load_avg -
// this cfs_rq's contribution + load, clamped to [MIN_SHARES, tg_shares]. On
// one CPU the group gets exactly tg->shares. tg->load_avg is updated by
// update_tg_load_avg() only when the cfs_rq's load_avg moved by more than
// 1/64 of its last contribution (and, from v6.7, at most once per ms).

// updateTGLoadAvg mirrors update_tg_load_avg().
func (s *Sim) updateTGLoadAvg(q *cfsRq) {
	tg := q.tg
	if tg == nil {
		return
	}
	if s.rules.tgLoadRatelimit && q.tgStamp != 0 && s.now-q.tgStamp < Millisecond {
		return
	}
	delta := int64(q.avg.loadAvg) - q.tgContrib
	if abs64(delta) > q.tgContrib/64 {
		tg.loadAvg += delta
		q.tgContrib = int64(q.avg.loadAvg)
		q.tgStamp = s.now
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// calcGroupShares mirrors calc_group_shares() (calc_cfs_shares() in v3.11,
// where load is the cfs_rq's load weight alone).
func (s *Sim) calcGroupShares(q *cfsRq) int64 {
	tg := q.tg
	tgShares := tg.shares
	load := s.arith.scaleLoadDown(q.load.weight)
	if s.rules.sharesLoadAvg {
		load = max(load, int64(q.avg.loadAvg))
	}
	tgWeight := tg.loadAvg - q.tgContrib + load
	shares := tgShares * load
	if tgWeight != 0 {
		shares /= tgWeight
	}
	return min(max(shares, MinShares), tgShares)
}

// updateCfsGroup mirrors update_cfs_group(): reweight group entity se to
// its share of the group.
func (s *Sim) updateCfsGroup(se *Task) {
	g := se.my
	if g == nil {
		return
	}
	if s.rules.emptyGroupKeepsWeight && g.load.weight == 0 {
		return
	}
	if s.throttledHierarchy(g) {
		return
	}
	if shares := s.calcGroupShares(g); se.se.load.weight != shares {
		s.reweightEntity(s.cfsOf(se), se, shares)
	}
}

// reweightEntity mirrors reweight_entity() of each version.
func (s *Sim) reweightEntity(q *cfsRq, se *Task, weight int64) {
	rq := &s.rqs[se.cpu]
	curr := q.curr == se
	old := se.se.load.weight
	var avruntime int64
	moved := false // taken out of the queue (EEVDF v6.12+)
	if se.se.onRq {
		switch {
		case !s.eevdf:
			if curr {
				s.cfsUpdateCurr(rq, q)
			}
		case !s.rules.reweightEEVDF:
			if curr {
				s.eevdfUpdateCurr(rq, q)
			}
		default:
			s.eevdfUpdateCurr(rq, q)
			if s.rules.reweightPlace {
				s.eevdfUpdateLag(q, se)
				se.se.deadline -= se.se.vruntime
				se.se.relDeadline = true
				q.nrQueued--
			} else {
				avruntime = q.avgVruntimeOf(s) // reweight_eevdf() rescales around V
			}
			if !curr {
				q.remove(s, se)
				moved = true
			}
		}
		q.load.weight -= old
		q.load.invWeight = 0
	}
	s.dequeueLoadAvg(q, se)
	if s.eevdf {
		s.reweightEEVDF(q, se, old, weight, avruntime)
	}
	if se.se.onRq && !curr && !moved {
		q.reweightQueued(s, se, weight) // the key is unchanged: adjust the sums in place
	}
	se.se.load = loadWeight{weight: weight}
	se.se.avg.loadAvg = s.seWeight(se) * se.se.avg.loadSum / peltDivider(&se.se.avg)
	s.enqueueLoadAvg(q, se)
	if se.se.onRq {
		if s.eevdf && s.rules.reweightPlace {
			s.eevdfPlace(q, se, 0)
			q.nrQueued++
		}
		q.load.weight += weight
		q.load.invWeight = 0
		if moved {
			q.insert(s, se)
		}
		if s.eevdf {
			q.updateMinVruntime()
		}
	}
}

// reweightEEVDF rescales the entity's virtual-time quantities from weight
// old to weight (the body of reweight_entity() / reweight_eevdf()).
func (s *Sim) reweightEEVDF(q *cfsRq, se *Task, old, weight, avruntime int64) {
	e := &se.se
	switch {
	case s.rules.reweightPlace || !e.onRq:
		if e.vlag != 0 { // zero lag (an entity alone on its cfs_rq) stays zero
			e.vlag = e.vlag * old / weight // div_s64 truncates toward zero, as Go does
		}
		if e.relDeadline && s.rules.reweightEEVDF {
			e.deadline = e.deadline * old / weight
		}
	case !s.rules.reweightEEVDF:
		d := (e.deadline - e.vruntime) * old / weight
		e.deadline = e.vruntime + d
	default: // reweight_eevdf()
		if avruntime != e.vruntime {
			lag := (avruntime - e.vruntime) * old / weight
			e.vruntime = avruntime - lag
		}
		e.deadline = avruntime + (e.deadline-avruntime)*old/weight
	}
}

// reweightQueued changes the weight of a queued entity whose key does not
// move, keeping the avg_vruntime sums exact.
func (q *cfsRq) reweightQueued(s *Sim, t *Task, weight int64) {
	ow, nw := s.arith.scaleLoadDown(t.se.load.weight), s.arith.scaleLoadDown(weight)
	q.avgVruntime += (t.se.vruntime - q.minVruntime) * (nw - ow)
	q.avgLoad += nw - ow
}
