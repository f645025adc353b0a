package runner

// Batches split across the page's worker pool (wasm/pool): every worker
// plans the same thread experiment or sweep from the same scenario (the
// plan is deterministic: experiment.Plan), runs the jobs it is handed by
// index (Service.job), and returns each run's values as an encoded job
// result (jobresult.go); one
// worker then evaluates every job's values into the report (Service.
// evaluate), the same report a single worker's ThreadRun or SweepRun
// gives, because the values are gathered by job index, never in the order
// they finished, and cross the page bit for bit.
//
// The page's cheap view of a plan (no machine built) is wasm/outline,
// which weighs jobs as the job queue does (outline.JobWeight).

import (
	"encoding/json"
	"fmt"

	"schedplay/wasm/protocol"
)

// Batch is a planned thread experiment ([ThreadRun]) or sweep ([SweepRun]).
type Batch interface {
	Queue
	ReportJSON() (string, error)
	queue() *jobQueue
}

func (t *ThreadRun) queue() *jobQueue { return &t.jobQueue }
func (s *SweepRun) queue() *jobQueue  { return &s.jobQueue }

// PlanBatch plans the batch b names.
func PlanBatch(b protocol.BatchSpec) (Batch, error) {
	switch b.Kind {
	case protocol.KindThread:
		return NewThread(b.Scenario, b.Runs)
	case protocol.KindSweep:
		return NewSweep(b.Scenario, b.Spec)
	}
	return nil, fmt.Errorf("batch kind %q: want %q or %q", b.Kind, protocol.KindThread, protocol.KindSweep)
}

// setResults hands b the results of every job (JSON []string of encoded
// JobResults, in plan order).
func setResults(b Batch, resultsJSON string) error {
	var res []string
	if err := json.Unmarshal([]byte(resultsJSON), &res); err != nil {
		return fmt.Errorf("results: %v", err)
	}
	q := b.queue()
	if len(res) != len(q.jobs) {
		return fmt.Errorf("results: %d for a plan of %d jobs", len(res), len(q.jobs))
	}
	for i, s := range res {
		v, where, err := decodeJobResult(s)
		if err != nil {
			return fmt.Errorf("results: job %d: %v", i, err)
		}
		q.setResult(i, v, where)
	}
	return nil
}
