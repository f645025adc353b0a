//go:build linux

package main

// Before a measurement, the scratch cgroup parents and tracefs instances
// that dead runs of this harness left (a run killed with SIGKILL, or one
// that crashed) are removed; a run ended by SIGINT or SIGTERM removes its
// own on the way out (the signal context of main, the defers of
// measureCase). Runs alive at the same time have their own names
// (scripts/internal/scratch) and are left alone.

import (
	"fmt"
	"os"

	"schedplay/scripts/internal/scratch"
)

// sweepStale removes what dead runs left. A leftover it cannot remove yet
// (a group whose workers are still exiting) does not concern this run,
// whose names are its own: it is reported and the run goes on.
func sweepStale() {
	self := scratch.Self()
	report := func(removed []string, err error) {
		for _, p := range removed {
			fmt.Fprintf(os.Stderr, "realkernel: removed %s, left by a dead run\n", p)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "realkernel: %v (not used by this run)\n", err)
		}
	}
	if mnt, _, err := cgroupMount(); err == nil {
		report(scratch.Sweep(mnt, scratchParent, self, scratch.Alive, scratch.RemoveTree))
	}
	report(scratch.Sweep(tracefsInstances(), traceInstance, self, scratch.Alive, os.Remove))
}
