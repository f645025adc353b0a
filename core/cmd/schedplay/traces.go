package main

// Trace outputs of schedplay run (-trace, -perfetto).

import (
	"schedplay/core/sched"
)

func attachTraces(sim *sched.Sim, f *runFlags) ([]*pendingFile, error) {
	var out []*pendingFile
	if f.traceOut != "" || f.perfettoOut != "" {
		return nil, badInput("-trace and -perfetto are not wired yet")
	}
	return out, nil
}
