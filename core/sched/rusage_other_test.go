//go:build !unix

package sched

// No getrusage here (js/wasm): the CPU-time metric is left out.

func processCPUNs() int64 { return 0 }
