// Command worker is the simulation engine of the browser playground, built
// on its own (GOOS=js GOARCH=wasm, core only: no Vugu, no DOM) and run in a
// Web Worker (site/worker.js), so that a long simulation never blocks the
// page's main thread.
//
// Protocol (structured-clone messages):
//
//	page -> worker  {type: "run", id, scenario: "<scenario JSON>"}
//	                {type: "cancel", id}
//	                {type: "export", id, kind: "ftrace"|"perfetto", scenario}  (export.go)
//	                {type: "cancel-export", id}
//	                {type: "trace", id, file: File}    (import a kernel trace: trace.go)
//	worker -> page  {type: "batch", id, now, events, tasks: "<JSON []TaskInfo, new ones>",
//	                 buf: ArrayBuffer (transferred; view.RecordSize-byte records)}
//	                {type: "done", id, report: "<metrics JSON>", error: "..."}
//	                {type: "trace", id, cpus, now, events, info}  (before a trace's batch)
//	                {type: "traceerror", id, error: "name: line N: ..."}
//	                {type: "exportprogress", id, now: fraction done}
//	                {type: "export", id, info: kind, buf: ArrayBuffer (the file)}
//	                {type: "exporterror", id, error}
//
// The engine (engine.go) is plain Go, tested and benchmarked on the host
// and under Node; main_js.go is the only part that touches JavaScript. A
// run advances in chunks of about chunkMs of wall time; after each chunk
// the worker posts the batch and yields to its event loop, which is when a
// cancel or a newer run message is seen (the older run then stops).
//
// Thread experiments (thread.go, the playground's thread panel):
//
//	page -> worker  {type: "thread", id, scenario: "<scenario JSON>", runs}
//	worker -> page  {type: "threadprogress", id, now, events, cpus, info}
//	                {type: "threaddone", id, report: "<JSON view.ThreadReport>", error}
//
// Sweeps (sweep.go, the playground's sweep panel):
//
//	page -> worker  {type: "sweep", id, scenario: "<scenario JSON>", spec: "<JSON experiment.SweepSpec>"}
//	worker -> page  {type: "sweepprogress", id, now, events, cpus, info}
//	                {type: "sweepdone", id, report: "<JSON view.SweepReport>", error}
//
// On the host, main only explains how to build.
package main
