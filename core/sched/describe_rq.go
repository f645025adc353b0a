package sched

// A stable text rendering of one CPU's runqueue, the simulator's
// /proc/sched_debug "cfs_rq[N]" / "rt_rq[N]" / "dl_rq[N]" sections and
// print_rq()'s task lines (kernel/sched/debug.c), for test scripts, error
// messages and debug panels.
//
// The running fair entity is shown as update_curr() would account it now
// (vruntime and sum_exec_runtime advanced by the time since exec_start),
// without changing any state: the kernel's debug file prints the last
// accounted values, which lag behind by up to a tick. The average V, the
// lags (lag = V - v, entity_lag() before its clamp) and the eligibility
// use that projected vruntime. Legacy CFS shows key = v - min_vruntime
// (the rb-tree key) and sched_slice(); ran is sum_exec_runtime -
// prev_sum_exec_runtime, what check_preempt_tick() compares. Times are ns,
// weights are se->load.weight as the kernel prints it (scale_load() applied
// on 64-bit profiles). One line per entity, name first; queued entities in
// tree order (the order the pick walks). With task groups a group
// entity's line is followed by its own cfs_rq (h_nr_queued, and the
// runtime left and throttle state under cpu.max), indented two spaces per
// level. The RT and deadline lines show
// the last accounted values (update_curr_rt()/update_curr_dl() run at the
// tick, a dequeue or a put_prev).

import (
	"fmt"
	"strings"
)

// DescribeRunqueue renders cpu's runqueue at the current time: the fair
// queue (curr first, then the queued entities in tree order), then the RT
// and deadline queues. cpu must be one of the machine's CPUs.
func (s *Sim) DescribeRunqueue(cpu CPUID) string {
	if cpu < 0 || int(cpu) >= len(s.rqs) {
		panic(fmt.Sprintf("sched: DescribeRunqueue: cpu %d out of range (the machine has %d CPUs)", cpu, len(s.rqs)))
	}
	rq := &s.rqs[cpu]
	var b strings.Builder
	s.describeFair(&b, rq)
	s.describeRT(&b, rq)
	s.describeDL(&b, rq)
	return b.String()
}

// projectedCurr returns the fair curr's vruntime and sum_exec_runtime as
// update_curr() would leave them now (unchanged unless it is running).
func (s *Sim) projectedCurr(rq *rq, q *cfsRq) (vruntime, sumExec int64) {
	c := q.curr
	vruntime, sumExec = c.se.vruntime, c.se.sumExec
	if !s.runsUnder(rq, c) {
		return vruntime, sumExec
	}
	if delta := int64(s.now - c.se.execStart); delta > 0 {
		lw := c.se.load // a copy: calcDeltaFair caches inv_weight
		vruntime += s.arith.calcDeltaFair(delta, &lw)
		sumExec += delta
	}
	return vruntime, sumExec
}

// fairAverage is avg_vruntime() and the sums vruntime_eligible() compares,
// with curr at vruntime cv.
func (s *Sim) fairAverage(q *cfsRq, cv int64) (v, avg, load int64) {
	avg, load = q.avgVruntime, q.avgLoad
	if q.currCounts() {
		w := s.arith.scaleLoadDown(q.curr.se.load.weight)
		avg += (cv - q.minVruntime) * w
		load += w
	}
	v = avg
	if load != 0 {
		if v < 0 {
			v -= load - 1
		}
		v /= load
	}
	return q.minVruntime + v, avg, load
}

// runsUnder reports whether rq's running task is entity c or below it.
func (s *Sim) runsUnder(rq *rq, c *Task) bool {
	for t := rq.curr; t != nil && !t.isRT() && !t.isDL(); t = s.parentOf(t) {
		if t == c {
			return true
		}
	}
	return false
}

func (s *Sim) describeFair(b *strings.Builder, rq *rq) {
	s.describeCfsRq(b, rq, &rq.cfs, "")
}

// describeCfsRq renders one cfs_rq; a group entity's cfs_rq follows its
// line, indented (task groups, cgroup.go).
func (s *Sim) describeCfsRq(b *strings.Builder, rq *rq, q *cfsRq, indent string) {
	cv, cexec := int64(0), int64(0)
	if q.curr != nil {
		cv, cexec = s.projectedCurr(rq, q)
	}
	class := "cfs"
	if s.eevdf {
		class = "eevdf"
	}
	if q.se == nil {
		fmt.Fprintf(b, "cpu%d %s nr_queued=%d load=%d min_vruntime=%d", rq.cpu, class, q.nrQueued, q.load.weight, q.minVruntime)
	} else {
		fmt.Fprintf(b, "%scfs_rq %s nr_queued=%d h_nr_queued=%d load=%d min_vruntime=%d", indent, q.se.name, q.nrQueued, q.hNr, q.load.weight, q.minVruntime)
		if q.bwq.enabled {
			fmt.Fprintf(b, " runtime_remaining=%d throttled=%v", q.bwq.remaining, q.bwq.throttled)
		}
	}
	V, avg, load := s.fairAverage(q, cv)
	if s.eevdf {
		fmt.Fprintf(b, " avg_vruntime=%d", V)
	}
	b.WriteByte('\n')
	line := func(t *Task, role string, v, exec int64) {
		fmt.Fprintf(b, "%s%s %s vruntime=%d", indent, t.name, role, v)
		if s.eevdf {
			elig := "no"
			if avg >= (v-q.minVruntime)*load {
				elig = "yes"
			}
			fmt.Fprintf(b, " deadline=%d lag=%d slice=%d eligible=%s", t.se.deadline, V-v, t.se.slice, elig)
			if role == "curr" && t.se.vprot != 0 {
				fmt.Fprintf(b, " vprot=%d", t.se.vprot)
			}
			if t.se.delayed {
				b.WriteString(" delayed")
			}
		} else {
			qc := *q // sched_slice() caches inv_weight in the load it reads
			fmt.Fprintf(b, " key=%d slice=%d", v-q.minVruntime, s.cfsSlice(&qc, t))
		}
		fmt.Fprintf(b, " weight=%d sum_exec=%d", t.se.load.weight, exec)
		if role == "curr" {
			fmt.Fprintf(b, " ran=%d", exec-t.se.prevSumExec)
		}
		b.WriteByte('\n')
		if t.my != nil {
			s.describeCfsRq(b, rq, t.my, indent+"  ")
		}
	}
	if c := q.curr; c != nil {
		role := "curr"
		if !s.runsUnder(rq, c) {
			role = "curr-preempted" // cfs_rq->curr while another class runs
		}
		line(c, role, cv, cexec)
	}
	for _, t := range q.queue {
		line(t, "queued", t.se.vruntime, t.se.sumExec)
	}
}

func (s *Sim) describeRT(b *strings.Builder, rq *rq) {
	q := &rq.rt
	fmt.Fprintf(b, "cpu%d rt nr_running=%d rt_time=%d throttled=%t\n", rq.cpu, q.nrRunning, q.rtTime, q.throttled)
	for _, t := range q.queue {
		role := "queued"
		if rq.curr == t {
			role = "curr"
		}
		fmt.Fprintf(b, "%s %s %s prio=%d", t.name, role, t.policy, t.prio())
		if t.policy == SchedRR {
			fmt.Fprintf(b, " time_slice=%d", t.rt.timeSlice)
		}
		b.WriteByte('\n')
	}
}

func (s *Sim) describeDL(b *strings.Builder, rq *rq) {
	q := &rq.dl
	fmt.Fprintf(b, "cpu%d dl nr_running=%d\n", rq.cpu, len(q.queue))
	for _, t := range q.queue {
		role := "queued"
		if rq.curr == t {
			role = "curr"
		}
		fmt.Fprintf(b, "%s %s runtime=%d deadline=%d", t.name, role, t.dl.runtime, t.dl.deadline)
		if t.dl.pi != nil {
			fmt.Fprintf(b, " boosted_by=%s", t.dl.pi.name)
		}
		b.WriteByte('\n')
	}
}
