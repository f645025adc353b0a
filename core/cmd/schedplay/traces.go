package main

// Trace outputs of schedplay run: -trace (ftrace text) and -perfetto
// (Chrome trace-event JSON). Each streams into a temporary file beside its
// destination, renamed only when the run and the writer both succeeded.
// Both carry the run's provenance (docs/cli.md "Provenance in exports"):
// the ftrace text as a '#' comment line after the kernel's header, the
// Perfetto JSON in its metadata.

import (
	"encoding/json"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/perfetto"
)

func attachTraces(sim *sched.Sim, f *runFlags, prov *scenario.Record) ([]*pendingFile, error) {
	var out []*pendingFile
	provJSON, err := json.Marshal(prov)
	if err != nil {
		return nil, err
	}
	if f.traceOut != "" {
		tmp, err := createPending(f.traceOut)
		if err != nil {
			return nil, badInput("-trace: %v", err)
		}
		w := ftrace.NewWriterOptions(tmp, sim.TaskInfo, sim.NumCPUs(), ftrace.Options{Provenance: string(provJSON), IncludeSoftirq: f.traceSoftirq})
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
		w.SetProvenance(provJSON)
		sim.Attach(w)
		out = append(out, &pendingFile{f: tmp, path: f.perfettoOut, closer: w.Close})
	}
	return out, nil
}
