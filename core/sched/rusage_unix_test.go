//go:build unix

package sched

// The process's CPU time for the benchmarks (getrusage; not on js/wasm).

import "syscall"

// processCPUNs is the process's user+system CPU time in ns.
func processCPUNs() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
