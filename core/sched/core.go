package sched

// The core scheduler paths of kernel/sched/core.c: __schedule(),
// try_to_wake_up(), wake_up_new_task(), resched_curr(), sched_tick(), the
// exit path of do_exit(), and sched_yield().
//
// Every simulated task runs in user mode, so a reschedule request takes
// effect on the next return to user mode: at once on the local CPU (the
// tick, a timer interrupt, or a syscall of the running task), and on a
// remote CPU when the reschedule IPI arrives (an engine event at the same
// instant, so it is ordered after what the sender does next). Under
// kernel.preempt=lazy a remote lazy request (resched_curr_lazy()) sends no
// IPI and is honoured at that CPU's next tick, as sched_tick() upgrades
// TIF_NEED_RESCHED_LAZY. Kernel-mode execution time is charged as sys time
// (hw.go) and the newidle balance walk as an interrupts-off span
// (irqoff.go); other preemption points inside the kernel are not modelled
// yet, which is where the preemption models would differ.
//
// CPU selection is select_task_rq_fair() (select.go, idlest.go); moves
// between CPUs are in migrate.go; the tick triggers load balancing
// (balance.go, newidle.go).

// reschedCurr mirrors resched_curr() (lazy=false) and resched_curr_lazy().
func (s *Sim) reschedCurr(rq *rq, reason Reason, by TaskID, lazy bool) {
	if rq.needResched {
		return
	}
	local := rq.cpu == s.localCPU || s.localCPU == anyCPU
	if lazy && s.preempt == PreemptLazy && rq.curr != nil && !local {
		if !rq.needReschedLazy {
			rq.needReschedLazy = true
			rq.reschedReason, rq.reschedBy = reason, by
			// Arg 1 marks a lazy request (TIF_NEED_RESCHED_LAZY, no IPI).
			s.emit(Event{Kind: EvResched, CPU: rq.cpu, Prev: taskID(rq.curr), Next: by, Reason: reason, Arg: 1})
		}
		return
	}
	rq.needResched = true
	rq.reschedReason, rq.reschedBy = reason, by
	if rq.pollAlone {
		s.pollAloneEnded(rq) // curr's next read honours the request (clock_poll.go)
	}
	if s.observed() {
		s.emit(Event{Kind: EvResched, CPU: rq.cpu, Prev: taskID(rq.curr), Next: by, Reason: reason})
	}
	if !local && !rq.ipiPending {
		rq.ipiPending = true
		s.sendResched(rq) // ipi.go: polling flag or IPI
	}
}

// anyCPU as localCPU means the current event is not tied to one CPU (a
// scenario task created by the launcher): requests take effect at once.
const anyCPU CPUID = -2

func taskID(t *Task) TaskID {
	if t == nil {
		return NoTask
	}
	return t.id
}

// schedule mirrors __schedule(). why is the reason prev stops running when
// it blocks, yields or exits; ReasonNone means preemption, whose reason was
// recorded by reschedCurr.
func (s *Sim) schedule(rq *rq, why Reason) {
	prev := rq.curr
	s.stopRun(rq)
	reason, by := why, NoTask
	state := byte('R')
	if why == ReasonNone {
		reason, by = rq.reschedReason, rq.reschedBy
	}
	if prev != nil {
		s.updateRqClock(rq) // put_prev_task() with prev->on_rq, or deactivate_task()
		switch why {
		case ReasonSleep, ReasonTimer, ReasonWait, ReasonLock:
			prev.state = stateBlocked
			state = 'S'
			if prev.isDL() {
				s.dequeueDL(rq, prev)
			} else if prev.isRT() {
				s.dequeueRT(rq, prev)
			} else {
				s.dequeueTask(rq, prev, deqSleep)
			}
		case ReasonExit:
			prev.state = stateDead
			state = 'X'
			if prev.isDL() {
				s.dequeueDL(rq, prev)
				s.dlRelease(prev) // task_dead_dl()
				break
			}
			s.dlExitPending(prev) // setattr_class.go
			if prev.isRT() {
				s.dequeueRT(rq, prev)
				break
			}
			// A dying task is never delay-dequeued: task_dead_fair()
			// finishes the dequeue right after the switch.
			s.dequeueTask(rq, prev, deqSleep|deqSpecial)
			s.removeEntityLoadAvg(rq, prev) // task_dead_fair()
		}
	}
	next, rule := s.pickNextTask(rq, prev)
	if next == nil && s.newidleBalance(rq) > 0 {
		// pick_next_task_fair() -> sched_balance_newidle() pulled a
		// task: pick again (prev was already put).
		next, rule = s.pickNextFair(rq, nil)
	}
	if next == nil && prev != nil {
		s.updateIdleRqClockPelt(rq) // pick_next_task_fair(), about to idle
	}
	s.switchTo(rq, prev, next, rule, reason, by, state)
	if next != nil && next.isDL() {
		s.pushDLTasks(rq) // set_next_task_dl() -> deadline_queue_push_tasks()
	}
	if next != nil && next.isRT() {
		// set_next_task_rt() -> rt_queue_push_tasks(): the balance
		// callback runs push_rt_tasks() once the switch is done.
		s.pushRTTasks(rq)
	}
}

// switchTo finishes __schedule() once next is picked: clear the resched
// request and switch (context_switch()).
func (s *Sim) switchTo(rq *rq, prev, next *Task, rule PickRule, reason Reason, by TaskID, state byte) {
	rq.needResched, rq.needReschedLazy = false, false
	rq.reschedReason, rq.reschedBy = ReasonNone, NoTask
	if next == prev {
		if next != nil {
			s.chargeKernel(rq, next, s.hw.PickNs) // __schedule() picked prev again
		}
		return
	}
	if prev == nil {
		state = 0
		if s.hw.IdleStates == nil {
			s.emit(Event{Kind: EvIdleExit, CPU: rq.cpu, Arg: -1})
		}
	}
	if s.observed() {
		s.emit(Event{Kind: EvSwitch, CPU: rq.cpu, Prev: taskID(prev), Next: taskID(next),
			Reason: reason, Pick: rule, PrevState: state, Arg: int64(by)})
	}
	rq.curr = next
	if (prev == nil) != (next == nil) {
		s.contentionChanged(rq.cpu) // contention.go: siblings' speeds change
	}
	if next == nil {
		s.noteMayIdle(rq) // idle_hint.go
		rq.idleSince = s.now
		rq.idleStamp = s.now
		s.updateIdleCore(rq.cpu)                                       // pick_next_task_idle() -> __update_idle_core()
		s.idleStart(rq, s.hw.PickNs+s.hw.CtxSwitchNs+s.takeLBSpan(rq)) // do_idle() (idle.go)
		return
	}
	rq.kernUntil = s.now
	cost := s.hw.CtxSwitchNs + s.takeLBSpan(rq) // newidle balance time (irqoff.go)
	if prev != nil {
		cost += s.hw.PickNs // the pick happened in prev's __schedule(); charged with the switch
	}
	rq.idle.phase = idleRun
	s.chargeKernel(rq, next, cost)
	s.armTick(rq)
}

// kick lets the CPU's current task make progress: it runs the task's
// zero-time program steps until the task is in a run step (whose completion
// is then scheduled) or the CPU is idle.
func (s *Sim) kick(rq *rq) {
	for !s.done {
		if rq.needResched && rq.curr == nil && rq.idle.phase != idleRun {
			if !s.idleWake(rq) { // idle.go: exit latency and the schedule_idle() path
				return
			}
			continue
		}
		if rq.needResched {
			s.schedule(rq, ReasonNone)
			continue
		}
		t := rq.curr
		if t == nil {
			return
		}
		if t.runLeft != 0 {
			s.armRun(rq)
			return
		}
		if t.throttleWork && s.throttleTaskWork(rq, t) { // v6.18: back to user mode (cgroup_throttle_task.go)
			s.schedule(rq, ReasonCgroupThrottled)
			continue
		}
		switch s.advance(rq, t) {
		case stepSleep:
			s.schedule(rq, ReasonSleep)
		case stepTimer:
			s.schedule(rq, ReasonTimer)
		case stepWait:
			s.schedule(rq, ReasonWait)
		case stepLock:
			s.schedule(rq, ReasonLock)
		case stepYield:
			if t.isDL() {
				s.yieldDL(rq)
			} else if t.isRT() {
				s.yieldRT(rq)
			} else {
				s.yieldTask(rq)
			}
			s.schedule(rq, ReasonYield)
		case stepMigrate:
			s.migrationStop(rq, t, ReasonAffinity, ReasonAffinity) // affinity.go
		case stepExec:
			s.migrationStop(rq, t, ReasonFindIdlest, ReasonExec) // sched_exec.go
		case stepExit:
			s.exitHoldingLocks(t) // locks.go
			s.emit(Event{Kind: EvExit, CPU: rq.cpu, Prev: t.id})
			s.schedule(rq, ReasonExit)
		}
	}
}

// armRun schedules the completion of curr's run step.
func (s *Sim) armRun(rq *rq) {
	rq.runGen++
	rq.segStart = max(s.now, rq.kernUntil) // kernel (sys) time first
	t := rq.curr
	if t.clockPoll > 0 {
		rq.pollFrom = rq.segStart
		s.armPoll(rq, rq.segStart+t.clockPoll-t.pollDone) // clock_poll.go
	}
	if t.runLeft == Forever {
		if t.kmode == kmodeSpin {
			// csd_lock_wait(): sys time until released (an open window).
			s.emit(Event{Kind: EvKernel, CPU: rq.cpu, Prev: t.id, Next: NoTask, Arg: -1})
		}
		return
	}
	// runLeft is work in ns at capacity 1024; the CPU does speed/1024 of
	// that per ns (contention.go). Round the completion up so the work is
	// really done.
	rq.speed = s.effSpeed(rq)
	d := (int64(t.runLeft)*1024 + rq.speed - 1) / rq.speed
	if t.kmode == kmodeSys {
		// Kernel work (OpSys, csd.go): its segment is sys time.
		s.emit(Event{Kind: EvKernel, CPU: rq.cpu, Prev: t.id, Next: NoTask, Arg: d}) // after the switch's window
	}
	s.q.push(qevent{at: rq.segStart + Time(d), kind: qRunDone, cpu: rq.cpu, gen: rq.runGen, prio: prioTimer})
}

// stopRun accounts the work curr did in its current run segment and
// cancels the pending completion.
func (s *Sim) stopRun(rq *rq) {
	rq.runGen++
	t := rq.curr
	if t != nil && t.clockPoll > 0 {
		rq.pollGen++
		rq.pollAlone = false
		s.pollStop(rq, t) // clock_poll.go
	}
	if t == nil || t.runLeft <= 0 {
		return
	}
	done := max(0, int64(s.now-rq.segStart)) * rq.speed / 1024
	t.runLeft = max(0, t.runLeft-Time(done))
	rq.segStart = max(s.now, rq.segStart)
}

// armTick starts the CPU's periodic tick if it is stopped. Ticks sit on the
// global jiffies grid (no tick skew), strictly after now.
func (s *Sim) armTick(rq *rq) {
	if rq.tickArmed {
		return
	}
	rq.tickArmed = true
	s.q.push(qevent{at: s.nextTick(), kind: qTick, cpu: rq.cpu, gen: rq.tickGen, prio: prioTick})
}

// nextTick is the first jiffy strictly after now. The grid is offset from
// the run's start by Config.TickOffset: a workload does not start on a
// jiffy boundary on a real machine.
func (s *Sim) nextTick() Time {
	k := (s.now - s.tickOffset) / s.tickNs
	if s.now < s.tickOffset {
		k = -1 // floor division for the first partial jiffy
	}
	return s.tickOffset + (k+1)*s.tickNs
}

// tick mirrors sched_tick(): update the running task's accounting and let the
// class decide on preemption. A CPU that is idle when its tick fires stops
// the tick (NO_HZ_IDLE) until it runs a task again.
func (s *Sim) tick(rq *rq) {
	rq.tickArmed = false
	s.updateRqClock(rq) // sched_tick()
	if rq.curr == nil {
		s.idleTick(rq) // tick_nohz.go
		return
	}
	s.emit(Event{Kind: EvTick, CPU: rq.cpu, Prev: rq.curr.id})
	// sched_tick() promotes a pending lazy request before task_tick().
	if rq.needReschedLazy && !rq.needResched {
		rq.needResched = true
		s.emit(Event{Kind: EvResched, CPU: rq.cpu, Prev: rq.curr.id, Next: rq.reschedBy, Reason: rq.reschedReason})
	}
	s.taskTick(rq)
	s.armTick(rq)
	s.triggerLoadBalance(rq, false) // rq->idle_balance = idle_cpu(): curr runs
	if rq.needResched {
		s.kick(rq)
	}
}

// tryToWakeUp mirrors try_to_wake_up() for a task blocked in sleep or a
// timer. The timer interrupt runs on the CPU the sleeper's hrtimer was armed
// on, with no waker task (record_wakee() and sync do not apply); the CPU is
// chosen by select_task_rq_fair() (select.go) and a move to another CPU
// goes through migrate_task_rq_fair()/set_task_cpu() (migrate.go).
func (s *Sim) tryToWakeUp(t *Task, reason Reason) {
	s.ttwu(t, reason, nil, 0)
}

// ttwu is try_to_wake_up(t, wakeFlags) on CPU s.localCPU, by the task
// waker running there (nil in interrupt context). A wakeup in interrupt
// context acts on a resched of the local CPU at once (the interrupt
// returns to user mode); a task waker's CPU is left to the caller, which
// is in the middle of the waker's program (ipc.go, exec.go).
func (s *Sim) ttwu(t *Task, reason Reason, waker *Task, wakeFlags int) {
	if t.state != stateBlocked {
		return
	}
	t.state = stateRunnable
	s.emitWaking(t, reason, waker) // wake_event.go
	if t.se.onRq {
		// ttwu_runnable(): still queued as delayed; requeue in place.
		rq := &s.rqs[t.cpu]
		s.enqueueTask(rq, t, enqDelayed)
		s.emitWakeup(rq.cpu, t, reason, waker, false) // wake_event.go
		if rq.curr != t {
			s.checkPreemptCurr(rq, t, wakeFlags)
		}
		if waker == nil && rq.needResched && rq.cpu == s.localCPU && !s.inTimerIRQ(rq) {
			s.kick(rq)
		}
		return
	}
	this := s.localCPU
	if this < 0 {
		this = t.cpu
	}
	if t.isDL() {
		s.tryToWakeUpDL(t, reason, this, waker)
		return
	}
	if t.isRT() {
		s.tryToWakeUpRT(t, reason, this, waker)
		return
	}
	cpu, why := s.selectTaskRq(t, t.cpu, sdFlagWake, wakeFlags&wfSync != 0, this, waker)
	flags := enqWakeup
	if cpu != t.cpu {
		s.migrateWaking(t, cpu, why)
		flags |= enqMigrated
	}
	rq := &s.rqs[cpu]
	if s.ttwuQueueWakelist(this, cpu) { // ipi.go
		// The target enqueues it in sched_ttwu_pending() (wakelist.go).
		s.queueWakelist(rq, t, flags, reason, waker)
		return
	}
	s.updateAvgIdle(rq)
	s.enqueueTask(rq, t, flags)
	if s.observed() {
		s.emitWakeup(rq.cpu, t, reason, waker, false)
	}
	s.checkPreemptCurr(rq, t, wakeFlags)
	if waker == nil && rq.needResched && rq.cpu == s.localCPU && !s.inTimerIRQ(rq) {
		s.kick(rq)
	}
}

// placeNewTask is the part of wake_up_new_task() every class shares once
// the CPU is chosen: __set_task_cpu(), TASK_RUNNING, and for a fork the
// fork event. It returns cpu's runqueue and the wakeup's reason.
func (s *Sim) placeNewTask(t, parent *Task, cpu CPUID) (*rq, Reason) {
	t.cpu = cpu
	s.setTaskRq(t)
	t.state = stateRunnable
	t.firstRun = s.now
	if parent == nil {
		return &s.rqs[cpu], ReasonStart
	}
	s.emit(Event{Kind: EvFork, CPU: parent.cpu, Prev: parent.id, Next: t.id})
	return &s.rqs[cpu], ReasonForked
}

// wakeUpNewTask mirrors sched_fork()/task_fork_fair() and
// wake_up_new_task(). parent is nil for tasks the scenario starts (created
// by a launcher outside the simulation).
func (s *Sim) wakeUpNewTask(t *Task, parent *Task) {
	// sched_fork(): __set_task_cpu(p, smp_processor_id()) -- the parent's
	// CPU, or for a scenario task the launcher's, taken to be the first
	// CPU of the task's affinity. wake_up_new_task(): select_task_rq(
	// SD_BALANCE_FORK) and __set_task_cpu() (no migration event).
	this := t.affinity.first(len(s.rqs))
	if parent != nil {
		this = parent.cpu
	}
	if s.rules.forkRecentUsedCPU {
		t.recentUsedCPU = this // p->recent_used_cpu = task_cpu(p)
	}
	if t.isDL() {
		s.wakeUpNewTaskDL(t, parent, this)
		return
	}
	if t.isRT() {
		s.wakeUpNewTaskRT(t, parent, this)
		return
	}
	cpu, _ := s.selectTaskRq(t, this, sdFlagFork, false, this, parent)
	rq, reason := s.placeNewTask(t, parent, cpu)
	// sched_fork() -> init_entity_runnable_average(); wake_up_new_task() ->
	// post_init_entity_util_avg() once the CPU is chosen.
	s.initEntityRunnableAverage(t)
	s.updateRqClockPelt(rq)
	s.postInitEntityUtilAvg(rq, t)
	childFirst := false
	if s.eevdf {
		flags := enqInitial
		if !s.rules.newTaskInitial {
			flags = 0 // v6.6 wake_up_new_task() passes no ENQUEUE_INITIAL
		}
		s.enqueueTask(rq, t, flags)
	} else {
		prq := rq
		if parent != nil {
			prq = &s.rqs[parent.cpu]
		}
		childFirst = s.cfsForkPlace(prq, t, parent)
		s.enqueueTask(rq, t, 0)
	}
	s.emit(Event{Kind: EvWakeupNew, CPU: cpu, Next: t.id, Reason: reason, Arg: int64(taskID(parent))})
	if childFirst {
		s.reschedCurr(&s.rqs[parent.cpu], ReasonForkChildFirst, t.id, false)
	}
	s.checkPreemptCurr(rq, t, wfFork)
}
