// Package perfetto writes a schedplay event stream as Chrome trace-event
// JSON (the "JSON Object Format" of the Trace Event Format), which
// ui.perfetto.dev and chrome://tracing open.
//
// A [Writer] is a [sched.Sink]: attach it to a run with [sched.Sim.Attach],
// run, then call [Writer.Close] to finish the document. The trace has one
// track per CPU, all in one process named "CPUs": each stretch of a task
// running on a CPU is a complete ("X") slice named after the task. Its args
// are the task's pid; reason_in and pick, the reason and pick rule of the
// sched_switch that started the slice (why the CPU changed hands: the
// previous task slept, or the rule that preempted it); reason_out and
// prev_state, those of the switch that ended it ("end" and no state for a
// task still running when the run ends). Wakeups, new-task wakeups and
// migrations are instant ("i") events on the CPU's track, and so is each
// policy or priority change of a setattr or nice step ("sched_setattr":
// the task's new policy, prio, nice and rt_priority, its old_prio and the
// caller's by_pid). Idle time is left empty.
//
// Goals: a document that encoding/json and the viewers accept whatever the
// task names are (names come from user input), written as the run goes with
// memory bounded by the CPU count, not by the run's length.
//
// Non-goals: per-task tracks, counters and flow arrows (a later view may add
// them); Perfetto's native protobuf format. The process is pid 1, not 0:
// Perfetto reserves pid 0 for the kernel's swapper and renames it.
package perfetto
