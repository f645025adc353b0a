package sched

// Program execution: what a task does when it has the CPU. Steps that take
// no time (loop bookkeeping, fork, yield, exit, arming a timer) run at the
// current instant; the first step that takes time ends the call.
//
// Mirrors rt-app's run_event() for run, sleep and timer (src/rt-app.c), the
// kernel's hrtimer_nanosleep() timer slack (a SCHED_OTHER sleeper's timer
// may expire up to timer_slack_ns late; the kernel expires it early when
// another hrtimer interrupt, such as the tick, lands in the slack window),
// and kernel_clone() for fork.

import "fmt"

type stepResult uint8

const (
	stepRun stepResult = iota
	stepSleep
	stepTimer
	stepYield
	stepExit
)

// maxInstantSteps bounds the program steps a task may execute at one
// instant (finite loops without a run, sleep or timer could otherwise keep
// the engine at one point in time for very long).
const maxInstantSteps = 1 << 20

// advance executes t's program from its pc until a step that takes time.
func (s *Sim) advance(rq *rq, t *Task) stepResult {
	ops := t.prog.ops
	for n := 0; ; n++ {
		if n > maxInstantSteps {
			s.fail(fmt.Errorf("task %s executed %d program steps at %s without using time; give its loops a run, sleep or timer", t.name, n, s.now))
			return stepExit
		}
		if t.pc >= len(ops) {
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
			return stepRun
		case OpSleep:
			s.sleepUntil(t, s.now+op.Dur)
			return stepSleep
		case OpTimer:
			ts := &t.timers[op.Timer]
			if !ts.init {
				ts.init = true
				ts.next = s.now
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
		}
	}
}

// sleepUntil arms t's wakeup for target plus its timer slack, or at the
// CPU's next tick if that falls inside the slack window.
func (s *Sim) sleepUntil(t *Task, target Time) {
	at := target + t.slack
	if rq := &s.rqs[t.cpu]; rq.tickArmed && t.slack > 0 {
		if tk := s.nextTick(); tk >= target && tk < at {
			at = tk
		}
	}
	t.wakeGen++
	s.q.push(qevent{at: at, kind: qWake, task: t.id, gen: t.wakeGen, prio: prioTimer})
}
