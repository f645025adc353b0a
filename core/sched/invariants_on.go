//go:build invariants

package sched

// Expensive self-checks, compiled in with -tags invariants (make test uses
// it; release builds do not). A broken invariant is a bug in the simulator,
// so it panics with an assertion message.

import "fmt"

const invariantsEnabled = true

// checkInvariants runs after every engine event.
func (s *Sim) checkInvariants() {
	s.checkIdleHint()
	s.checkSchedIdleHint()
	running := map[*Task]CPUID{}
	for i := range s.rqs {
		rq := &s.rqs[i]
		q := &rq.cfs
		if t := rq.curr; t != nil {
			if c, dup := running[t]; dup {
				panic(fmt.Sprintf("invariant: task %s runs on cpu %d and cpu %d at %s", t.name, c, rq.cpu, s.now))
			}
			running[t] = rq.cpu
			if !t.affinity.has(rq.cpu) {
				panic(fmt.Sprintf("invariant: task %s runs on cpu %d outside its affinity at %s", t.name, rq.cpu, s.now))
			}
			if t.cpu != rq.cpu {
				panic(fmt.Sprintf("invariant: task %s runs on cpu %d but task_cpu is %d", t.name, rq.cpu, t.cpu))
			}
		}
		s.checkRTInvariants(rq)
		s.checkDLInvariants(rq)
		s.checkCgroupInvariants(rq)
		n := len(q.queue)
		if q.curr != nil && q.curr.se.onRq {
			n++
		}
		if n != q.nrQueued {
			panic(fmt.Sprintf("invariant: cpu %d nr_queued %d but %d entities queued at %s", rq.cpu, q.nrQueued, n, s.now))
		}
		var avg, load, w int64
		for j, t := range q.queue {
			if j > 0 && q.key(q.queue[j-1]) > q.key(t) {
				panic(fmt.Sprintf("invariant: cpu %d queue out of order at %d", rq.cpu, j))
			}
			if !t.se.onRq || t.cpu != rq.cpu {
				panic(fmt.Sprintf("invariant: cpu %d queue holds %s (on_rq=%v cpu=%d)", rq.cpu, t.name, t.se.onRq, t.cpu))
			}
			sw := s.arith.scaleLoadDown(t.se.load.weight)
			avg += (t.se.vruntime - q.minVruntime) * sw
			load += sw
			w += t.se.load.weight
		}
		if q.curr != nil && q.curr.se.onRq {
			w += q.curr.se.load.weight
		}
		if avg != q.avgVruntime || load != q.avgLoad {
			panic(fmt.Sprintf("invariant: cpu %d avg_vruntime sums %d/%d, recomputed %d/%d at %s", rq.cpu, q.avgVruntime, q.avgLoad, avg, load, s.now))
		}
		if w != q.load.weight {
			panic(fmt.Sprintf("invariant: cpu %d load %d, recomputed %d at %s", rq.cpu, q.load.weight, w, s.now))
		}
	}
}

// checkRTInvariants: the RT queue is in prio order and holds exactly the
// queued RT tasks of this CPU; an RT curr is on it and the fair class then
// has no curr; the overload count matches.
func (s *Sim) checkRTInvariants(rq *rq) {
	q := &rq.rt
	rr, mig := 0, 0
	for j, t := range q.queue {
		if j > 0 && q.queue[j-1].prio() > t.prio() {
			panic(fmt.Sprintf("invariant: cpu %d rt queue out of prio order at %d (%s)", rq.cpu, j, s.now))
		}
		if !t.isRT() || !t.rt.onRq || t.cpu != rq.cpu || t.state != stateRunnable {
			panic(fmt.Sprintf("invariant: cpu %d rt queue holds %s (rt=%v on_rq=%v cpu=%d state=%d) at %s", rq.cpu, t.name, t.isRT(), t.rt.onRq, t.cpu, t.state, s.now))
		}
		if t.policy == SchedRR {
			rr++
		}
		if s.nrCPUsAllowed(t) > 1 {
			mig++
		}
	}
	if q.nrRunning != len(q.queue) || q.rrNrRunning != rr || q.nrMigratory != mig {
		panic(fmt.Sprintf("invariant: cpu %d rt counts %d/%d/%d, recomputed %d/%d/%d at %s", rq.cpu, q.nrRunning, q.rrNrRunning, q.nrMigratory, len(q.queue), rr, mig, s.now))
	}
	if c := rq.curr; c != nil && c.isRT() {
		if !c.rt.onRq {
			panic(fmt.Sprintf("invariant: cpu %d runs RT task %s that is not queued at %s", rq.cpu, c.name, s.now))
		}
		if rq.cfs.curr != nil {
			panic(fmt.Sprintf("invariant: cpu %d runs RT task %s but cfs curr is %s at %s", rq.cpu, c.name, rq.cfs.curr.name, s.now))
		}
	}
	if rq.cpu == CPUID(len(s.rqs)-1) {
		for i := range s.rqs {
			if s.cpuRd == nil && i > 0 {
				break // one root domain: checked once
			}
			rd := s.rdOf(CPUID(i))
			n := 0
			for c := range s.rqs {
				if s.rqs[c].rt.overloaded && rd.has(CPUID(c)) {
					n++
				}
			}
			if n != rd.rtoCount {
				panic(fmt.Sprintf("invariant: cpu %d: rto_count %d, %d CPUs of its root domain overloaded at %s", i, rd.rtoCount, n, s.now))
			}
		}
	}
}
