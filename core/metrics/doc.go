// Package metrics turns a run's event stream into per-task and per-CPU
// figures, the schema `schedplay.metrics/v1` of docs/cli.md "The contract".
//
// The figures are named after the kernel counters they correspond to, so a
// simulated run reads like /proc/PID/sched of a real one: runtime is
// se.sum_exec_runtime, switches is nr_switches (nr_voluntary_switches +
// nr_involuntary_switches, counted when the task is switched out),
// migrations is se.nr_migrations, wait is the time spent runnable but not
// running (schedstats wait_sum). Wakeup latency is the time from
// sched_wakeup to the task's next sched_switch in.
//
// Non-goals: the collector knows nothing of the scheduler's internals; it
// sees only events, exactly as a trace consumer would.
package metrics
