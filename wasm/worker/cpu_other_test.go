//go:build !(js && wasm)

package main

import "syscall"

// cpuTime is the process's CPU time in ns (getrusage: user + system, all
// threads), less disturbed than wall time on a loaded machine.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
