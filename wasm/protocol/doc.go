// Package protocol is the message set between the playground's page and
// its simulation worker: one Type constant and one struct per message, so
// the worker (wasm/worker), the engine runner's service (wasm/runner), the
// page's run loop (wasm) and the page's JS door (wasm/bridge) share one
// definition instead of string-keyed maps.
//
// A message crosses as a structured-clone object of strings and numbers
// ([Msg], its wire form: the keys below), plus a transferred ArrayBuffer
// "buf" for bytes and, for [OpenTrace], the page's File as "file":
//
//	page -> worker  run           {id, scenario: "<scenario JSON>"}
//	                cancel        {id}
//	                export        {id, kind: "ftrace"|"perfetto", scenario}
//	                cancel-export {id}
//	                trace         {id, file: File}        (import a kernel trace)
//	                thread        {id, scenario, runs}    (a thread experiment)
//	                sweep         {id, scenario, spec: "<JSON experiment.SweepSpec>"}
//	                job           {id, kind: "thread"|"sweep", scenario, runs, spec, job: index}
//	                evaluate      {id, kind, scenario, runs, spec, report: "<JSON results by job>"}
//	                crash         {}  (fault injection: the worker's Go program panics)
//	worker -> page  batch          {id, now, events, tasks: "<JSON []TaskInfo, new ones>",
//	                                buf: wasm/codec records, chunkms: the chunk's wall time}
//	                done           {id, report: "<metrics JSON>", error}
//	                trace          {id, cpus, now, events, info}  (before a trace's batch)
//	                traceerror     {id, error: "name: line N: ..."}
//	                exportprogress {id, now: fraction done}
//	                export         {id, info: kind, buf: the file}
//	                exporterror    {id, error}
//	                threadprogress {id, now: fraction, events: runs done, cpus: runs in all, info: run in progress}
//	                threaddone     {id, report: "<JSON report.ThreadReport>", error}
//	                sweepprogress  {id, now, events, cpus, info}  (as threadprogress)
//	                sweepdone      {id, report: "<JSON report.SweepReport>", error}
//	                jobprogress    {id, job, now: fraction of the job}
//	                jobdone        {id, job, report: "<encoded values>", error}
//	                heap           {now: bytes}  (after a request ends)
//	                fatal          {error}  (the worker failed to load, threw or exited)
//
// "trace" and "export" name a request one way and its answer the other,
// so a message is parsed knowing its direction ([ParseRequest],
// [ParseReply]). An id ties every answer to its request: the page drops
// answers to requests it has superseded.
//
// job, evaluate, jobprogress and jobdone are the page's worker pool's
// (wasm/pool): pool.go says how a batch is split across workers.
//
// Non-goals: no JavaScript here (the two JS sides convert [Msg] with
// [Msg.Fields] and [FromFields]), no transport, no behaviour.
package protocol
