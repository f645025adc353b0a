// Package rtapp imports and exports rt-app configurations
// (https://github.com/scheduler-tools/rt-app; the grammar is
// doc/tutorial.txt, /usr/share/doc/rt-app/tutorial.txt on Debian).
//
// rt-app is the tool scheduler developers use to describe synthetic
// workloads, and the LKML threads this project reproduces quote rt-app
// files. [Import] turns one into a *scenario.Scenario; [Export] writes the
// workload of a scenario as a file that rt-app runs on a real machine, so
// the same workload can be measured on both sides.
//
// # Reading
//
// [Parse] is json-c's tolerant dialect (// and /* */ comments, trailing
// commas) with the object member order kept: the events of a phase run in
// file order, and duplicate keys are kept in order as workgen (rt-app's
// front end) would rename them. Events are recognised by prefix like rt-app
// does ("run0", "sleep1", "runtime2").
//
// # What maps and what does not
//
//   - global: duration (seconds; -1, 0 or missing means "until every thread
//     ends", which becomes the scenario's default duration and a warning),
//     default_policy and pi_enabled (the scenario's "pi": mutexes with
//     priority inheritance) are used; calibration, lock_pages, logdir,
//     log_basename, log_size, ftrace, gnuplot, io_device, mem_buffer_size and
//     cumulative_slack have no simulation meaning and are listed in one
//     warning.
//   - tasks: instance, loop, phases (each with its loop), cpus, policy
//     (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR,
//     SCHED_DEADLINE), priority (the nice value for the fair policies, the
//     RT priority 1..99 for SCHED_FIFO/SCHED_RR, where rt-app's default is
//     10; ignored with a warning for SCHED_DEADLINE), dl-runtime, dl-period
//     and dl-deadline (µs; the period defaults to the runtime and the
//     deadline to the period, as rt-app's; checked as sched_setattr() does),
//     delay (the start time), taskgroup (the task's cgroup; a phase's
//     taskgroup becomes a taskgroup step at the phase's start, and a
//     top-level "cgroups" object, which rt-app ignores, carries the groups'
//     settings; cgroups.go). A phase's own cpus become affinity steps
//     (phase_affinity.go; exported back by export_affinity.go). A phase's
//     policy, priority and dl-* keys become a setattr step at its start
//     (rt-app's set_thread_param() between phases; phase_sched.go, exported
//     back by export_sched.go); phases that only restate the thread's
//     parameters add none.
//   - events: run and runtime (µs of work; -1 = forever; runtime is treated
//     as run, which differs only on CPUs below capacity 1024), sleep, timer
//     (ref, period, mode; relative by default as in rt-app, and absolute for
//     every use once any use of the ref says absolute), yield, and upstream's
//     fork (the forked thread is a task with "instance": 0). mem and iorun
//     become run at [MemBytesPerNs] with a warning: they are short CPU-bound
//     memsets/writes to /dev/null by default, and a warning is more useful
//     than refusing the file. wait, signal, broad, sync, suspend, resume
//     and barrier map to the core's wait resources with rt-app's semantics
//     (events.go syncEvent: condition variables keep no pending signal, so
//     signals are imported with cond; suspend is a wait and resume a
//     broadcast on the resource of that name; sync is a signal then a wait;
//     a bare "suspend" as workgen writes it names the thread itself; a
//     barrier whose rt-app participant count, one per barrier event parsed,
//     differs from the thread instances using it is an error). lock and
//     unlock are the scenario's lock and unlock steps (mutex names are a
//     namespace of their own, as rt-app's typed resources); the mutex of a
//     wait or sync is released while waiting when the thread locked it
//     earlier in the phase (else it is left out with a warning). A phase
//     must unlock what it locks (an unlock of a mutex not locked before in
//     the phase, a double lock, or a phase that ends holding a mutex is an
//     error); the mutex rt-app's suspend/resume lock around their condition
//     variable for no time is left out.
//   - rt-app timer refs that do not start with "unique" are one timer shared
//     by every thread using them; the core has per-task timers, so such a
//     ref is kept per task and, if more than one thread uses it, warned
//     about.
//   - Thread names: the core names instances <name>-<index>, the index
//     counting over all threads in file order, as upstream rt-app does
//     (thread_data_set_unique_name). Differences: Debian's rt-app 1.0 names
//     every instance just <name>; upstream names forked threads
//     <name>-<index>-<fork number>; Linux truncates comm to 15 characters
//     (rt-app's pthread_setname_np fails beyond that and the thread keeps the
//     name "rt-app"). Names with characters outside A-Z a-z 0-9 _ . are
//     rewritten with _ and a warning.
//   - Export of the machine-sized keys (export_split.go): per_cpu and
//     "nodes": "spread" become one thread per CPU or instance (NAME_cpuN,
//     NAME_iK), and each of them forks its own copy of the group's forked
//     descendants, since an rt-app thread (like a core task group) has one
//     parent.
//
// rt-app files carry no machine and no kernel: the importer picks the
// smallest smp-N topology that has every CPU named, the default kernel, and
// says so in a warning; the CLI's -topology and -kernel override them.
//
// # Warnings
//
// Anything accepted but not carried over exactly is a [Warning] with the
// JSON path in the rt-app file (or the scenario path, for export), in file
// order, so a caller can print them (the CLI writes them to stderr) or turn
// them into errors. Anything that would change what the workload does is an
// error instead: a *scenario.Error naming the path, in the same form as the
// scenario decoder's errors.
//
// Non-goals: rt-app's log files, calibration, and the rt-app 0.x grammar
// (exec/period/lock_order/resources), which is refused with an error.
package rtapp
