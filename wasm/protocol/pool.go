package protocol

// The pool's messages: the page's worker pool (wasm/pool) hands each
// worker one planned job of a thread experiment or a sweep at a time, by
// its index in the plan, gathers the measured values by that index and
// asks one worker to evaluate them into the report the single-worker
// Thread and Sweep requests give. Every worker plans the same batch from
// the same scenario (the plan is deterministic), so only indices and
// values cross.

import "fmt"

// Batch kinds of the pool's requests.
const (
	KindThread = "thread"
	KindSweep  = "sweep"
)

// Page to worker.
const (
	TypeJob      Type = "job"
	TypeEvaluate Type = "evaluate"
	TypeCrash    Type = "crash"
	TypeWarm     Type = "warm"
)

// Worker to page.
const (
	TypeJobProgress Type = "jobprogress"
	TypeJobDone     Type = "jobdone"
	TypeHeap        Type = "heap"
)

// BatchSpec names a planned batch: a thread experiment (Kind KindThread,
// Runs seeds per cell, 0 the block's own count) or a sweep (KindSweep,
// Spec its JSON experiment.SweepSpec) of Scenario.
type BatchSpec struct {
	Kind, Scenario, Spec string
	Runs                 int
}

// Job runs job Index of the batch's plan as request ID.
type Job struct {
	ID int
	BatchSpec
	Index int
}

// Evaluate builds the batch's report from the values of every job
// (Results: JSON []string, one encoded job result per job, in plan order:
// wasm/runner/jobresult.go); the answer is a ThreadDone or SweepDone with
// ID.
type Evaluate struct {
	ID int
	BatchSpec
	Results string
}

// Warm asks an idle worker to run the batch's code once, cut short and
// answered with nothing, so that its first real job does not pay the
// WASM code's first compilation (wasm/runner/warm.go); the worker also
// keeps the batch's plan for that job.
type Warm struct{ BatchSpec }

// Crash makes the worker's Go program panic: fault injection for the
// pool's retry test (a worker that dies with a job in flight).
type Crash struct{}

// JobProgress is the share done of job Index.
type JobProgress struct {
	ID, Index int
	Fraction  float64
}

// JobDone ends job Index: its result (an encoded job result:
// wasm/runner/jobresult.go), or the error. WorkMs is the worker's wall time on the request, from its
// start to this answer, PlanMs the part of it spent planning the batch
// (0 when the worker had it planned), WaitMs the time from its arrival
// to its start (behind the job before it, or a warm-up giving way): the
// page's time accounting of a batch (wasm/pool/stats.go).
type JobDone struct {
	ID, Index              int
	Result, Error          string
	WorkMs, PlanMs, WaitMs float64
}

// Heap is the worker's memory after a request ended (bytes the Go
// runtime holds from the system), so that the page can recycle a worker
// whose heap grew large.
type Heap struct{ Bytes float64 }

func (b BatchSpec) wire(t Type, id int) Msg {
	return Msg{Type: t, ID: id, Kind: b.Kind, Scenario: b.Scenario, Spec: b.Spec, Runs: b.Runs}
}

func (m Msg) batchSpec() BatchSpec {
	return BatchSpec{Kind: m.Kind, Scenario: m.Scenario, Spec: m.Spec, Runs: m.Runs}
}

// Wire implements Message.
func (m Job) Wire() Msg {
	w := m.BatchSpec.wire(TypeJob, m.ID)
	w.Job = m.Index
	return w
}
func (m Evaluate) Wire() Msg {
	w := m.BatchSpec.wire(TypeEvaluate, m.ID)
	w.Report = m.Results
	return w
}
func (m Crash) Wire() Msg { return Msg{Type: TypeCrash} }
func (m Warm) Wire() Msg  { return m.BatchSpec.wire(TypeWarm, 0) }
func (m JobProgress) Wire() Msg {
	return Msg{Type: TypeJobProgress, ID: m.ID, Job: m.Index, Now: m.Fraction}
}
func (m JobDone) Wire() Msg {
	return Msg{Type: TypeJobDone, ID: m.ID, Job: m.Index, Report: m.Result, Error: m.Error, Now: m.WorkMs, Events: m.PlanMs, ChunkMs: m.WaitMs}
}
func (m Heap) Wire() Msg { return Msg{Type: TypeHeap, Now: m.Bytes} }

// poolRequest parses the pool's requests (ParseRequest's tail).
func poolRequest(m Msg) (Message, error) {
	switch m.Type {
	case TypeJob:
		return Job{ID: m.ID, BatchSpec: m.batchSpec(), Index: m.Job}, nil
	case TypeEvaluate:
		return Evaluate{ID: m.ID, BatchSpec: m.batchSpec(), Results: m.Report}, nil
	case TypeCrash:
		return Crash{}, nil
	case TypeWarm:
		return Warm{BatchSpec: m.batchSpec()}, nil
	}
	return nil, fmt.Errorf("worker message %q: not a request", m.Type)
}

// poolReply parses the pool's replies (ParseReply's tail).
func poolReply(m Msg) (Message, error) {
	switch m.Type {
	case TypeJobProgress:
		return JobProgress{ID: m.ID, Index: m.Job, Fraction: m.Now}, nil
	case TypeJobDone:
		return JobDone{ID: m.ID, Index: m.Job, Result: m.Report, Error: m.Error, WorkMs: m.Now, PlanMs: m.Events, WaitMs: m.ChunkMs}, nil
	case TypeHeap:
		return Heap{Bytes: m.Now}, nil
	}
	return nil, fmt.Errorf("worker message %q: not a reply", m.Type)
}
