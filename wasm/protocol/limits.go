package protocol

// Limits the page checks before it sends a request and the worker
// enforces when it gets one: here so that both read one number and the
// page need not link the engine's runner to know it.

// MaxSweepJobs bounds the runs of one browser sweep.
const MaxSweepJobs = 2000

// MaxTraceBytes bounds the trace files the playground opens (the importer
// keeps every event in memory, and the page's timeline does too).
const MaxTraceBytes = 32 << 20

// MaxTraceCPUs bounds the CPUs of an imported trace the page lays out:
// core/ftraceimport's MaxCPUs (wasm/runner's tests check they agree).
const MaxTraceCPUs = 8192
