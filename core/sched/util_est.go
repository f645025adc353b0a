package sched

// Estimated utilisation (util_est): kernel/sched/fair.c _task_util_est(),
// task_util_est(), util_est_enqueue(), util_est_dequeue(),
// util_est_update() (util_est_dequeue()'s second half before v5.13),
// cpu_util() with cpu_util_cfs(), cpu_util_cfs_boost() and
// cpu_util_without(); kernel/sched/pelt.h cfs_se_util_change();
// include/linux/sched.h struct util_est (v6.8: a single unsigned int).
//
// A task that runs in bursts has a small, decaying util_avg at the moment
// it wakes; util_est keeps what its util_avg was when it last went to
// sleep. At every sleep (DEQUEUE_SLEEP) the task's sample is its util_avg
// then; the EWMA moves a quarter of the way to it (UTIL_EST_WEIGHT_SHIFT
// 2), or jumps to it when it is larger (UTIL_EST_FASTUP, permanent from
// v6.8); samples within 1% (UTIL_EST_MARGIN, 10) are skipped, and so are
// samples of a task bigger than its CPU (no idle time: the sample
// underestimates) or, from v6.2 [M], one that was runnable much longer than
// it ran (it did not get the CPU it wanted). UTIL_AVG_UNCHANGED marks an
// estimate whose util_avg has not crossed a PELT period since it was set
// (cleared by __update_load_avg_se()), so a task that slept again at once
// keeps it. The root cfs_rq sums the estimates of its enqueued tasks
// (util_est_enqueue() at the start of enqueue_task_fair(),
// util_est_dequeue() in dequeue_task_fair()); the readers take
// max(util_avg, that sum) for a CPU (cpu_util()) and max(util_avg,
// estimate) for a task (task_util_est()).
//
// Versions (rules.go): v5.8 keeps util_est {enqueued, ewma} with the flag
// in the LSB of enqueued, ORed into every estimate, and returns without a
// write for a sample within the margin; v5.13 moved the flag to the MSB,
// masked out, and stores a sample within the EWMA's margin that moved
// enqueued by more than it [M: 68d7a190682a, b89997aa88f0]; v6.2 [M] added
// the runnable test; v6.8 dropped enqueued (11137d384996 "sched/fair:
// Simplify util_est" [R tip mail]): the estimate is the EWMA, which jumps up
// and decays by a quarter of the distance. v6.12 (delayed dequeue) calls
// util_est_update() before dequeue_entities(), so the sample is the task's
// util_avg as of its last PELT update, and leaves a delayed task out of the
// sum across a migration or a save/restore (729288bc6856 "Fix util_est
// accounting for DELAY_DEQUEUE" [R patch mail]). v3.11 has no util_est
// (v4.17). features.UTIL_EST and UTIL_EST_FASTUP toggle it where the
// kernel has the flag.
//
// SIMPLIFIED: uclamp does not cap the sample (no uclamp); a delayed task
// that a priority change (rt_mutex_setprio()) finishes dequeueing goes
// through dequeue_entities() here, without the util_est_dequeue() and
// util_est_update() that the kernel's dequeue_task_fair(DEQUEUE_DELAYED)
// runs on that path.

const (
	utilEstWeightShift  = 2          // UTIL_EST_WEIGHT_SHIFT
	utilEstMargin       = 1024 / 100 // UTIL_EST_MARGIN: SCHED_CAPACITY_SCALE / 100
	utilAvgUnchangedMSB = 0x80000000 // UTIL_AVG_UNCHANGED from v5.13
	utilAvgUnchangedLSB = 0x1        // UTIL_AVG_UNCHANGED before v5.13
)

// utilEst is struct util_est: a task's last sample (enqueued) and its EWMA;
// for a root cfs_rq, enqueued is the sum over its enqueued tasks. From
// v6.8 a task's util_est is one value, kept in ewma with the flag.
type utilEst struct {
	enqueued, ewma uint32
}

// UtilEstimate is a snapshot of a task's or a CPU's util_est: Enqueued and EWMA
// as the kernel stores them (flag included), Estimate the value the
// readers use (_task_util_est() for a task, the cfs_rq sum for a CPU).
type UtilEstimate struct {
	Enqueued, EWMA, Estimate uint32
}

// TaskUtilEst returns task id's util_est.
func (s *Sim) TaskUtilEst(id TaskID) UtilEstimate {
	t := s.tasks[id]
	ue := t.se.avg.ue
	return UtilEstimate{Enqueued: ue.enqueued, EWMA: ue.ewma, Estimate: s.taskUtilEstRaw(t)}
}

// CPUUtilEst returns cpu's root cfs_rq util_est sum.
func (s *Sim) CPUUtilEst(cpu CPUID) UtilEstimate {
	e := s.rqs[cpu].cfs.avg.ue.enqueued
	return UtilEstimate{Enqueued: e, Estimate: e}
}

// utilEstFlag is UTIL_AVG_UNCHANGED of the profile.
func (s *Sim) utilEstFlag() uint32 {
	if s.rules.utilEstMSBFlag {
		return utilAvgUnchangedMSB
	}
	return utilAvgUnchangedLSB
}

// taskUtilEstRaw mirrors _task_util_est().
func (s *Sim) taskUtilEstRaw(p *Task) uint32 {
	ue := p.se.avg.ue
	switch {
	case s.rules.utilEstSingleEWMA:
		return ue.ewma &^ utilAvgUnchangedMSB
	case s.rules.utilEstMSBFlag:
		return max(ue.ewma, ue.enqueued&^utilAvgUnchangedMSB)
	}
	return max(ue.ewma, ue.enqueued) | utilAvgUnchangedLSB
}

// taskUtilEst mirrors task_util_est(): max(util_avg, _task_util_est());
// util_avg alone where the kernel has no util_est (v3.11).
func (s *Sim) taskUtilEst(p *Task) int64 {
	util := int64(p.se.avg.utilAvg)
	if !s.rules.utilEst {
		return util
	}
	return max(util, int64(s.taskUtilEstRaw(p)))
}

// cfsSeUtilChange mirrors cfs_se_util_change(): the task's util_avg
// crossed a PELT period, so its next sleep takes a new sample.
func (s *Sim) cfsSeUtilChange(t *Task) {
	if !s.feat.Has(UtilEst) || t.my != nil {
		return
	}
	if s.rules.utilEstSingleEWMA {
		t.se.avg.ue.ewma &^= utilAvgUnchangedMSB
		return
	}
	t.se.avg.ue.enqueued &^= s.utilEstFlag()
}

// utilEstEnqueue mirrors util_est_enqueue(&rq->cfs, p) at the start of
// enqueue_task_fair(); from v6.12 a delayed task moved between CPUs or
// restored after a save is not counted (it left the sum when it slept).
func (s *Sim) utilEstEnqueue(rq *rq, p *Task, flags int) {
	if !s.feat.Has(UtilEst) {
		return
	}
	if s.rules.utilEstSkipDelayedMove && p.se.delayed && flags&enqDelayed == 0 {
		return
	}
	rq.cfs.avg.ue.enqueued += s.taskUtilEstRaw(p)
}

// utilEstDequeueTask is dequeue_task_fair()'s util_est part before the
// dequeue: util_est_dequeue() (a delayed task moving or saved is not in
// the sum from v6.12) and, from v6.12, util_est_update(). flags never
// carry deqDelayed here (the final dequeue of a delayed task is
// dequeue_entities() alone).
func (s *Sim) utilEstDequeueTask(rq *rq, p *Task, flags int) {
	if !s.feat.Has(UtilEst) {
		return
	}
	if !(s.rules.utilEstSkipDelayedMove && p.se.delayed) {
		sum := &rq.cfs.avg.ue.enqueued
		*sum -= min(*sum, s.taskUtilEstRaw(p))
	}
	if s.rules.utilEstUpdateBeforeDequeue {
		s.utilEstUpdate(rq, p, flags&deqSleep != 0)
	}
}

// utilEstDequeued is dequeue_task_fair()'s util_est_update() after the
// dequeue, before v6.12: the sample is the util_avg dequeue_entity() just
// brought up to date.
func (s *Sim) utilEstDequeued(rq *rq, p *Task, flags int) {
	if !s.feat.Has(UtilEst) || s.rules.utilEstUpdateBeforeDequeue {
		return
	}
	s.utilEstUpdate(rq, p, flags&deqSleep != 0)
}

// withinMargin mirrors within_margin(): |value| < margin.
func withinMargin(value int64, margin int32) bool {
	return uint32(int32(value)+margin-1) < uint32(2*margin-1)
}

// utilEstUpdate mirrors util_est_update(cfs_rq, p, task_sleep) (the
// second half of util_est_dequeue() before v5.13) on rq.
func (s *Sim) utilEstUpdate(rq *rq, p *Task, sleep bool) {
	if !s.feat.Has(UtilEst) || !sleep {
		return
	}
	capa := uint64(s.topo[rq.cpu].archCapacity)
	ue, util, runnable := &p.se.avg.ue, p.se.avg.utilAvg, p.se.avg.runnableAvg
	switch {
	case s.rules.utilEstSingleEWMA:
		utilEstUpdateEWMA(ue, util, runnable, capa)
	case s.rules.utilEstMSBFlag:
		utilEstUpdatePair(ue, util, runnable, capa, s.feat.Has(UtilEstFastup), s.rules.utilEstEnqueuedMargin, s.rules.utilEstRunnableCheck)
	default:
		utilEstUpdateLSB(ue, util, capa, s.feat.Has(UtilEstFastup))
	}
}

// utilEstUpdateLSB is the v5.5-v5.12 update (util_est_dequeue()): the
// flag in the LSB of enqueued, set in the sample; a sample within the
// margin of the EWMA, or of a task bigger than its CPU, is not stored.
func utilEstUpdateLSB(p *utilEst, util, capa uint64, fastup bool) {
	ue := *p
	if ue.enqueued&utilAvgUnchangedLSB != 0 {
		return
	}
	ue.enqueued = uint32(util) | utilAvgUnchangedLSB
	if fastup && ue.ewma < ue.enqueued {
		ue.ewma = ue.enqueued
		*p = ue
		return
	}
	diff := int64(ue.enqueued) - int64(ue.ewma)
	if withinMargin(diff, utilEstMargin) || util > capa {
		return
	}
	ue.ewma = uint32((int64(ue.ewma)<<utilEstWeightShift + diff) >> utilEstWeightShift)
	*p = ue
}

// utilEstUpdatePair is the v5.13-v6.7 update: {enqueued, ewma} with the
// flag in the MSB of enqueued, set on every store. enqMargin: a sample
// within the EWMA's margin is still stored when enqueued moved by more
// than it (v5.13); runnableCheck: a task runnable well beyond its
// utilisation keeps its EWMA (v6.2 [M]).
func utilEstUpdatePair(p *utilEst, util, runnable, capa uint64, fastup, enqMargin, runnableCheck bool) {
	ue := *p
	if ue.enqueued&utilAvgUnchangedMSB != 0 {
		return
	}
	lastEnqueuedDiff := int64(ue.enqueued)
	ue.enqueued = uint32(util)
	done := func() {
		ue.enqueued |= utilAvgUnchangedMSB
		*p = ue
	}
	if fastup && ue.ewma < ue.enqueued {
		ue.ewma = ue.enqueued
		done()
		return
	}
	diff := int64(ue.enqueued) - int64(ue.ewma)
	lastEnqueuedDiff -= int64(ue.enqueued)
	if withinMargin(diff, utilEstMargin) {
		if enqMargin && !withinMargin(lastEnqueuedDiff, utilEstMargin) {
			done()
		}
		return
	}
	if util > capa {
		return
	}
	if runnableCheck && uint64(ue.enqueued)+utilEstMargin < runnable {
		done()
		return
	}
	ue.ewma = uint32((int64(ue.ewma)<<utilEstWeightShift + diff) >> utilEstWeightShift)
	done()
}

// utilEstUpdateEWMA is the v6.8+ update: one EWMA, with the flag in its
// MSB; it jumps up to a larger sample and moves a quarter of the way down
// to a smaller one.
func utilEstUpdateEWMA(p *utilEst, util, runnable, capa uint64) {
	ewma := p.ewma
	if ewma&utilAvgUnchangedMSB != 0 {
		return
	}
	dequeued := uint32(util)
	switch {
	case ewma <= dequeued:
		ewma = dequeued
	case ewma-dequeued < utilEstMargin:
	case uint64(dequeued) > capa:
		return
	case uint64(dequeued)+utilEstMargin < runnable:
	default:
		last := ewma - dequeued
		ewma = (ewma<<utilEstWeightShift - last) >> utilEstWeightShift
	}
	p.ewma = ewma | utilAvgUnchangedMSB
}

// cpuUtil mirrors cpu_util(cpu, p, dst_cpu, boost) (v6.x; v5.8's
// cpu_util() and cpu_util_without() compute the same): the CPU's util_avg,
// with p's taken out when it leaves (dst != c) or put in when it arrives
// (dst == c), boosted to runnable_avg, raised to the util_est sum (with
// p's estimate out when p is queued there, or in when it arrives), capped
// at the CPU's capacity. dst is -1 for no destination. Boosting is only
// used with p nil here (find_busiest_queue()).
func (s *Sim) cpuUtil(c CPUID, p *Task, dst CPUID, boost bool) int64 {
	q := &s.rqs[c].cfs.avg
	util := int64(q.utilAvg)
	if p != nil && p.cpu == c && dst != c {
		util = max(0, util-int64(p.se.avg.utilAvg))
	} else if p != nil && p.cpu != c && dst == c {
		util += int64(p.se.avg.utilAvg)
	}
	if boost {
		util = max(util, int64(q.runnableAvg))
	}
	if s.feat.Has(UtilEst) {
		est := int64(q.ue.enqueued)
		if dst == c {
			est += int64(s.taskUtilEstRaw(p))
		} else if p != nil && p.se.onRq { // task_on_rq_queued(p) || current == p
			est = max(0, est-int64(s.taskUtilEstRaw(p)))
		}
		util = max(util, est)
	}
	return min(util, s.topo[c].archCapacity)
}
