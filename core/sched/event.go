package sched

// The event stream: what the engine tells its consumers. Each event mirrors a
// kernel tracepoint (include/trace/events/sched.h, power.h) and carries the
// rule that made it happen, which the kernel's own tracepoints do not.

import "fmt"

// EventKind is the kind of an Event.
type EventKind uint8

// Event kinds.
const (
	EvSwitch           EventKind = iota + 1 // sched_switch: Prev -> Next on CPU
	EvWakeup                                // sched_wakeup: Next woken onto CPU by Prev (NoTask: interrupt context); Arg = the CPU printing it (wake_event.go)
	EvWakeupNew                             // sched_wakeup_new: Next (new task) onto CPU
	EvMigrate                               // sched_migrate_task: Next from Arg (orig cpu) to CPU
	EvFork                                  // sched_process_fork: Prev forked Next
	EvExit                                  // sched_process_exit: Prev exits on CPU
	EvIdleEnter                             // cpu_idle: CPU enters idle (state Arg)
	EvIdleExit                              // cpu_idle: CPU leaves idle
	EvTick                                  // the scheduler tick ran on CPU (Prev is curr)
	EvResched                               // resched_curr: CPU asked to reschedule (Next = cause task or NoTask)
	EvEnd                                   // the run ended at Time
	EvIPIRaise                              // ipi_raise: an IPI sent to CPU from CPU Arg; PrevState 'R' reschedule, 'F' function call
	EvIPIEntry                              // ipi_entry: the IPI's handler starts on CPU (PrevState as above)
	EvWakeIdleNoIPI                         // sched_wake_idle_without_ipi: CPU was polling; NEED_RESCHED set, no IPI
	EvKernel                                // CPU spends Arg ns in the kernel for task Prev (NoTask = the idle path): sys time; Arg -1 opens a window until the next EvKernel or switch on the CPU
	EvTimerExpire                           // hrtimer_expire_entry: the hrtimer of sleeper Next runs on CPU; Arg = its hard expiry (ns)
	EvCgroupThrottle                        // throttle_cfs_rq(): the cfs_rq of cgroup Arg on CPU ran out of runtime
	EvCgroupUnthrottle                      // unthrottle_cfs_rq(): the cfs_rq of cgroup Arg on CPU got runtime again
	EvCgroupAttach                          // cgroup_attach_task: task Next (on CPU) moved itself to cgroup Arg (0 = root)
	EvSetattr                               // sched_setattr()/setpriority() by Prev changed task Next (on CPU); Arg = Next's prio before (setattr.go)
	EvWaking                                // sched_waking: try_to_wake_up() of Next by Prev (NoTask: interrupt context) runs on CPU; Arg = Next's CPU before (wake_event.go)
	EvPISetprio                             // sched_pi_setprio: rt_mutex_setprio() on CPU changes Next's prio; Arg = old prio<<32 | new prio as int32s (pi.go, PIPrios)
	EvSoftirq                               // softirq_entry: a softirq handler starts on CPU; Arg = the vector (SoftirqSched: sched_balance_softirq(), balance.go)
)

var eventKindNames = [...]string{"", "sched_switch", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exit", "cpu_idle_enter",
	"cpu_idle_exit", "tick", "resched", "end", "ipi_raise", "ipi_entry", "sched_wake_idle_without_ipi", "kernel", "hrtimer_expire_entry",
	"cgroup_throttle", "cgroup_unthrottle", "cgroup_attach_task", "sched_setattr", "sched_waking", "sched_pi_setprio", "softirq_entry"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Reason says why a switch, wakeup or resched happened: the rule that fired.
type Reason uint8

// Reasons. The names (Reason.String) appear in traces and the UI; they are
// part of the public interface.
const (
	ReasonNone Reason = iota
	// The previous task stopped being runnable.
	ReasonSleep // blocked in sleep (clock_nanosleep)
	ReasonTimer // blocked waiting for its periodic timer
	ReasonExit  // exited
	ReasonYield // called sched_yield()
	// The previous task was preempted.
	ReasonSliceExpired       // EEVDF update_deadline(): request used up (v >= deadline)
	ReasonProtectionEnded    // EEVDF update_curr(): slice protection ran out (v6.12 did_preempt_short, v6.18 vprot)
	ReasonTickIdealRuntime   // CFS check_preempt_tick(): ran longer than sched_slice()
	ReasonTickVruntimeSpread // CFS check_preempt_tick(): curr.v - leftmost.v > sched_slice()
	ReasonWakeupEligible     // EEVDF wakeup: pick_eevdf() returned the wakee
	ReasonWakeupShortSlice   // EEVDF PREEMPT_SHORT: the wakee's shorter slice cancels protection
	ReasonWakeupGranularity  // CFS wakeup_preempt_entity(): curr.v - p.v > wakeup_gran
	ReasonWakeupIdlePolicy   // curr is SCHED_IDLE and the wakee is not
	ReasonForkChildFirst     // CFS sched_child_runs_first
	ReasonIdleWakeup         // the idle task gives way to a woken task
	// Wakeup reasons.
	ReasonSleepDone // sleep finished
	ReasonTimerFire // periodic timer fired
	ReasonStart     // task created by the scenario (start offset)
	ReasonForked    // task created by fork
	// Migration reasons (EvMigrate: the rule that chose the destination).
	ReasonWakeAffine      // wake_affine() chose the waking CPU (target) and select_idle_sibling() kept it
	ReasonSISTarget       // select_idle_sibling(): the target CPU
	ReasonSISPrev         // select_idle_sibling(): the previous CPU
	ReasonSISRecent       // select_idle_sibling(): recent_used_cpu
	ReasonSISIdleCore     // select_idle_sibling(): select_idle_core() found an idle core
	ReasonSISIdleCPU      // select_idle_sibling(): select_idle_cpu() found an idle CPU
	ReasonSISSMT          // select_idle_sibling(): select_idle_smt() found an idle SMT sibling
	ReasonFindIdlest      // fork/exec slow path: find_idlest_group()/find_idlest_group_cpu()
	ReasonPeriodicBalance // periodic load balance (sched_balance_rq from the tick)
	ReasonNewidleBalance  // newly idle balance (sched_balance_newidle)
	ReasonNohzIdleBalance // nohz idle balance on behalf of a tickless CPU
	ReasonActiveBalance   // active balance: the stopper pushed the task (also the preemption by the stopper)
	// RT class (rt.go, rt_bandwidth.go, rt_balance.go).
	ReasonHigherClass    // wakeup_preempt(): the woken or pushed task's class is above curr's (sched_class_above)
	ReasonRTHigherPrio   // check_preempt_curr_rt(): the RT wakee has a higher priority (lower prio value)
	ReasonRRSliceExpired // task_tick_rt(): SCHED_RR slice used up, requeued at the tail behind a peer
	ReasonRTThrottled    // sched_rt_runtime_exceeded(): the rt_rq used its runtime for this period
	ReasonFairServer     // v6.12+: the deferred fair server (dl_server) reached its zero-laxity time
	ReasonFairServerDone // v6.12+: the fair server used its runtime; the RT class runs again
	ReasonRTFindLowest   // migration: select_task_rq_rt() -> find_lowest_rq() (cpupri)
	ReasonRTPush         // migration: push_rt_task() to the lowest-priority CPU
	ReasonRTPull         // migration: pull_rt_task() onto a CPU that lowered its priority

	ReasonWait   // blocked in a wait or barrier on an event resource (futex/pipe read)
	ReasonSignal // woken by a task's signal, broadcast or barrier arrival (ipc.go)
	// Deadline class (dl.go, dl_cbs.go, dl_balance.go).
	ReasonDLEarlierDeadline // wakeup_preempt_dl(): the wakee's absolute deadline is earlier (EDF)
	ReasonDLThrottled       // update_curr_dl(): runtime used up, throttled until the next period (CBS)
	ReasonDLFindLater       // migration: select_task_rq_dl() -> find_later_rq() (cpudl)
	ReasonDLPush            // migration: push_dl_task() to a free or later-deadline CPU
	ReasonDLPull            // migration: pull_dl_task() onto a CPU whose earliest deadline became later
	// Mutexes (locks.go, pi.go).
	ReasonLock   // blocked on a mutex another task holds (futex_lock_pi / futex_wait)
	ReasonUnlock // woken as the new owner of a mutex its holder unlocked
	ReasonPI     // priority inheritance changed a task's priority (rt_mutex_setprio()): boost or deboost

	// Migration reasons for asymmetric machines (misfit.go, asym.go, capacity.go).
	ReasonSISCapacity // select_idle_sibling(): select_idle_capacity() on asymmetric capacities
	ReasonMisfit      // load balance with migrate_misfit: a task too big for its CPU moved to a bigger one
	ReasonAsymPacking // load balance of a group_asym_packing group: pulled to a higher-priority (ITMT) CPU

	// ReasonAffinity: sched_setaffinity() left the running task's CPU out
	// of its mask; the stopper moved it (the migration and the switch out,
	// affinity.go).
	ReasonAffinity

	// ReasonExec: execve() -> sched_exec() chose another CPU for the
	// running task; the migration stopper moved it (the switch out;
	// the migration carries find_idlest, the rule that chose the CPU;
	// sched_exec.go).
	ReasonExec

	// ReasonCgroupThrottled: CFS bandwidth control throttled the cfs_rq of
	// the task's group (throttle_cfs_rq(): the resched and the switch out;
	// cgroup_bandwidth.go).
	ReasonCgroupThrottled
	// ReasonCgroupMove: sched_move_task() moved the running task to another
	// cgroup and asks for a reschedule (cgroup_move.go).
	ReasonCgroupMove
	// ReasonSetattr: sched_setattr(), sched_setscheduler() or setpriority()
	// changed a task's policy or priority and the class hook asked for a
	// reschedule (check_class_changed(); setattr.go).
	ReasonSetattr
	numReasons
)

var reasonNames = [numReasons]string{"", "sleep", "timer", "exit", "yield",
	"slice_expired", "protection_ended", "tick_ideal_runtime", "tick_vruntime_spread",
	"wakeup_eligible", "wakeup_short_slice", "wakeup_granularity", "wakeup_idle_policy",
	"fork_child_first", "idle_wakeup", "sleep_done", "timer_fire", "start", "fork",
	"wake_affine", "sis_target", "sis_prev", "sis_recent", "sis_idle_core", "sis_idle_cpu", "sis_smt",
	"find_idlest", "periodic_balance", "newidle_balance", "nohz_idle_balance", "active_balance",
	"higher_class", "rt_higher_prio", "rr_slice_expired", "rt_throttled", "fair_server", "fair_server_done",
	"rt_find_lowest", "rt_push", "rt_pull", "wait", "signal",
	"dl_earlier_deadline", "dl_throttled", "dl_find_later", "dl_push", "dl_pull",
	"lock", "unlock", "pi",
	"sis_capacity", "misfit", "asym_packing", "affinity", "exec",
	"cfs_throttled", "cgroup_move", "setattr"}

// IsPreemption reports whether a switch with this reason took the CPU from
// a task that was still runnable.
func (r Reason) IsPreemption() bool {
	return (r >= ReasonSliceExpired && r < ReasonIdleWakeup) || r == ReasonActiveBalance || r == ReasonAffinity || r == ReasonExec || r == ReasonCgroupThrottled || r == ReasonCgroupMove || r == ReasonSetattr ||
		(r >= ReasonHigherClass && r <= ReasonFairServerDone) ||
		r == ReasonDLEarlierDeadline || r == ReasonDLThrottled || r == ReasonPI
}

func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// PickRule says which rule chose the next task at a switch.
type PickRule uint8

// Pick rules.
const (
	PickNone                     PickRule = iota
	PickOnly                              // the only runnable task
	PickEarliestEligibleDeadline          // EEVDF: earliest deadline among eligible
	PickRunToParity                       // EEVDF: curr kept under RUN_TO_PARITY
	PickNextBuddy                         // next buddy
	PickLastBuddy                         // CFS last buddy
	PickLeftmost                          // CFS: smallest vruntime
	PickSkipAvoided                       // CFS: second entity instead of the yield (skip) buddy
	PickIdle                              // nothing runnable: idle
	PickRTPrio                            // RT: head of the highest-priority non-empty list (pick_next_rt_entity)
	PickFairServer                        // v6.12+: the fair server (a deadline entity) picked a fair task
	PickDLEarliestDeadline                // deadline class: leftmost of the deadline tree (EDF, pick_task_dl)
	numPickRules
)

var pickNames = [numPickRules]string{"", "only", "earliest_eligible_deadline", "run_to_parity",
	"next_buddy", "last_buddy", "leftmost", "skip_avoided", "idle", "rt_prio", "fair_server", "dl_earliest_deadline"}

func (p PickRule) String() string {
	if p < numPickRules {
		return pickNames[p]
	}
	return fmt.Sprintf("PickRule(%d)", int(p))
}

// Event is one entry of the event stream. It is 32 bytes; a recorded run
// stores one per event.
type Event struct {
	Time   Time
	Arg    int64 // kind-specific: migrate: source CPU; idle enter: state; wakeup: the CPU of its line; wakeup_new: parent task (or -1)
	Prev   TaskID
	Next   TaskID
	CPU    CPUID
	Kind   EventKind
	Reason Reason
	Pick   PickRule
	// PrevState is the previous task's state at a switch: 'R' (preempted),
	// 'S' (sleeping), 'X' (dead), or 0 when Prev is idle.
	PrevState byte
}

// PIPrios unpacks the Arg of an EvPISetprio: the task's prio before and
// the prio rt_mutex_setprio() gives it (sched_pi_setprio's oldprio and
// newprio).
func (e *Event) PIPrios() (oldprio, newprio int) {
	return int(int32(e.Arg >> 32)), int(int32(e.Arg))
}

// PISetprioArg packs the two prios of an EvPISetprio (see PIPrios).
func PISetprioArg(oldprio, newprio int) int64 {
	return int64(oldprio)<<32 | int64(uint32(int32(newprio)))
}

// Sink receives the event stream. Event must not retain e.
type Sink interface {
	Event(e *Event)
}

// Describe renders an event as one stable line (tests, debug panels).
func (e *Event) Describe() string {
	return fmt.Sprintf("%d %s cpu=%d prev=%d next=%d reason=%s pick=%s arg=%d",
		int64(e.Time), e.Kind, e.CPU, e.Prev, e.Next, e.Reason, e.Pick, e.Arg)
}
