package sched

// Tasks: identity, policy, affinity and the per-task scheduling entity.
//
// Mirrors the parts of struct task_struct and struct sched_entity
// (include/linux/sched.h) that the fair class reads. A task in a cgroup is
// queued on its group's cfs_rq (cgroup.go); group entities are Task values
// too, with my set.

import (
	"math/bits"

	"schedplay/core/quote"
)

// TaskID indexes a task in its Sim; it is not the pid.
type TaskID int32

// NoTask stands for "no task" (the idle task where a CPU has nothing to run).
const NoTask TaskID = -1

// CPUID is a logical CPU number.
type CPUID int32

// Policy is a scheduling policy (SCHED_OTHER etc.).
type Policy uint8

// Policies. Numbering is this package's, not the kernel's ABI.
const (
	SchedOther Policy = iota
	SchedBatch
	SchedIdle
	SchedFIFO     // RT class (rt.go): run until it blocks, yields or is preempted by higher prio
	SchedRR       // RT class with the sched_rr_timeslice_ms round robin slice
	SchedDeadline // deadline class (dl.go): EDF with the constant bandwidth server
)

var policyNames = [...]string{"SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE"}

// IsRT reports whether p is an RT-class policy (rt_policy()).
func (p Policy) IsRT() bool { return p == SchedFIFO || p == SchedRR }

// IsDeadline reports whether p is SCHED_DEADLINE (dl_policy()).
func (p Policy) IsDeadline() bool { return p == SchedDeadline }

// MaxRTPrio is MAX_RT_PRIO: user rt_priority runs 1..MaxRTPrio-1 and the
// kernel prio of an RT task is MaxRTPrio-1-rt_priority.
const MaxRTPrio = 100

func (p Policy) String() string { return policyNames[p] }

// ParsePolicy parses a policy name; SCHED_NORMAL is accepted for SCHED_OTHER.
func ParsePolicy(s string) (Policy, error) {
	if s == "SCHED_NORMAL" {
		return SchedOther, nil
	}
	for i, n := range policyNames {
		if n == s {
			return Policy(i), nil
		}
	}
	return 0, quote.Errorf("unknown policy %q (want SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE)", s)
}

// taskState is the task's lifecycle state.
type taskState uint8

const (
	stateUnborn   taskState = iota // not created yet
	stateRunnable                  // on a runqueue (queued or running)
	stateBlocked                   // sleeping
	stateDead                      // exited
	stateWaking                    // TASK_WAKING: on a CPU's wake list, not queued yet (wakelist.go)
)

// entity is struct sched_entity, for both fair classes.
type entity struct {
	load        loadWeight
	vruntime    int64
	deadline    int64 // EEVDF virtual deadline
	vlag        int64 // EEVDF: lag at dequeue; in v6.6 also the RUN_TO_PARITY stash
	vprot       int64 // EEVDF v6.17+: protected vruntime (set_protect_slice)
	slice       int64 // EEVDF request size, ns
	sumExec     int64 // sum_exec_runtime
	prevSumExec int64 // prev_sum_exec_runtime
	execStart   Time
	onRq        bool
	delayed     bool // sched_delayed (DELAY_DEQUEUE)
	relDeadline bool // rel_deadline (PLACE_REL_DEADLINE)
	customSlice bool
	avg         schedAvg // PELT (pelt.go)
}

// Task is one simulated thread.
type Task struct {
	id       TaskID
	pid      int
	name     string
	group    int // index of its TaskSpec
	policy   Policy
	nice     int
	rtPrio   int // rt_priority, 1..99 for SCHED_FIFO/SCHED_RR, 0 otherwise
	affinity cpuMask
	slack    Time // timer_slack_ns

	state taskState
	// staleExec: sum_exec_runtime charged through a stale rq clock at
	// wakeup from idle (rq_clock.go).
	staleExec int64
	cpu       CPUID // task_cpu()
	se        entity
	rt        rtEntity // struct sched_rt_entity (rt.go)
	dl        dlEntity // struct sched_dl_entity (dl.go)
	// effPrio is p->prio: normal_prio() unless a mutex waiter boosts the
	// task (pi.go, rt_mutex_setprio()). It selects the class: < 0
	// deadline, < MaxRTPrio RT, else fair.
	effPrio int
	lk      lockState // mutexes held and waited for (locks.go)

	prog     *program
	pc       int     // next op
	iters    []int32 // remaining iterations per loop-begin op
	runLeft  Time    // work left in the current run op; runForever = forever
	kmode    uint8   // how the current run is accounted: kmodeUser, kmodeSys, kmodeSpin (csd.go)
	timers   []timerState
	wakeGen  uint32 // invalidates stale wake events
	firstRun Time   // rt-app's t_first: when the task was created
	stepsAt  Time   // instant of the steps counter
	steps    int    // program steps executed at stepsAt

	// clockPoll: the task reads its CPU clock every clockPoll of CPU time
	// in its run steps (0 = never); pollDone is the CPU time since its last
	// read at the end of its last run segment (clock_poll.go).
	clockPoll, pollDone Time

	// Placement and balancing state (select.go, balance.go).
	nrMigrations   int    // se.nr_migrations
	stopDest       CPUID  // where the migration stopper moves the task (affinity.go, sched_exec.go)
	wakeeFlips     uint32 // wakee_flips (record_wakee)
	wakeeFlipDecay int64  // wakee_flip_decay_ts, jiffies
	lastWakee      TaskID // last_wakee
	recentUsedCPU  CPUID  // recent_used_cpu
	lruSeq         uint64 // position in rq->cfs_tasks (higher = nearer the head, most recent)

	// Task groups (cgroup.go): tg is the task's group (a group entity's:
	// its parent's), nil for the root; my is group_cfs_rq() of a group
	// entity (nil for tasks); depth is se->depth.
	tg    *taskGroup
	my    *cfsRq
	depth int
	// pq and parent cache cfs_rq_of() and parent_entity() while tg is set
	// (set_task_rq(), setTaskRq()).
	pq     *cfsRq
	parent *Task
	// v6.18 task-based throttle (cgroup_throttle_task.go): throttled = on
	// its cfs_rq's limbo list; throttleWork = the throttle task work is
	// queued for its return to user mode.
	throttled, throttleWork bool
	// userMask is user_cpus_ptr (v6.2+): the mask the task last asked for
	// with sched_setaffinity(), which a cpuset move keeps within the new
	// cpuset (cpuset.go cpusetMask); nil = never asked.
	userMask cpuMask
}

// timerState is one rt-app timer resource.
type timerState struct {
	init bool
	next Time
}

// TaskInfo is the public, read-only view of a task.
type TaskInfo struct {
	ID     TaskID
	PID    int
	Name   string
	Group  string
	Policy Policy
	Nice   int
	// RTPriority is the task's rt_priority (1..99 for SCHED_FIFO/SCHED_RR, 0
	// for the fair policies), as sched_getparam() reports it.
	RTPriority int
	// Prio is the kernel prio as ftrace shows it: 120 + nice for fair tasks,
	// MAX_RT_PRIO-1 - rt_priority (0..98) for RT tasks, -1 for
	// SCHED_DEADLINE tasks (normal_prio()).
	Prio int
	// EffectivePrio is p->prio, what the sched tracepoints print: Prio,
	// or the better prio a mutex waiter lends the task by priority
	// inheritance (pi.go).
	EffectivePrio int
	// DLRuntime, DLDeadline and DLPeriod are a SCHED_DEADLINE task's
	// sched_attr parameters (0 for the other policies).
	DLRuntime, DLDeadline, DLPeriod Time
}

// normalPrio mirrors normal_prio(): MAX_DL_PRIO-1 (-1) for deadline tasks,
// MAX_RT_PRIO-1 - rt_priority for RT tasks, 120 + nice otherwise.
func (t *Task) normalPrio() int {
	switch {
	case t.policy.IsDeadline():
		return -1
	case t.policy.IsRT():
		return MaxRTPrio - 1 - t.rtPrio
	}
	return 120 + t.nice
}

// prio is p->prio, the effective priority: normal_prio() raised by
// priority inheritance (pi.go).
func (t *Task) prio() int { return t.effPrio }

// isRT reports whether t runs in the RT class (rt_task(): rt_prio(p->prio),
// so a task boosted by an RT mutex waiter is in it).
func (t *Task) isRT() bool { return t.effPrio >= 0 && t.effPrio < MaxRTPrio }

// isDL reports whether t runs in the deadline class (dl_task(): p->prio <
// 0, a SCHED_DEADLINE task or one boosted by a deadline waiter).
func (t *Task) isDL() bool { return t.effPrio < 0 }

// cpuMask is a CPU bit set.
type cpuMask []uint64

func newCPUMask(n int) cpuMask { return make(cpuMask, (n+63)/64) }

func (m cpuMask) set(c int) { m[c/64] |= 1 << (c % 64) }
func (m cpuMask) has(c CPUID) bool {
	w := uint(c) >> 6 // unsigned: no sign fix-up for the division and the shift
	return w < uint(len(m)) && m[w]&(1<<(uint(c)&63)) != 0
}

// first returns the lowest CPU below n in m, or -1, a word at a time.
func (m cpuMask) first(n int) CPUID {
	for w, word := range m {
		if word != 0 {
			if c := w<<6 | bits.TrailingZeros64(word); c < n {
				return CPUID(c)
			}
			return -1
		}
	}
	return -1
}
