package replay

// The fidelity report lives in core/replay/fidelity (a leaf package the
// playground's page links without the inference or the engine); these
// names keep the replay package's API.

import (
	"schedplay/core/metrics"
	"schedplay/core/replay/fidelity"
)

// Targets of a fidelity row (fidelity package).
const (
	ShareTolPoints  = fidelity.ShareTolPoints
	SwitchTolPct    = fidelity.SwitchTolPct
	LatencyFactor   = fidelity.LatencyFactor
	LatencyMinWakes = fidelity.LatencyMinWakes
)

type (
	// Side is one task's figures on one side (fidelity.Side).
	Side = fidelity.Side
	// Row is one task's fidelity row (fidelity.Row).
	Row = fidelity.Row
	// Fidelity is the report (fidelity.Fidelity).
	Fidelity = fidelity.Fidelity
	// TaskKey pairs a traced task with its replay (fidelity.TaskKey).
	TaskKey = fidelity.TaskKey
)

// CompareKeys is fidelity.CompareKeys.
func CompareKeys(keys []TaskKey, trace, replay *metrics.Report) Fidelity {
	return fidelity.CompareKeys(keys, trace, replay)
}

// Keys lists the workload's tasks as [TaskKey]s; call it after
// [Workload.Scenario], which decides KeepPID.
func (w *Workload) Keys() []TaskKey {
	out := make([]TaskKey, len(w.Tasks))
	for i, t := range w.Tasks {
		out[i] = TaskKey{ID: t.ID, Group: t.Group, PID: t.PID, Comm: t.Comm, KeepPID: t.KeepPID}
	}
	return out
}

// Compare builds the fidelity table of w: trace is the imported trace's
// metrics (tasks indexed by the trace's task ids), replay the replay's
// (a task with its trace pid, or named GROUP-N).
func Compare(w *Workload, trace, replay *metrics.Report) Fidelity {
	return CompareKeys(w.Keys(), trace, replay)
}
