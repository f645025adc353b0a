package main

// Trace outputs of schedplay run: -trace (ftrace text) and -perfetto
// (Chrome trace-event JSON). Each streams into a temporary file beside its
// destination, renamed only when the run and the writer both succeeded.

import (
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/perfetto"
)

func attachTraces(sim *sched.Sim, f *runFlags) ([]*pendingFile, error) {
	var out []*pendingFile
	if f.traceOut != "" {
		tmp, err := createPending(f.traceOut)
		if err != nil {
			return nil, badInput("-trace: %v", err)
		}
		w := ftrace.NewWriter(tmp, sim.TaskInfo, sim.NumCPUs())
		sim.Attach(w)
		out = append(out, &pendingFile{f: tmp, path: f.traceOut, closer: w.Close})
	}
	if f.perfettoOut != "" {
		tmp, err := createPending(f.perfettoOut)
		if err != nil {
			for _, p := range out {
				p.abandon()
			}
			return nil, badInput("-perfetto: %v", err)
		}
		w := perfetto.NewWriter(tmp, sim.TaskInfo, sim.NumCPUs())
		var paths []string // a track per cgroup (none without cgroups)
		for _, cg := range sim.Config().Cgroups {
			paths = append(paths, cg.Path)
		}
		w.SetCgroups(paths)
		sim.Attach(w)
		out = append(out, &pendingFile{f: tmp, path: f.perfettoOut, closer: w.Close})
	}
	return out, nil
}
