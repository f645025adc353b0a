package sched

// Test-only access to engine state, for checkers that run inside a Sink and
// look at the state as it is when an event is emitted. Nothing here changes
// state.

// fairRq is one CPU's fair runqueue as a checker sees it.
type fairRq struct {
	cpu CPUID
	q   *cfsRq
	// entities are the entities in avg_vruntime: curr (when on_rq) first,
	// then the queue in tree order. Delayed entities are included.
	entities []*Task
}

// fairRqs returns every CPU's fair runqueue.
func (s *Sim) fairRqs() []fairRq {
	out := make([]fairRq, len(s.rqs))
	for i := range s.rqs {
		q := &s.rqs[i].cfs
		var ents []*Task
		if q.currCounts() {
			ents = append(ents, q.curr)
		}
		ents = append(ents, q.queue...)
		out[i] = fairRq{cpu: CPUID(i), q: q, entities: ents}
	}
	return out
}

// taskState returns task id's internal record.
func (s *Sim) task(id TaskID) *Task { return s.tasks[id] }

// allTasks returns every task created so far.
func (s *Sim) allTasks() []*Task { return s.tasks }

// scaledWeight is the weight the EEVDF sums use (scale_load_down()).
func (s *Sim) scaledWeight(t *Task) int64 { return s.arith.scaleLoadDown(t.se.load.weight) }

// tickPeriod is TICK_NSEC.
func (s *Sim) tickPeriod() Time { return s.tickNs }

// isEEVDF describes the run's profile (its kernel rules: Sim.rules).
func (s *Sim) isEEVDF() bool { return s.eevdf }
func (s *Sim) features() FeatureSet {
	return s.feat
}
