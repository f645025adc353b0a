// Package sched is schedplay's simulation core: a passive, deterministic
// discrete-event model of the Linux CPU scheduler.
//
// Goals: kernel rules, not a toy model. Each mechanism file names the kernel
// function it mirrors and the kernel versions whose behaviour it reproduces
// (profiles v3.11, v5.8, v6.6, v6.12, v6.18; docs/kernel-rules.md). Integer
// nanosecond time, the kernel's own fixed-point weight arithmetic, and a fixed
// order for everything that happens at the same instant make a run a pure
// function of its Config: the same scenario and seed give the same event
// stream byte for byte, however the caller chunks the run and whichever
// consumers listen.
//
// Modelled: the fair class (legacy CFS and EEVDF), the RT class (SCHED_FIFO,
// SCHED_RR, RT throttling and the fair deadline server), the deadline class
// (EDF, CBS, admission control), mutexes with priority inheritance, sched
// domains, PELT, wakeup placement and load balancing (periodic, newidle,
// nohz, active, misfit, asym packing), the tick and nohz, idle states and
// their governor, reschedule and call-function IPIs, the kernel's own
// costs (docs/engine.md, docs/costs.md), and task groups: hierarchical fair
// scheduling, CPU bandwidth (cpu.max, burst), cpu.idle, autogroup, the root
// RT bandwidth of RT_GROUP_SCHED and cpuset partitions ([Config.Cgroups],
// docs/kernel-rules.md section 17).
//
// Not modelled (docs/scenario-format.md and the README list the rest):
// per-group RT runtime, uclamp, EAS and NUMA balancing (util_est is
// modelled: util_est.go).
//
// The package is passive: it starts no goroutines, reads no clock and does no
// I/O. The caller builds a [Sim] with [New], drives it with [Sim.RunUntil] or
// [Sim.Step], and receives [Event]s through the [Sink] in the [Config].
//
// # Files by group
//
//   - Engine: sim.go (configuration, construction, run loop), queue.go (the
//     event heap), time.go, event.go (the event stream), recorder.go, rq.go,
//     core.go (__schedule(), wakeups, preemption), class.go (the class walk).
//   - Classes: fair.go (the fair class entry points), cfsrq.go, cfs.go (legacy
//     CFS), eevdf.go, weights.go; rt.go, rt_bandwidth.go; dl.go, dl_cbs.go,
//     dl_admit.go; locks.go and pi.go (mutexes, priority inheritance).
//   - Placement and balancing: select.go, sis.go, idlest.go, capacity.go,
//     sched_exec.go, migrate.go, affinity.go; domain.go, domain_build.go;
//     balance.go, lbstats.go, lbcost.go, detach_rules.go, newidle.go,
//     nohz_stats.go, misfit.go, asym.go, series.go; rt_balance.go,
//     dl_balance.go.
//   - Time, idle and IPIs: rq_clock.go, tick_nohz.go, idle.go,
//     cpuidle_menu.go, ipi.go, csd.go, irqoff.go, contention.go.
//   - Tasks and programs: task.go, program.go, exec.go, ipc.go, ipc_sem.go.
//   - Task groups: cgroup_spec.go (the contract), cgroup.go, cgroup_fair.go
//     (the hierarchy walks), cgroup_shares.go, cgroup_pelt.go,
//     cgroup_move.go, cgroup_stat.go; cgroup_bandwidth.go,
//     cgroup_bandwidth_timer.go, cgroup_throttle.go,
//     cgroup_throttle_task.go (v6.18); autogroup.go, cpuset.go.
//   - PELT: pelt.go.
//   - Profiles and knobs: profile.go, features.go, feature_versions.go,
//     sysctl.go, hw.go, hw_machines.go.
//   - Invariants (-tags invariants): invariants_on.go, invariants_dl_on.go,
//     invariants_cgroup_on.go, invariants_off.go.
//   - Tests: script_*_test.go run the testdata/ scripts (datadriven, with
//     -rewrite); *_ref_test.go and *_check_test.go compare fast code with a
//     brute-force reference; *_random_test.go and determinism_ext_test.go
//     are the metamorphic and randomized runs; *_ext_test.go drive the
//     package from outside; benchmark*_test.go are `make bench-engine`.
package sched
