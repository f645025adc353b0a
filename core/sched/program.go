package sched

// Task behaviour programs: the compiled form of a scenario's event list,
// with rt-app's semantics for run, sleep and timer (rt-app src/rt-app.c
// run_event()).

import "fmt"

// OpKind is the kind of one program step.
type OpKind uint8

// Program steps.
const (
	OpRun       OpKind = iota // consume Dur of work (Forever = never ends)
	OpSleep                   // block for Dur
	OpTimer                   // rt-app timer: sleep until the next period point
	OpYield                   // sched_yield()
	OpFork                    // create one instance of task group Target
	OpExit                    // exit now
	OpLoopBegin               // begin a loop of Count iterations (-1 = forever) ending at End
	OpLoopEnd                 // end of the loop beginning at Begin
	OpWait                    // block on event resource Res until signalled (a pending signal is consumed instead)
	OpSignal                  // wake the first waiter of Res, or leave a pending signal (unless Cond)
	OpBroadcast               // wake every waiter of Res
	OpBarrier                 // rt-app barrier Res: wait until all its participants arrive
	OpSys                     // consume Dur of kernel work (a syscall's body): like OpRun, counted as sys time
	OpIPI                     // smp_call_function_single(CPU, func, wait=1): spin until CPU ran it (csd.go)
	OpLock                    // lock mutex Res, blocking while another task holds it (locks.go)
	OpUnlock                  // unlock mutex Res, handing it to its top waiter (locks.go)
	OpAffinity                // sched_setaffinity(0, CPUs) by the task itself (affinity.go)
	OpExec                    // execve(): sched_exec() may move the task to the idlest CPU (sched_exec.go)
	OpCgroup                  // move the task itself to cgroup Target (sched_move_task(); cgroup_move.go)
	OpSetattr                 // sched_setattr()/sched_setscheduler() with Attr (setattr.go)
	OpNice                    // setpriority()/nice(): set_user_nice() to Attr.Nice (setattr.go)
)

// Forever is the run duration of a task that never stops running.
const Forever Time = -1

// TimerMode is rt-app's timer mode.
type TimerMode uint8

// Timer modes.
const (
	TimerAbsolute TimerMode = iota // keep the original grid after an overrun
	TimerRelative                  // re-anchor the grid to now after an overrun
)

// Op is one program step.
type Op struct {
	Kind   OpKind
	Dur    Time      // run amount, sleep length, timer period
	Mode   TimerMode // OpTimer
	Timer  int       // OpTimer: index of the task's timer resource
	Target int       // OpFork: task group index; OpCgroup: cgroup number (0 = root)
	Count  int       // OpLoopBegin: iterations, -1 = forever
	Match  int       // OpLoopBegin: index of its OpLoopEnd; OpLoopEnd: of its OpLoopBegin
	Res    int       // OpWait, OpSignal, OpBroadcast, OpBarrier: index in Config.Resources
	Sync   bool      // OpSignal, OpBroadcast: the wakeup passes WF_SYNC (the waker is about to block)
	Cond   bool      // OpSignal: pthread_cond_signal(): a signal nobody waits for is lost
	CPU    CPUID     // OpIPI: the target CPU
	CPUs   []int     // OpAffinity: the new mask (nil: every CPU)
	Attr   *Attr     // OpSetattr, OpNice: the new attributes and the target
	// Mutex is, for OpWait, 1 + the index of the mutex the wait releases
	// while it blocks and takes again once woken (pthread_cond_wait());
	// 0 = none.
	Mutex int
}

// MaxOpDuration bounds run, sleep and timer durations so that simulated
// time cannot overflow (about 11.6 days).
const MaxOpDuration Time = 1e15

// program is a validated op list; the whole list is wrapped in an implicit
// loop by the builder (the task's "loop" count).
type program struct {
	ops    []Op
	timers int       // number of timer resources
	masks  []cpuMask // OpAffinity at op i: masks[i] (built by New for the machine)
}

// BuildProgram wraps body in a loop of count iterations (-1 = forever) and
// checks its structure. ntimers is the number of distinct timer resources.
func BuildProgram(body []Op, count int, ntimers int) (*program, error) {
	ops := make([]Op, 0, len(body)+2)
	ops = append(ops, Op{Kind: OpLoopBegin, Count: count, Match: len(body) + 1})
	ops = append(ops, body...)
	ops = append(ops, Op{Kind: OpLoopEnd, Match: 0})
	// Re-base the loop matches of the body by one (the implicit loop).
	for i := 1; i <= len(body); i++ {
		if ops[i].Kind == OpLoopBegin || ops[i].Kind == OpLoopEnd {
			ops[i].Match++
		}
	}
	p := &program{ops: ops, timers: ntimers}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check verifies loop matching and that every loop that can repeat consumes
// time, so that no program can spin forever at one instant.
func (p *program) check() error {
	for i, op := range p.ops {
		if op.Dur > MaxOpDuration {
			return fmt.Errorf("program: duration %s at step %d exceeds %s", op.Dur, i, MaxOpDuration)
		}
		switch op.Kind {
		case OpLoopBegin:
			if op.Match <= i || op.Match >= len(p.ops) || p.ops[op.Match].Kind != OpLoopEnd || p.ops[op.Match].Match != i {
				return fmt.Errorf("program: unmatched loop at step %d", i)
			}
			if op.Count == 0 || op.Count < -1 {
				return fmt.Errorf("program: loop count %d at step %d (want -1 or > 0)", op.Count, i)
			}
			if op.Count == -1 && !p.consumesTime(i+1, op.Match) {
				return fmt.Errorf("program: a loop that repeats forever must contain a run, sleep or timer with a positive duration, or a wait or barrier")
			}
		case OpTimer:
			if op.Timer < 0 || op.Timer >= p.timers {
				return fmt.Errorf("program: timer index %d out of range at step %d", op.Timer, i)
			}
			if op.Dur <= 0 {
				return fmt.Errorf("program: timer period must be positive at step %d", i)
			}
		case OpRun:
			if op.Dur < 0 && op.Dur != Forever {
				return fmt.Errorf("program: negative run at step %d", i)
			}
		case OpSys:
			if op.Dur < 0 {
				return fmt.Errorf("program: negative sys at step %d", i)
			}
		case OpAffinity:
			if op.CPUs != nil && len(op.CPUs) == 0 {
				return fmt.Errorf("program: empty affinity at step %d", i)
			}
		case OpSetattr, OpNice:
			if op.Attr == nil {
				return fmt.Errorf("program: %s without attributes at step %d", map[bool]string{true: "nice", false: "setattr"}[op.Kind == OpNice], i)
			}
			if err := op.Attr.Check(op.Kind == OpNice); err != nil {
				return fmt.Errorf("program: step %d: %v", i, err)
			}
		case OpIPI:
			if op.CPU < 0 {
				return fmt.Errorf("program: ipi target cpu %d at step %d", op.CPU, i)
			}
		case OpSleep:
			if op.Dur < 0 {
				return fmt.Errorf("program: negative sleep at step %d", i)
			}
		case OpWait, OpSignal, OpBroadcast, OpBarrier, OpLock, OpUnlock:
			if op.Res < 0 || op.Mutex < 0 {
				return fmt.Errorf("program: resource index %d out of range at step %d", op.Res, i)
			}
		}
	}
	return nil
}

func (p *program) consumesTime(from, to int) bool {
	for _, op := range p.ops[from:to] {
		switch op.Kind {
		case OpRun:
			if op.Dur > 0 || op.Dur == Forever {
				return true
			}
		case OpSleep, OpTimer, OpSys:
			if op.Dur > 0 {
				return true
			}
		case OpIPI:
			// Takes the machine's IPI costs; with every cost 0 the
			// loop is caught by maxInstantSteps (exec.go).
			return true
		case OpWait, OpBarrier:
			// Blocks until another task acts; a ring of tasks that only
			// signal and wait is caught by maxInstantSteps (exec.go).
			return true
		}
	}
	return false
}
