package runner

// The chunk loop: the one place a simulation is stepped in bounded
// chunks, for the worker's runs and exports and for the page's fallback
// when there is no worker (Service). A chunk is an event budget cut short
// by wall time: the caller's clock is asked every few hundred events, so a
// chunk ends near its deadline whatever single events cost, and the budget
// adapts to the measured speed (at most doubling per chunk). Batches of
// planned runs (thread experiments, sweeps) are advanced in slices of
// simulated time instead; their slice adapts the same way (Slices).
//
// Chunking never changes a result: a run is a pure function of its
// scenario however it is cut (the core's determinism contract).

import "schedplay/core/sched"

// Clock is the caller's wall clock in milliseconds (performance.now in a
// browser). The runner reads no clock of its own.
type Clock func() float64

// Pace is how long a chunk may take and how its event budget may move.
type Pace struct {
	ChunkMs    float64 // wall time of one chunk
	First      int     // event budget of the first chunk (the deadline bounds it anyway)
	Min, Max   int     // bounds of the adaptive budget
	CheckEvery int     // events between two looks at the clock
}

// WorkerPace paces the Web Worker: long chunks (it blocks no page), one
// batch message per chunk.
func WorkerPace() Pace {
	return Pace{ChunkMs: 50, First: 50_000, Min: 10_000, Max: 4 << 20, CheckEvery: 1024}
}

// PagePace paces the main-thread fallback: chunks well below a long task
// (> 50 ms), so input and painting go on between them.
func PagePace() Pace {
	return Pace{ChunkMs: 20, First: 20_000, Min: 1000, Max: 2_000_000, CheckEvery: 256}
}

// Slice bounds of simulated time per slice of a batch of runs: a slice of
// a small machine is microseconds of wall time, of a 144-CPU machine
// milliseconds; Slices adapts between them.
const (
	minSlice   = 10 * sched.Microsecond
	maxSlice   = 200 * sched.Millisecond
	firstSlice = sched.Millisecond
)

// Pacer runs the chunks of one run or batch.
type Pacer struct {
	pace   Pace
	now    Clock
	budget int
	slice  sched.Time
	// LastMs is the wall time the last chunk took.
	LastMs float64
}

// NewPacer starts pacing a run with p, timed by now.
func NewPacer(p Pace, now Clock) *Pacer {
	return &Pacer{pace: p, now: now, budget: p.First, slice: firstSlice}
}

// Step steps sim by up to budget events, asking stop (if not nil) every
// every events, and reports whether the run is over (finished, failed, or
// nothing left to run). It is the only event loop of the browser code.
func Step(sim *sched.Sim, budget, every int, stop func() bool) bool {
	for i := 1; i <= budget; i++ {
		if !sim.Step() {
			return true
		}
		if stop != nil && i%every == 0 && stop() {
			break
		}
	}
	return sim.Done()
}

// Events runs one chunk of sim and reports whether the run is over.
func (p *Pacer) Events(sim *sched.Sim) bool {
	t0 := p.now()
	deadline := t0 + p.pace.ChunkMs
	done := Step(sim, p.budget, p.pace.CheckEvery, func() bool { return p.now() > deadline })
	p.LastMs = p.now() - t0
	if p.LastMs > 0 {
		p.budget = int(float64(p.budget) * min(2, p.pace.ChunkMs/p.LastMs))
		p.budget = max(p.pace.Min, min(p.pace.Max, p.budget))
	}
	return done
}

// Queue is a batch of planned runs advanced in slices of simulated time
// ([ThreadRun], [SweepRun]).
type Queue interface {
	Advance(dt sched.Time, stop func() bool) (bool, error)
	Fraction() float64
	Finished() int
	Jobs() int
	Current() string
}

// Slices runs one chunk of q (slices until the chunk's wall time is
// spent) and reports whether every run is done. The slice adapts to aim
// at about a tenth of a chunk.
func (p *Pacer) Slices(q Queue) (bool, error) {
	t0 := p.now()
	slices := 0
	done, err := q.Advance(p.slice, func() bool { slices++; return p.now()-t0 > p.pace.ChunkMs })
	p.LastMs = p.now() - t0
	if slices > 0 {
		switch perSlice := p.LastMs / float64(slices); {
		case perSlice > p.pace.ChunkMs/5:
			p.slice /= 2
		case perSlice < p.pace.ChunkMs/50:
			p.slice *= 2
		}
		p.slice = min(maxSlice, max(minSlice, p.slice))
	}
	return done, err
}
