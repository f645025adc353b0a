//go:build invariants

package sched

// Expensive self-checks, compiled in with -tags invariants (make test uses
// it; release builds do not). A broken invariant is a bug in the simulator,
// so it panics with an assertion message.

import "fmt"

const invariantsEnabled = true

// checkInvariants runs after every engine event.
func (s *Sim) checkInvariants() {
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
