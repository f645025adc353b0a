package sched

// Inter-task wakeups: event resources that one task waits on and another
// signals, and rt-app barriers. The waker is the running task, so its
// wakeup is a real try_to_wake_up() from its CPU: this_cpu is the waker's
// CPU, record_wakee() and wake_wide() see the waker, and a signal marked
// sync passes WF_SYNC, as pipe_write() does through
// wake_up_interruptible_sync_poll() (kernel/sched/wait.c __wake_up_sync_key()
// -> WF_SYNC), so wake_affine() treats the waker as about to sleep.
//
// Semantics (rt-app src/rt-app.c run_event(), read at the current master):
//   - wait: block until a signal or broadcast wakes the task. A resource
//     may hold one pending signal (a flag, as a condition variable guarded
//     by a predicate, or a byte left in a pipe): a wait that finds it
//     consumes it and does not block. rt-app's own "wait" is a bare
//     pthread_cond_wait() that always blocks; the importer pairs it with
//     signals marked Cond, which never leave a pending signal.
//   - signal: wake the first waiter (FIFO: the kernel's futex and pipe wait
//     queues are FIFO for equal-priority waiters; glibc condvars are not
//     strictly so, SIMPLIFIED), or leave the pending signal. With Cond
//     (pthread_cond_signal() with nobody waiting) the signal is lost.
//   - broadcast: wake every waiter, in FIFO order; it leaves nothing
//     pending (pthread_cond_broadcast(); rt-app's resume is one).
//   - barrier: rt-app's barrier with N participants (the task instances
//     whose program uses it): the first N-1 to arrive block, the last one
//     broadcasts and continues. It is reusable at once (rt-app's counter
//     is restored as each waiter leaves; here each arrival round is
//     counted separately, which is the same for well-formed programs).
//
// A resource can instead be a counting semaphore (ipc_sem.go: pipes and
// sockets holding messages, reaped child exits), which counts the signals
// nobody waited for.
//
// Abstracted: the futex hash-bucket and pipe locks, the mutex rt-app wraps
// around wait/signal (its lock and unlock events are not modelled), the
// wake_q deferral of futex wakeups (the wakee is woken at the signal's
// instant), and the syscall cost, which a scenario expresses as run steps.

import "schedplay/core/quote"

// Resource declares one named, scenario-wide wait resource.
type Resource struct {
	Name string
	// Barrier is the number of participants of an rt-app barrier; 0 for an
	// event (wait/signal/broadcast) resource.
	Barrier int
	// Mutex marks a mutex of lock/unlock steps (locks.go).
	Mutex bool
	// Semaphore makes an event resource count its pending signals
	// (ipc_sem.go), starting from Initial.
	Semaphore bool
	Initial   int
}

// resState is a resource at run time.
type resState struct {
	waiters []TaskID // FIFO; capacity preallocated (no allocation per wait)
	pending bool     // an event's pending signal
	count   int      // a semaphore's count (ipc_sem.go)
	arrived int      // barrier: participants blocked in this round
	owner   *Task    // mutex: the holder (locks.go)
}

// initResources checks the programs' resource references and preallocates
// the wait lists for every task the scenario starts.
func (s *Sim) initResources() error {
	ntasks := 0
	for _, spec := range s.cfg.Tasks {
		ntasks += spec.Instances
	}
	s.res = make([]resState, len(s.cfg.Resources))
	for i, r := range s.cfg.Resources {
		if r.Barrier < 0 {
			return quote.Errorf("resources[%d] (%s): barrier participants %d, want >= 0", i, quote.Clip(r.Name), r.Barrier)
		}
		if r.Semaphore && (r.Barrier > 0 || r.Initial < 0) {
			return quote.Errorf("resources[%d] (%s): a semaphore needs an initial count >= 0 and cannot be a barrier", i, quote.Clip(r.Name))
		}
		s.res[i].waiters = make([]TaskID, 0, ntasks)
		s.res[i].count = r.Initial
	}
	for gi, spec := range s.cfg.Tasks {
		for j, op := range spec.Program {
			switch op.Kind {
			case OpWait, OpSignal, OpBroadcast, OpBarrier, OpLock, OpUnlock:
			default:
				continue
			}
			if op.Res < 0 || op.Res >= len(s.res) {
				return quote.Errorf("tasks[%d] (%s): step %d names resource %d of %d", gi, quote.Clip(spec.Name), j, op.Res, len(s.res))
			}
			isMutex := s.cfg.Resources[op.Res].Mutex
			if (op.Kind == OpLock || op.Kind == OpUnlock) != isMutex {
				return quote.Errorf("tasks[%d] (%s): step %d uses resource %q both as a mutex and otherwise", gi, quote.Clip(spec.Name), j, s.cfg.Resources[op.Res].Name)
			}
			if isMutex {
				continue
			}
			if op.Mutex > 0 && (op.Kind != OpWait || op.Mutex > len(s.res) || !s.cfg.Resources[op.Mutex-1].Mutex) {
				return quote.Errorf("tasks[%d] (%s): step %d: only a wait releases a mutex, and it must name one", gi, quote.Clip(spec.Name), j)
			}
			isBarrier := s.cfg.Resources[op.Res].Barrier > 0
			if (op.Kind == OpBarrier) != isBarrier {
				return quote.Errorf("tasks[%d] (%s): step %d uses resource %q both as a barrier and as an event", gi, quote.Clip(spec.Name), j, s.cfg.Resources[op.Res].Name)
			}
		}
	}
	return nil
}

// waitOn blocks t on resource r (the caller schedules it out).
func (s *Sim) waitOn(r *resState, t *Task) {
	t.wakeGen++ // no stale timer may wake it
	r.waiters = append(r.waiters, t.id)
}

// ipcOp executes a wait, signal, broadcast or barrier step of the running
// task t. It reports whether t blocks.
func (s *Sim) ipcOp(t *Task, op *Op) bool {
	r := &s.res[op.Res]
	flags := 0
	if op.Sync {
		flags = wfSync
	}
	switch op.Kind {
	case OpWait:
		if s.cfg.Resources[op.Res].Semaphore {
			if semWait(r) {
				return false
			}
			s.waitOn(r, t)
			return true
		}
		if r.pending {
			r.pending = false
			return false
		}
		if op.Mutex > 0 {
			s.unlockOp(t, op.Mutex-1) // pthread_cond_wait() releases the mutex
			t.lk.relock = op.Mutex    // and takes it again once woken (exec.go)
		}
		s.waitOn(r, t)
		return true
	case OpSignal:
		if len(r.waiters) == 0 {
			switch {
			case op.Cond: // lost
			case s.cfg.Resources[op.Res].Semaphore:
				semPost(r)
			default:
				r.pending = true
			}
			return false
		}
		w := r.waiters[0]
		copy(r.waiters, r.waiters[1:])
		r.waiters = r.waiters[:len(r.waiters)-1]
		s.wakeByTask(t, s.tasks[w], flags)
	case OpBroadcast:
		s.wakeAll(r, t, flags)
	case OpBarrier:
		n := s.cfg.Resources[op.Res].Barrier
		if r.arrived+1 < n {
			r.arrived++
			s.waitOn(r, t)
			return true
		}
		r.arrived = 0
		s.wakeAll(r, t, 0)
	}
	return false
}

// wakeAll wakes every waiter of r in FIFO order. No wakee can wait again
// during the loop: a wakeup by a task never runs the wakee's program.
func (s *Sim) wakeAll(r *resState, waker *Task, flags int) {
	for _, w := range r.waiters {
		s.wakeByTask(waker, s.tasks[w], flags)
	}
	r.waiters = r.waiters[:0]
}

// wakeByTask is try_to_wake_up() of t by the running task waker on its
// CPU, with wake flags (WF_SYNC). The waker's CPU is this_cpu; a resched
// of it is left for kick() to act on once the waker's step returns.
func (s *Sim) wakeByTask(waker, t *Task, flags int) {
	saved := s.localCPU
	s.localCPU = waker.cpu
	s.ttwu(t, ReasonSignal, waker, flags)
	s.localCPU = saved
}
