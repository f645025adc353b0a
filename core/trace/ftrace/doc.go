// Package ftrace writes a schedplay event stream as the text of
// /sys/kernel/tracing/trace: the nop tracer's header followed by one line per
// sched event, so that Perfetto's systrace importer, trace-cmd-style scripts
// and eyes used to the kernel read it unchanged.
//
// A [Writer] is a [sched.Sink]: attach it to a run with [sched.Sim.Attach],
// run, then call [Writer.Close] to flush. Lines carry the kernel's own fields
// in the TP_printk() formats of include/trace/events/sched.h (and power.h for
// cpu_idle); the simulator's annotations (why a switch or wakeup happened,
// which pick rule chose the next task, who caused a preemption) follow as
// " key=value" pairs after the kernel's fields, where parsers of the kernel
// format ignore them.
//
// A policy or priority change (a setattr or nice step) prints no line: the
// kernel has no sched tracepoint for sched_setattr() or setpriority(); the
// prio fields of the later sched_switch and sched_wakeup lines show the
// task's new prio. A priority-inheritance boost or deboost prints
// sched_pi_setprio, as rt_mutex_setprio() does, and while boosted the prio
// fields show the boosted prio (p->prio, [sched.TaskInfo].EffectivePrio as
// [sched.Sim.TaskInfo] reports it when the line is written).
//
// Goals: byte-for-byte the kernel's layout (column widths, flag field,
// microsecond timestamps rounded like ns2usecs()), streaming output, and no
// allocation per event.
//
// Non-goals: the flag characters are fixed per event kind rather than
// modelled (no irq or preempt-count state exists in the simulator); the
// header's "entries-in-buffer/entries-written" counts read 0/0, as they are
// only known at the end of a streamed trace (its #P:N is right); comm names
// are not truncated to TASK_COMM_LEN (15 bytes), but control characters in
// them are replaced by '?' so that every event stays on one line.
package ftrace
