package pool

// Stats: where a batch's wall time went, as the page sees it, for the
// budgets of issue 20 (docs/budgets.md "Where the time goes"). The page
// knows when it posted each job and when its result came back; the worker
// says how long it worked on it (protocol.JobDone.WorkMs, its planning of
// the batch apart), so the difference is the trip: the two messages and
// the delays of both event loops (a worker's start-up, for a job posted
// before its WASM was ready). Over the pool's workers the wall time
// splits into that work, the trips, the tail (workers idle at the end
// while the last jobs finish), the evaluation (one worker, the others
// idle) and what is left (Other: the dispatch itself, retries).

// Stats is the time accounting of a batch (ms of wall time; the sums
// are over the pool's workers).
type Stats struct {
	Workers, Jobs int
	WallMs        float64 // Start to the report's arrival
	WorkMs        float64 // the workers' time on their jobs, planning included
	PlanMs        float64 // of WorkMs: planning the batch (a worker's first job of it)
	TripMs        float64 // job round trips: the page's time on a job less the worker's
	FirstTripMs   float64 // of TripMs: each worker's first job (a worker that was not warm starts in it)
	FirstWaitMs   float64 // of FirstTripMs: the first jobs' wait in their workers before they started (a warm-up giving way)
	TailMs        float64 // workers idle after their last job until the batch's last
	EvalMs        float64 // the evaluation's round trip (one worker evaluates; the others idle)
}

// Other is the workers' wall time not accounted for by the rest.
func (s Stats) Other() float64 {
	return float64(s.Workers)*s.WallMs - s.WorkMs - s.TripMs - s.TailMs - float64(s.Workers)*s.EvalMs
}

// runStats is what a batch in progress accumulates for its Stats.
type runStats struct {
	st       Stats
	lastDone []float64 // per slot, when its last job came back (-1: none yet)
	allDone  float64   // when the last job came back
	evalPost float64   // when the evaluation was posted
	jobMs    []float64 // per job: its worker time less the planning (bound.go)
}

func newRunStats(size, jobs int) runStats {
	r := runStats{st: Stats{Workers: size, Jobs: jobs}, lastDone: make([]float64, size), jobMs: make([]float64, jobs)}
	for i := range r.lastDone {
		r.lastDone[i] = -1
	}
	return r
}

// jobDone accounts job k of slot i that the page posted at began and
// got back at now.
func (r *runStats) jobDone(i, k int, began, now float64, workMs, planMs, waitMs float64) {
	trip := max(0, now-began-workMs)
	if k >= 0 && k < len(r.jobMs) {
		r.jobMs[k] = max(0, workMs-planMs)
	}
	r.st.WorkMs += workMs
	r.st.PlanMs += planMs
	r.st.TripMs += trip
	if i < len(r.lastDone) {
		if r.lastDone[i] < 0 {
			r.st.FirstTripMs += trip
			r.st.FirstWaitMs += min(trip, waitMs)
		}
		r.lastDone[i] = now
	}
}

// finish closes the accounting of a batch started at start whose report
// came back at now.
func (r *runStats) finish(start, now float64) Stats {
	s := r.st
	s.WallMs = now - start
	s.EvalMs = now - r.evalPost
	for _, t := range r.lastDone {
		if t < 0 {
			t = start // a worker that got no job idled all along
		}
		s.TailMs += max(0, r.allDone-t)
	}
	return s
}

// LastStats is the time accounting of the last batch that finished (zero
// before one did).
func (p *Pool) LastStats() Stats { return p.stats }

// LastJobMs is each job's worker time (its planning apart) in the last
// batch that finished, by job index (nil before one did).
func (p *Pool) LastJobMs() []float64 { return p.jobMs }
