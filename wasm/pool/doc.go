// Package pool is the playground's worker pool: a thread experiment or a
// sweep split job by job over several Web Workers, each running the
// engine (wasm/worker), from one queue, with progress, time left and
// cancel across the pool.
//
// The pool is a state machine with no JavaScript and no clock of its own:
// the page (wasm/poolrun.go) spawns the workers, passes their messages in
// (Handle, Failed) and calls Check on a timer; host tests drive it with
// fake workers. What it guarantees:
//
//   - Results are the bytes a single worker gives, whatever the pool size:
//     every worker plans the same batch (core/experiment's plan), runs the
//     jobs it is handed by index, and the pool gathers each job's values at
//     its index; once every job is in, one worker evaluates them all
//     (wasm/runner/batch.go). Finishing order cannot leak.
//   - Memory is bounded: a worker holds one plan and one run; the pool
//     holds one encoded result per job (the batch's plan is bounded:
//     scenario.MaxExpRuns, protocol.MaxSweepJobs); a worker whose heap grew
//     over HeapLimit is replaced by a fresh one when it is idle.
//   - A worker that fails (its Go program panics or runs out of memory, it
//     throws, or it stops answering for StallMs while it holds a job) is
//     reported, replaced, and its job retried once on another worker; a
//     second failure of the same job ends the batch with an error naming
//     the job.
//
// Jobs go out longest expected first (order.go): the outline's weight
// (simulated CPU time) times its configuration's speed as its finished
// jobs measured it, so that a batch does not end on one worker finishing
// a long job while the others idle (longest processing time first).
// Non-goals: no estimate beyond the weight before a configuration's first
// job has finished, no work stealing inside a job (a job is one
// simulation, sequential by nature).
package pool
