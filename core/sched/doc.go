// Package sched is schedplay's simulation core: a passive, deterministic
// discrete-event model of the Linux CPU scheduler.
//
// Goals: kernel rules, not a toy model. Each mechanism file names the kernel
// function it mirrors and the kernel versions whose behaviour it reproduces
// (profiles v3.11, v5.8, v6.6, v6.12, v6.18). Integer nanosecond time, the
// kernel's own fixed-point weight arithmetic, and a fixed order for everything
// that happens at the same instant make a run a pure function of its Config:
// the same scenario and seed give the same event stream byte for byte, however
// the caller chunks the run and whichever consumers listen.
//
// Non-goals (for now): cgroup hierarchies (every task is a top-level entity),
// kernel-mode execution costs, RT and deadline classes, load balancing.
//
// The package is passive: it starts no goroutines, reads no clock and does no
// I/O. The caller builds a [Sim] with [New], drives it with [Sim.RunUntil] or
// [Sim.Step], and receives [Event]s through the [Sink] in the [Config].
package sched
