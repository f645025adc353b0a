//go:build invariants

package sched

// Self-checks of the deadline class and of mutex ownership (see
// invariants_on.go).

import "fmt"

// checkDLInvariants: the deadline tree is in deadline order and holds
// exactly queued deadline-class tasks of this CPU, none throttled; a
// deadline curr is on it unless it was just throttled or blocked, and the
// fair class then has no curr.
func (s *Sim) checkDLInvariants(rq *rq) {
	for j, t := range rq.dl.queue {
		if j > 0 && rq.dl.queue[j-1].dl.deadline > t.dl.deadline {
			panic(fmt.Sprintf("invariant: cpu %d dl queue out of deadline order at %d (%s)", rq.cpu, j, s.now))
		}
		if !t.isDL() || !t.dl.onRq || t.dl.throttled || t.cpu != rq.cpu || t.state != stateRunnable {
			panic(fmt.Sprintf("invariant: cpu %d dl queue holds %s (dl=%v on_rq=%v throttled=%v cpu=%d state=%d) at %s",
				rq.cpu, t.name, t.isDL(), t.dl.onRq, t.dl.throttled, t.cpu, t.state, s.now))
		}
		if t.rt.onRq || t.se.onRq {
			panic(fmt.Sprintf("invariant: dl task %s is also queued in another class at %s", t.name, s.now))
		}
	}
	if c := rq.curr; c != nil && c.isDL() {
		if !c.dl.onRq && !rq.needResched {
			panic(fmt.Sprintf("invariant: cpu %d runs dl task %s that is off the tree with no resched pending at %s", rq.cpu, c.name, s.now))
		}
		if rq.cfs.curr != nil {
			panic(fmt.Sprintf("invariant: cpu %d runs dl task %s but cfs curr is %s at %s", rq.cpu, c.name, rq.cfs.curr.name, s.now))
		}
	}
	if rq.cpu != CPUID(len(s.rqs)-1) {
		return
	}
	// Root-domain bandwidth: the admitted tasks' sum.
	bw := int64(0)
	total := int64(0)
	if s.rules.fairServerInTotalBW {
		bw = int64(len(s.rqs)) * toRatio(fairServerPeriod, fairServerRuntime)
	}
	for c := range s.rqs {
		if rd := s.rdOf(CPUID(c)); rd.span == nil && c == 0 || rd.span != nil && rd.span.first(len(s.rqs)) == CPUID(c) {
			total += rd.dlTotalBW // once per root domain, at its first CPU
		}
	}
	for _, t := range s.tasks {
		if t.dl.admitted {
			bw += t.dl.bw
		}
		if t.dl.admitted && t.state == stateDead {
			panic(fmt.Sprintf("invariant: dead task %s still holds deadline bandwidth at %s", t.name, s.now))
		}
		if t.isDL() && t.state == stateRunnable && !t.dl.onRq && !t.dl.throttled {
			panic(fmt.Sprintf("invariant: runnable dl task %s is neither queued nor throttled at %s", t.name, s.now))
		}
	}
	if bw != total {
		panic(fmt.Sprintf("invariant: dl total_bw %d over the root domains, recomputed %d at %s", total, bw, s.now))
	}
	s.checkLockInvariants()
}

// checkLockInvariants: every mutex's owner lists it as held, every waiter
// is blocked on it and the waiters are in order; a task holds only mutexes
// it owns; with PI every task runs at its effective priority.
func (s *Sim) checkLockInvariants() {
	for m, r := range s.res {
		if !s.cfg.Resources[m].Mutex {
			continue
		}
		if r.owner == nil && len(r.waiters) > 0 {
			panic(fmt.Sprintf("invariant: mutex %q has waiters but no owner at %s", s.mutexName(m), s.now))
		}
		if o := r.owner; o != nil && !holds(o, m) {
			panic(fmt.Sprintf("invariant: mutex %q owner %s does not list it at %s", s.mutexName(m), o.name, s.now))
		}
		for j, id := range r.waiters {
			w := s.tasks[id]
			if w.lk.blockedOn != m || w.state != stateBlocked {
				panic(fmt.Sprintf("invariant: mutex %q waiter %s blocked_on=%d state=%d at %s", s.mutexName(m), w.name, w.lk.blockedOn, w.state, s.now))
			}
			if j > 0 && s.waiterLess(w, s.tasks[r.waiters[j-1]]) {
				panic(fmt.Sprintf("invariant: mutex %q waiters out of order at %d (%s)", s.mutexName(m), j, s.now))
			}
		}
	}
	for _, t := range s.tasks {
		for _, m := range t.lk.held {
			if s.res[m].owner != t {
				panic(fmt.Sprintf("invariant: task %s lists mutex %q it does not own at %s", t.name, s.mutexName(m), s.now))
			}
		}
		if t.state == stateDead && len(t.lk.held) > 0 && !s.done {
			panic(fmt.Sprintf("invariant: dead task %s holds mutexes at %s", t.name, s.now))
		}
		want := t.normalPrio()
		if s.cfg.PI {
			want, _ = s.piTarget(t)
		}
		if t.state != stateDead && t.effPrio != want {
			panic(fmt.Sprintf("invariant: task %s runs at prio %d, want %d at %s", t.name, t.effPrio, want, s.now))
		}
	}
}

func holds(t *Task, m int) bool {
	for _, x := range t.lk.held {
		if x == m {
			return true
		}
	}
	return false
}
