package main

// TracePanel: what is open in trace mode (trace.go) instead of the kernel
// and workload panels: the file, the import's summary, and what a trace
// can and cannot say.

// TracePanel is the side panel of trace mode.
type TracePanel struct {
	App *App `vugu:"data"`
}
