// Package runner runs the playground's simulations for the page: the
// engine side of the page/worker protocol, with no JavaScript, so that the
// Web Worker (wasm/worker; the same binary on the page's thread when the
// browser has no workers, site/pageworker.js) runs it and host tests run
// it natively. The page never links it (wasm/deps_test.go).
//
//   - [Step] and [Pacer] (chunk.go): the only chunk loop. A run is stepped
//     in chunks bounded by an event budget and the caller's wall clock;
//     batches of runs in slices of simulated time.
//   - [Engine]: one run with the metrics collector and the record encoder
//     (wasm/codec) attached; [Export]: a re-run with a trace writer.
//   - [ThreadRun], [SweepRun]: a thread experiment and a sweep, planned as
//     the CLI plans them and run job by job (jobqueue.go).
//   - [PlanBatch] (batch.go, pool.go; the page's outline of a plan is
//     wasm/outline, weighed as the job queue weighs jobs): the page's worker
//     pool's side: one job of a planned batch by index, its values bit
//     for bit, and the evaluation of every job's values into the report.
//   - [ImportTrace]: a kernel trace parsed into records and a report.
//   - [Service]: the requests of wasm/protocol, each run by those loops,
//     superseded by newer ones, answered through an injected post.
//
// Non-goals: no DOM, no syscall/js, no clock of its own (the host passes
// performance.now), no view models (wasm/view is the page's).
package runner
