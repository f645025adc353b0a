// Package replay infers a workload from a real kernel trace and turns it
// into an ordinary scenario, so the machine the trace came from can be
// rerun under another kernel profile, knob, cgroup or machine.
//
// # What it mirrors
//
// The inference reads the scheduler's view of each task out of the
// tracepoints of include/trace/events/sched.h, as imported by
// core/ftraceimport: __schedule() switching a task out runnable
// (preempted, prev_state R: no program event) or blocked (the end of a
// CPU burst), try_to_wake_up() ending a block (sched_waking in the waker's
// context), sched_process_fork()/wake_up_new_task() and do_exit(). A task's
// program is the alternation of its bursts and blocks:
//
//   - a burst is the CPU time between being woken and blocking again,
//     summed over its preemptions, in work units: time x the capacity of
//     the CPU it ran on / 1024 (arch_scale_cpu_capacity(), from the
//     machine the caller gives) x its frequency / its highest frequency
//     where the trace has cpu_frequency lines (arch_scale_freq_capacity());
//   - a block woken by another traced task, in process context, becomes a
//     wait in the wakee and a signal in the waker's program at the point
//     where the waker made the wakeup, so the replay keeps the causal
//     chain (a pipe ping-pong stays a ping-pong when one side is slowed);
//     a wakeup queued to another CPU (ttwu_queue_wakelist(): sched_wakeup
//     printed by its IPI, after the waker may have blocked) is placed at
//     the waker's sched_waking (queued.go);
//   - a block woken from outside (an interrupt, a timer, an untraced task)
//     becomes an absolute timer: the wakeup keeps its time; a series of
//     such wakeups at a steady interval is a periodic timer (period.go);
//   - a fork by a traced, running parent becomes a fork step of the
//     parent; the child's task group has that parent;
//   - a reply that woke nobody, in a request/reply pair on one CPU (a
//     task preempted by the partner it woke, resumed when that partner
//     blocked, where the partner's traced wakeups answered at least half
//     of the task's requests), becomes a signal and a wait all the same
//     (hidden.go);
//   - a task switched out runnable with nothing on its CPU that could have
//     set need_resched (no interrupt entry, no wakeup or migration naming
//     the CPU) since it was switched in, within [DefaultSelfWindow], set it
//     itself in a system call: a self-preemption. A fair task with at
//     least [MinSelfPreemptions] of them, making at least a quarter of its
//     preemptions, reads its CPU clock (clock_gettime(
//     CLOCK_THREAD_CPUTIME_ID) runs update_curr(), which on EEVDF ends a
//     used-up slice between ticks) and is given cpu_clock_poll
//     [DefaultClockPoll], the trace's timestamp precision (selfpoll.go).
//     This needs the interrupt entries in the trace, the timer's at least
//     ([Workload.ClockEvidence]); without them nothing is inferred.
//
// The scenario carries the traced machine's costs where the trace shows
// them (costs.go): no modelled switch cost on top of the traced CPU time,
// the remote wakeup paths' medians as the IPI and idle-exit costs (a
// wake-list wakeup of an idle CPU in its two parts, before and after the
// target's sched_wakeup), and the local interrupt wakeups' as the timer
// interrupt's time. A trace that passes the inference's bounds is a
// [LimitError] naming a span of it that fits (limits.go).
//
// # Non-goals and what cannot be inferred
//
// The trace shows the scheduler, not the program: spinning in user space
// looks like work, time in I/O devices looks like an outside wakeup at the
// trace's time, kernel work that is not traced (softirqs, kworkers left
// out of the trace) is folded into the bursts of the tasks it interrupted,
// and a wakeup in interrupt context cannot be told from a timer. A
// clock-reading task's polling interval is in the trace only with
// sched_stat_runtime (selfpoll.go; without it, only that it reads), and a
// sched_yield() looks like a self-preemption. The kernel's HZ is read from
// the tick spacing where the trace has timer interrupt entries on busy
// CPUs (hz.go), else the replay runs at its profile's. The
// policy is what the prio says (SCHED_FIFO for RT, SCHED_OTHER with the
// nice for fair tasks; SCHED_RR, SCHED_BATCH and SCHED_IDLE look the same).
// Work does not follow frequency on a machine whose trace has no
// cpu_frequency lines, and the replay runs every CPU at full speed.
//
// Like the rest of core, the package does no I/O: it reads an imported
// [ftraceimport.Trace] and returns values.
package replay
