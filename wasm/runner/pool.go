package runner

// The service's side of the page's worker pool (batch.go has the design):
// a Job request runs one job of a planned batch, in slices, posting its
// progress and then its result (a job posted while one runs waits for it
// to end; the page accepts their results in either order); an Evaluate request builds the batch's
// report from every job's result. The plan is kept for the next request
// of the same batch (a worker runs many of its jobs), and only the last
// one, so a worker's memory holds one plan and one run.

// A job's progress goes to the page after its first chunk (the page learns
// the worker has started it) and then at most every jobProgressMs, not
// after every chunk: each message costs the page's main thread its
// handling and a redraw of the progress line (docs/budgets.md "The floor
// argument"), and the pool needs no finer progress (its watchdog waits
// seconds).

import (
	"fmt"

	"schedplay/wasm/protocol"
)

// jobProgressMs is the least wall time between two progress messages of
// a job.
const jobProgressMs = 250

// plan returns the batch b, planned now or kept from the previous request.
func (s *Service) plan(b protocol.BatchSpec) (Batch, error) {
	p, _, err := s.planTimed(b)
	return p, err
}

// planTimed is plan with the wall time it spent planning (0 when the plan
// was kept).
func (s *Service) planTimed(b protocol.BatchSpec) (Batch, float64, error) {
	s.planMu.Lock()
	defer s.planMu.Unlock()
	if s.plannedPlan != nil && s.planned == b {
		return s.plannedPlan, 0, nil
	}
	t0 := s.now()
	s.plannedPlan = nil // the old plan is garbage before the new one is built
	p, err := PlanBatch(b)
	if err != nil {
		return nil, 0, err
	}
	s.planned, s.plannedPlan = b, p
	return p, s.now() - t0, nil
}

// job runs job m.Index of its batch while request m.ID is current,
// after the job posted before it (the pool's prefetch); a job superseded
// while it waited is dropped unanswered, as a cancelled one is.
func (s *Service) job(m protocol.Job) {
	s.jobMu.Lock()
	defer s.jobMu.Unlock()
	s.runJob(m)
}

// queuedJob is job for a request Handle counted in jobsWaiting, which
// arrived at arrived.
func (s *Service) queuedJob(m protocol.Job, arrived float64) {
	s.jobMu.Lock()
	defer s.jobMu.Unlock()
	s.jobsWaiting.Add(-1)
	s.runJobFrom(m, arrived)
}

// runJob is job under jobMu.
func (s *Service) runJob(m protocol.Job) { s.runJobFrom(m, s.now()) }

// runJobFrom is runJob for a request that arrived at arrived.
func (s *Service) runJobFrom(m protocol.Job, arrived float64) {
	if !s.isCurrent(m.ID) {
		return
	}
	t0 := s.now()
	fail := func(err error) { s.post(protocol.JobDone{ID: m.ID, Index: m.Index, Error: err.Error()}) }
	b, planMs, err := s.planTimed(m.BatchSpec)
	if err != nil {
		fail(err)
		return
	}
	q := b.queue()
	if m.Index < 0 || m.Index >= len(q.jobs) {
		fail(fmt.Errorf("job %d of a plan of %d", m.Index, len(q.jobs)))
		return
	}
	q.only(m.Index)
	q.domains = s.domains // kept across batches: the next run is often on the same machine
	p := NewPacer(s.pace, s.now)
	told := t0 - jobProgressMs // the page's last news of this job: the first chunk's progress goes out
	for s.isCurrent(m.ID) {
		finished, err := p.Slices(q)
		if err != nil {
			fail(err)
			return
		}
		if finished {
			res := encodeJobResult(q.vals[m.Index], q.where[m.Index])
			s.post(protocol.JobDone{ID: m.ID, Index: m.Index, Result: res, WorkMs: s.now() - t0, PlanMs: planMs, WaitMs: max(0, t0-arrived)})
			return
		}
		if now := s.now(); now-told >= jobProgressMs {
			s.post(protocol.JobProgress{ID: m.ID, Index: m.Index, Fraction: q.Fraction()})
			told = now
		}
		s.yield()
	}
}

// evaluate answers with the batch's report, built from m.Results, as the
// ThreadDone or SweepDone of request m.ID.
func (s *Service) evaluate(m protocol.Evaluate) {
	done := func(rep, err string) {
		if m.Kind == protocol.KindSweep {
			s.post(protocol.SweepDone{ID: m.ID, Report: rep, Error: err})
		} else {
			s.post(protocol.ThreadDone{ID: m.ID, Report: rep, Error: err})
		}
	}
	b, err := s.plan(m.BatchSpec)
	if err == nil {
		err = setResults(b, m.Results)
	}
	if err != nil {
		done("", err.Error())
		return
	}
	rep, err := b.ReportJSON()
	if err != nil {
		done("", err.Error())
		return
	}
	if s.isCurrent(m.ID) {
		done(rep, "")
	}
}

// crash is the Crash request: the Go program dies as a bug would kill it.
func crash() { panic("schedplay worker: crash requested (fault injection)") }
