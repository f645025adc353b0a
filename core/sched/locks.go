package sched

// Mutexes: the lock and unlock program steps on named, scenario-wide
// mutexes (rt-app's lock/unlock events: pthread_mutex_lock()/unlock() on a
// mutex that is PTHREAD_PRIO_INHERIT when rt-app's pi_enabled is set).
//
// Without Config.PI a mutex is a glibc default mutex over a futex:
// contended lock -> futex_wait(), whose hash-bucket waiters are a plist in
// priority order (futex_q_init()/__futex_queue(): prio = min(normal_prio,
// MAX_RT_PRIO), so RT waiters by priority, deadline waiters first, every
// fair waiter at one level, FIFO within a level); unlock wakes the first
// (futex_wake()). No priority changes.
//
// With Config.PI the mutex is an rt_mutex (futex_lock_pi() ->
// rt_mutex_slowlock()): waiters are ordered by rt_mutex_waiter_less()
// (effective prio, deadline waiters by absolute deadline; FIFO among
// equals; kernel/locking/rtmutex.c at torvalds/linux 02ea9fc9). Since
// "locking/rtmutex: Squash !RT tasks to DEFAULT_PRIO" (715f7f9ece46,
// v5.15) __waiter_prio() puts every fair waiter at DEFAULT_PRIO, so fair
// waiters are FIFO; before it waiter->prio was task->prio and a fair
// waiter of lower nice went first. The owner inherits its top waiter's
// priority (pi.go).
//
// Well-defined behaviour chosen where the real program would hang or be
// undefined (all end the run with an error naming the tasks and mutex):
//   - a task that locks a mutex it holds (a default mutex deadlocks on
//     itself; EDEADLK for a PI futex);
//   - a lock that closes a cycle of owners and waiters (deadlock; the
//     kernel's rt_mutex chain walk reports EDEADLK under deadlock
//     detection, a plain futex hangs);
//   - unlock of a mutex the task does not hold (EPERM for an error-checking
//     or PI mutex, undefined for a default one);
//   - a task that exits holding a mutex (its waiters would hang forever).
//
// SIMPLIFIED: unlock hands the mutex to the top waiter directly, so no
// other task can take it between the unlock and the waiter's run (the
// kernel's rt_mutex and glibc both let a running task steal a lock whose
// woken waiter has not yet run); the futex/rt_mutex syscalls cost no time
// (a scenario expresses their cost with run steps); the uncontended fast
// path is the same as the slow one.

import (
	"fmt"

	"schedplay/core/quote"
)

// lockState is a task's mutex state (task->pi_blocked_on and the mutexes
// it owns).
type lockState struct {
	held      []int // mutexes held, in locking order
	blockedOn int   // the mutex waited for, -1 = none
	relock    int   // 1 + a mutex a condition wait released, to take again when woken; 0 = none
}

// mutexName names resource m.
func (s *Sim) mutexName(m int) string { return s.cfg.Resources[m].Name }

// waiterKey orders a mutex's waiters: lower first, then deadline.
func (s *Sim) waiterKey(t *Task) (int, Time) {
	if !s.cfg.PI {
		return min(t.normalPrio(), MaxRTPrio), 0 // futex plist prio
	}
	p := t.prio()
	switch {
	case p < 0:
		return p, t.dl.deadline
	case p >= MaxRTPrio:
		if !s.rules.waiterPrioDefault {
			return p, 0 // waiter->prio = task->prio: fair waiters by nice
		}
		return 120, 0 // __waiter_prio(): DEFAULT_PRIO (715f7f9ece46, v5.15)
	}
	return p, 0
}

// waiterLess is rt_mutex_waiter_less() (or the futex plist order).
func (s *Sim) waiterLess(a, b *Task) bool {
	pa, da := s.waiterKey(a)
	pb, db := s.waiterKey(b)
	if pa != pb {
		return pa < pb
	}
	return pa < 0 && s.cfg.PI && da < db
}

// enqueueWaiter inserts t into r's waiters after every waiter not behind it.
func (s *Sim) enqueueWaiter(r *resState, t *Task) {
	i := len(r.waiters)
	for i > 0 && s.waiterLess(t, s.tasks[r.waiters[i-1]]) {
		i--
	}
	r.waiters = append(r.waiters, 0)
	copy(r.waiters[i+1:], r.waiters[i:])
	r.waiters[i] = t.id
}

// dequeueWaiter removes t from r's waiters.
func dequeueWaiter(r *resState, t *Task) {
	for i, w := range r.waiters {
		if w == t.id {
			copy(r.waiters[i:], r.waiters[i+1:])
			r.waiters = r.waiters[:len(r.waiters)-1]
			return
		}
	}
}

// lockOp executes a lock step of the running task t on mutex m. It reports
// whether t blocks.
func (s *Sim) lockOp(t *Task, m int) bool {
	r := &s.res[m]
	switch {
	case r.owner == nil:
		r.owner = t
		t.lk.held = append(t.lk.held, m)
		return false
	case r.owner == t:
		s.fail(quote.Errorf("at %s: task %s locks mutex %q, which it already holds: a default mutex deadlocks on itself (EDEADLK for a PI mutex)", s.now, quote.Clip(t.name), s.mutexName(m)))
		return false
	}
	// Deadlock detection: follow the owner chain (rt_mutex_adjust_prio_chain()
	// with RT_MUTEX_FULL_CHAINWALK finds the same cycle).
	for o, n := r.owner, 0; o != nil && n <= len(s.tasks); n++ {
		if o == t {
			s.failDeadlock(t, m)
			return false
		}
		if o.lk.blockedOn < 0 {
			break
		}
		o = s.res[o.lk.blockedOn].owner
	}
	t.wakeGen++ // no stale timer may wake it
	t.lk.blockedOn = m
	s.enqueueWaiter(r, t)
	if s.cfg.PI {
		s.adjustPrioChain(r.owner) // pi.go
	}
	return true
}

// failDeadlock ends the run with the cycle t closes by waiting for m (the
// user's names bounded, a long cycle's tail counted: quote.Join).
func (s *Sim) failDeadlock(t *Task, m int) {
	var chain []string
	for o, n := s.res[m].owner, 0; n <= len(s.tasks); n++ {
		chain = append(chain, quote.Short(s.mutexName(m))+", held by "+quote.Clip(o.name))
		if o == t || o.lk.blockedOn < 0 {
			break
		}
		m = o.lk.blockedOn
		o = s.res[m].owner
	}
	s.fail(fmt.Errorf("at %s: deadlock: task %s waits for %s", s.now, quote.Clip(t.name), quote.Join(chain, ", which waits for ")))
}

// unlockOp executes an unlock of mutex m by the running task t: hand it to
// the top waiter and wake it, deboosting t (pi.go).
func (s *Sim) unlockOp(t *Task, m int) {
	r := &s.res[m]
	if r.owner != t {
		owner := "nobody"
		if r.owner != nil {
			owner = r.owner.name
		}
		s.fail(quote.Errorf("at %s: task %s unlocks mutex %q, which is held by %s (EPERM)", s.now, quote.Clip(t.name), s.mutexName(m), quote.Clip(owner)))
		return
	}
	s.dropHeld(t, m)
	r.owner = nil
	var next *Task
	if len(r.waiters) > 0 {
		next = s.tasks[r.waiters[0]]
		dequeueWaiter(r, next)
		r.owner = next
		next.lk.blockedOn = -1
		next.lk.held = append(next.lk.held, m)
	}
	if s.cfg.PI {
		s.adjustPrio(t) // mark_wakeup_next_waiter() -> rt_mutex_adjust_prio(current)
		if next != nil {
			s.adjustPrio(next) // the new owner inherits from the remaining waiters
		}
	}
	if next != nil {
		saved := s.localCPU
		s.localCPU = t.cpu
		s.ttwu(next, ReasonUnlock, t, 0)
		s.localCPU = saved
	}
}

func (s *Sim) dropHeld(t *Task, m int) {
	h := t.lk.held
	for i, x := range h {
		if x == m {
			copy(h[i:], h[i+1:])
			t.lk.held = h[:len(h)-1]
			return
		}
	}
}

// exitHoldingLocks fails the run when t exits holding a mutex (the
// names bounded, a long list's tail counted: quote.Join).
func (s *Sim) exitHoldingLocks(t *Task) {
	if len(t.lk.held) == 0 {
		return
	}
	names := make([]string, len(t.lk.held))
	for i, m := range t.lk.held {
		names[i] = quote.Short(s.mutexName(m))
	}
	s.fail(fmt.Errorf("at %s: task %s exits holding mutex %s; its waiters would never wake: unlock before the end of the program", s.now, quote.Clip(t.name), quote.Join(names, ", ")))
}
