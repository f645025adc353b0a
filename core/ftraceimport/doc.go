// Package ftraceimport reads ftrace text of the scheduler events into the
// simulator's event model, so that a trace of a real kernel is measured with
// the same tools as a simulated run ([Trace.Metrics] gives the per-task
// runtime, wait, switches, migrations, wakeups and wakeup latency of
// core/metrics).
//
// # Input
//
// Two printings are read, with or without the "# tracer:" header:
//
//   - /sys/kernel/tracing/trace (and trace_pipe): "comm-pid [CPU] flags
//     SECONDS.USECS: event: fields", with or without the irq-flags column
//     (options/irq-info), with or without the tgid column
//     (options/record-tgid), any CPU column width, and timestamps of up
//     to nanosecond digits. The simulator's own trace writer
//     (core/trace/ftrace) produces this layout and round-trips.
//   - trace-cmd report: the same columns, and the compact fields of its
//     sched plugin, "bash:1234 [120] S ==> swapper/2:0 [120]" for
//     sched_switch and "bash:1234 [120] [success=1] CPU:002" for the
//     wakeups. The "cpus=N" banner gives the CPU count.
//
// The events read are sched_switch, sched_wakeup, sched_waking,
// sched_wakeup_new, sched_migrate_task, sched_process_fork,
// sched_process_exit, sched_pi_setprio and cpu_idle. Every other line is skipped and counted
// in [Stats]; of those, the interrupt entries (irq_vectors' local_timer_entry,
// reschedule_entry, call_function(_single)_entry and the rest,
// irq_handler_entry, softirq_entry, hrtimer_expire_entry, ipi_entry) are
// also kept, time and CPU only, in [Trace.IRQs] (irq.go). A line that is one of these events but whose fields cannot be
// read is an [*Error] with its line number, or with [Options.Lenient]
// skipped with a [Warning] naming it; inputs over [Options.MaxBytes] and
// lines over [Options.MaxLineLen] are errors.
//
// # Messy traces
//
// Records are merged by timestamp (a stable sort: buffers concatenated or
// a report not merged by CPU; counted in Stats.Unsorted). "CPU:N [LOST n
// EVENTS]" lines are counted (Stats.Lost). When a line's task column (the
// CPU's current task) is not the task the CPU's last line left running, the
// switch the trace lacks is added with prev_state S (Stats.MissedSwitches):
// after lost events, or for tasks whose switches are not traced. The
// numeric prev_state of old kernels and of trace-cmd without print formats
// is read (events.go switchState). Each wakeup keeps its context in
// [Trace.Wakes]: the waker from the sched_waking line (printed in the
// waker's context; sched_wakeup may be printed on the wakee's CPU by the
// ttwu_queue IPI) and whether the flags column says interrupt context;
// the EvWakeup names the waker in Prev (sched.NoTask in interrupt context)
// and the line's CPU in Arg, as the simulator's own events do.
//
// A priority-inheritance boost (sched_pi_setprio) becomes an
// sched.EvPISetprio; from it until the deboost back to the task's own prio
// the prio fields show the boosted prio (p->prio), which then does not
// change the policy in the task table: a fair mutex owner boosted by an RT
// waiter stays SCHED_OTHER. SIMPLIFIED: a boost that ends at another prio
// than the one it started from (a policy change while boosted) is taken
// to go on.
//
// # Model
//
// Time 0 is the first event; [Trace.Offset] is its absolute timestamp. The
// trace ends at its last event unless [Options.End] says otherwise. Pid 0 is
// the idle task of each CPU (sched.NoTask). Each task of the table
// ([Trace.Tasks]) is one pid between its creation and its exit; see
// resolve.go for pid reuse and comm changes. Wakeup latency is measured
// from sched_wakeup, or from sched_waking in a trace that has no
// sched_wakeup lines. A sched_wakeup of a task that is already running or
// runnable (the kernel traces those too) is dropped and counted.
//
// # What the text loses
//
// Timestamps have microsecond precision in the kernel's default output, so
// every interval is off by up to 1 µs. prev_state distinguishes preempted
// (R, R+) from blocked (S, D, ...) and dead (X, Z) tasks, which is what the
// involuntary switch count needs. The policy is inferred from the prio: RT
// (SCHED_FIFO; RR looks the same) below 100, else SCHED_OTHER with nice
// prio-120 (SCHED_BATCH and SCHED_IDLE look the same). What ran before the
// trace started is unknown: a task switched out first is taken to have run
// since time 0 (see [Trace.Running]); a task switched in first had no known
// wait.
//
// Like the rest of core, the package does no I/O of its own: it reads the
// io.Reader it is given.
package ftraceimport
