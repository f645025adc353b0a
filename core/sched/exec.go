package sched

// Program execution: what a task does when it has the CPU. Steps that take
// no time (loop bookkeeping, fork, yield, exit, arming a timer) run at the
// current instant; the first step that takes time ends the call.
//
// Mirrors rt-app's run_event() for run, sleep and timer (src/rt-app.c), the
// kernel's hrtimer_nanosleep() timer slack (a SCHED_OTHER sleeper's timer
// may expire up to timer_slack_ns late; the kernel expires it early when
// another hrtimer interrupt, such as the tick, lands in the slack window),
// kernel_clone() for fork, and bprm_execve() -> sched_exec() for exec.

import (
	"fmt"

	"schedplay/core/quote"
)

type stepResult uint8

const (
	stepRun stepResult = iota
	stepSleep
	stepTimer
	stepYield
	stepExit
	stepWait
	stepLock
	stepMigrate // sched_setaffinity() excluded the CPU: the stopper moves the task (affinity.go)
	stepExec    // sched_exec() chose another CPU: the stopper moves the task (sched_exec.go)
)

// maxInstantSteps bounds the program steps a task may execute at one
// instant, across calls (finite loops of yields or forks without a run,
// sleep or timer could otherwise keep the engine at one point in time for
// very long).
const maxInstantSteps = 1 << 20

// advance executes t's program from its pc until a step that takes time.
func (s *Sim) advance(rq *rq, t *Task) stepResult {
	ops := t.prog.ops
	t.kmode = kmodeUser
	if t.stepsAt != s.now {
		t.stepsAt, t.steps = s.now, 0
	}
	if m := t.lk.relock; m > 0 {
		// Back from a pthread_cond_wait() that released mutex m-1: take
		// it again before the next step.
		t.lk.relock = 0
		if s.lockOp(t, m-1) {
			return stepLock
		}
	}
	for {
		if t.pc >= len(ops) {
			return stepExit
		}
		t.steps++
		if t.steps > maxInstantSteps {
			s.fail(fmt.Errorf("task %s executed %d program steps at %s without using time; give its loops a run, sleep or timer", quote.Clip(t.name), t.steps-1, s.now))
			return stepExit
		}
		op := &ops[t.pc]
		t.pc++
		switch op.Kind {
		case OpLoopBegin:
			t.iters[t.pc-1] = int32(op.Count)
		case OpLoopEnd:
			begin := op.Match
			if n := t.iters[begin]; n == -1 || n > 1 {
				if n > 1 {
					t.iters[begin] = n - 1
				}
				t.pc = begin + 1
			}
		case OpRun:
			if op.Dur == 0 {
				continue
			}
			t.runLeft = op.Dur
			t.pollDone = t.clockPoll // the run's first clock read is at its start (clock_poll.go)
			return stepRun
		case OpSys:
			if op.Dur == 0 {
				continue
			}
			t.runLeft, t.kmode = op.Dur, kmodeSys
			return stepRun
		case OpIPI:
			if s.csdSend(t, op.CPU) { // csd.go
				return stepRun
			}
		case OpSleep:
			s.sleepUntil(t, s.now+op.Dur)
			return stepSleep
		case OpTimer:
			ts := &t.timers[op.Timer]
			if !ts.init {
				// rt-app anchors every timer at t_first: the
				// common start of all threads (t_zero) plus the
				// thread's delay, i.e. the task's creation time.
				ts.init = true
				ts.next = t.firstRun
			}
			ts.next += op.Dur
			if s.now < ts.next {
				s.sleepUntil(t, ts.next)
				return stepTimer
			}
			if op.Mode == TimerRelative {
				ts.next = s.now
			}
		case OpYield:
			return stepYield
		case OpFork:
			if err := s.forkTask(t, op.Target); err != nil {
				s.fail(err)
				return stepExit
			}
			if rq.needResched {
				return stepRun // runLeft is 0: kick() reschedules, then resumes here
			}
		case OpExit:
			return stepExit
		case OpAffinity:
			if t.policy.IsDeadline() && t.prog.masks[t.pc-1] != nil && t.prog.masks[t.pc-1].weight() < len(s.rqs) {
				// dl_task_check_affinity(): a task made SCHED_DEADLINE by a setattr step.
				s.fail(fmt.Errorf("task %s: sched_setaffinity() at %s fails with EBUSY: a SCHED_DEADLINE task's mask must span the root domain", quote.Clip(t.name), s.now))
				return stepExit
			}
			if s.setAffinity(rq, t, t.prog.masks[t.pc-1]) { // affinity.go
				return stepMigrate
			}
		case OpExec:
			if s.schedExec(rq, t) { // sched_exec.go
				return stepExec
			}
		case OpCgroup:
			s.moveTaskGroup(rq, t, op.Target) // cgroup_move.go
			// cpuset_attach(): the new cgroup's CPUs (cpuset.go).
			if s.cpusetEff != nil {
				m := s.cpusetMask(t, op.Target)
				if m.weight() == 0 {
					s.fail(fmt.Errorf("task %s: moved to cgroup %d at %s, whose cpuset has no CPU", quote.Clip(t.name), op.Target, s.now))
					return stepExit
				}
				if s.setAffinityReq(rq, t, m, true) { // affinity.go; not a user request
					return stepMigrate
				}
			}
			if rq.needResched {
				return stepRun
			}
		case OpSetattr, OpNice:
			if !s.setattrOp(t, op) { // setattr.go
				return stepExit
			}
			if rq.needResched {
				return stepRun
			}
		case OpLock, OpUnlock:
			if op.Kind == OpUnlock {
				s.unlockOp(t, op.Res)
			} else if s.lockOp(t, op.Res) { // locks.go
				return stepLock
			}
			if rq.needResched || s.done {
				return stepRun
			}
		case OpWait, OpSignal, OpBroadcast, OpBarrier:
			if s.ipcOp(t, op) { // ipc.go
				return stepWait
			}
			if rq.needResched {
				return stepRun // as for fork: kick() reschedules, then resumes here
			}
		}
	}
}

// sleepUntil arms t's hrtimer on its CPU for [target, target+slack]
// (hrtimer_set_expires_range_ns()). The interrupt is programmed for the hard
// expiry and arrives hw.timer_irq_latency_ns after it (timerIRQAt); any
// earlier hrtimer interrupt on that CPU (the tick, another sleeper's
// expiry) at or after target expires it (expireTimers).
func (s *Sim) sleepUntil(t *Task, target Time) {
	t.wakeGen++
	rq := &s.rqs[t.cpu]
	slack := t.slack
	if t.isRT() || t.isDL() {
		// hrtimer_nanosleep(): RT (and DL) tasks sleep with no slack.
		slack = 0
	}
	hard := target + slack
	rq.timers = append(rq.timers, armedTimer{task: t.id, soft: target, hard: hard, gen: t.wakeGen})
	s.q.push(qevent{at: s.timerIRQAt(hard), kind: qWake, cpu: rq.cpu, task: t.id, gen: t.wakeGen, prio: prioTimer})
}

// armedTimer is a sleeper's hrtimer queued on a CPU.
type armedTimer struct {
	task       TaskID
	soft, hard Time
	gen        uint32
}

// expireTimers mirrors __hrtimer_run_queues() for the sleepers of one CPU:
// every timer whose soft expiry has passed fires, in order of hard expiry
// (then arming order).
func (s *Sim) expireTimers(rq *rq) {
	n := 0
	for _, tm := range rq.timers {
		if tm.soft <= s.now {
			n++
		}
	}
	if n == 0 {
		return
	}
	due := s.dueScratch[:0]
	keep := rq.timers[:0]
	for _, tm := range rq.timers {
		if tm.soft <= s.now {
			due = append(due, tm)
		} else {
			keep = append(keep, tm)
		}
	}
	rq.timers = keep
	// Insertion sort by hard expiry; stable, so arming order breaks ties.
	for i := 1; i < len(due); i++ {
		for j := i; j > 0 && due[j].hard < due[j-1].hard; j-- {
			due[j], due[j-1] = due[j-1], due[j]
		}
	}
	s.dueScratch = due
	for _, tm := range due {
		t := s.tasks[tm.task]
		if tm.gen != t.wakeGen || t.state != stateBlocked {
			continue
		}
		reason := ReasonSleepDone
		if t.prog.ops[t.pc-1].Kind == OpTimer {
			reason = ReasonTimerFire
		}
		// hrtimer_expire_entry: the expiry the sleeper asked for, so that
		// a consumer can measure the whole lateness (cyclictest's latency),
		// including an interrupt held off by an irqs-off span (irqoff.go).
		if s.observed() {
			s.emit(Event{Kind: EvTimerExpire, CPU: rq.cpu, Prev: NoTask, Next: t.id, Arg: int64(tm.hard)})
		}
		s.tryToWakeUp(t, reason)
	}
}
