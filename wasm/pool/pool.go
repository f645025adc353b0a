package pool

// Pool: the slots (one worker each), the batch in progress and the
// dispatch of its jobs.

import (
	"encoding/json"
	"fmt"

	"schedplay/wasm/outline"
	"schedplay/wasm/protocol"
)

// Worker is one pool worker as the pool drives it.
type Worker interface {
	Post(protocol.Message) error
	Terminate()
}

// Config is what the pool needs of its host.
type Config struct {
	// Spawn starts a worker for slot i (a replacement when one failed or
	// was recycled); its messages come back through Handle(i, ...).
	Spawn func(slot int) (Worker, error)
	Now   func() float64 // wall clock, ms
	// StallMs is how long a worker holding a job may stay silent before
	// it is taken for dead (0: DefaultStallMs), once it has answered;
	// StartMs before its first answer for the job (0: DefaultStartMs): a
	// fresh worker instantiates its WASM and plans the batch first.
	StallMs, StartMs float64
	// HeapLimit is the heap (bytes) over which an idle worker is replaced
	// by a fresh one (0: DefaultHeapLimit).
	HeapLimit float64
}

const (
	// DefaultStallMs: workers post a job's progress every 250 ms at most
	// (wasm/runner/pool.go); a silence this long is a dead or hung
	// worker, even on a loaded machine.
	DefaultStallMs = 15000
	// DefaultStartMs: a worker's start-up and planning on a loaded
	// machine, with a wide margin.
	DefaultStartMs = 120000
	// DefaultHeapLimit: the wasm memory a worker may keep between runs.
	DefaultHeapLimit = 512 << 20
	// MaxSize bounds the pool (and the setting).
	MaxSize = 16
)

// Pool is the page's worker pool.
type Pool struct {
	cfg   Config
	size  int
	slots []*slot
	run   *Run
	// Notes are the failures and recoveries to report, oldest first
	// (TakeNotes empties it).
	notes []string
	last  float64   // the speed of the last batch that finished (estimate.go)
	stats Stats     // the time accounting of the last batch that finished (stats.go)
	jobMs []float64 // its jobs' worker times, by index (stats.go)
}

type slot struct {
	w      Worker
	gen    int     // counts the workers this slot had: a message carries the gen it came from
	job    int     // job index in progress, -1 when idle
	next   int     // job index posted behind it (prefetch.go), -1 when none
	eval   bool    // evaluating the batch
	heard  float64 // last message while busy (the watchdog's)
	spoke  bool    // the worker has answered since its job was posted
	began  float64 // when the job was posted
	frac   float64 // the job's progress
	recyle bool    // replace when idle (its heap grew over the limit)
	// warmed is the batch worker warmedGen last warmed up on (warm.go).
	warmed    protocol.BatchSpec
	warmedGen int
}

// New makes a pool of size workers (at least 1); none is started until
// a batch needs it or Warm is called, except slot 0 if the host sets it
// (SetWorker).
func New(cfg Config, size int) *Pool {
	if cfg.StallMs == 0 {
		cfg.StallMs = DefaultStallMs
	}
	if cfg.StartMs == 0 {
		cfg.StartMs = DefaultStartMs
	}
	if cfg.HeapLimit == 0 {
		cfg.HeapLimit = DefaultHeapLimit
	}
	p := &Pool{cfg: cfg}
	p.Resize(size)
	return p
}

// Size is the number of workers the pool runs batches on.
func (p *Pool) Size() int { return p.size }

// Resize sets the pool's size (clamped to 1..MaxSize); workers beyond it
// stop when idle (at once if they are).
func (p *Pool) Resize(n int) {
	p.size = max(1, min(MaxSize, n))
	for len(p.slots) < p.size {
		p.slots = append(p.slots, &slot{job: -1, next: -1})
	}
	for i := p.size; i < len(p.slots); i++ {
		if s := p.slots[i]; s.w != nil && !s.busy() {
			s.w.Terminate()
			s.w = nil
		}
	}
}

// SetWorker gives slot i a worker the host started (slot 0: the page's
// timeline worker) with generation gen.
func (p *Pool) SetWorker(i int, w Worker) int {
	s := p.slots[i]
	s.w = w
	s.gen++
	return s.gen
}

// Gen is slot i's current worker generation (messages of older ones are
// stale).
func (p *Pool) Gen(i int) int {
	if i < 0 || i >= len(p.slots) {
		return -1
	}
	return p.slots[i].gen
}

func (s *slot) busy() bool { return s.job >= 0 || s.eval }

// Warm starts every slot's worker that is not running, so that the next
// batch does not pay their start-up.
func (p *Pool) Warm() {
	for i := 0; i < p.size; i++ {
		p.ensure(i)
	}
}

// ensure starts slot i's worker if it has none; false if it cannot.
func (p *Pool) ensure(i int) bool {
	s := p.slots[i]
	if s.w != nil {
		return true
	}
	w, err := p.cfg.Spawn(i)
	if err != nil {
		p.note(fmt.Sprintf("worker %d could not start: %v", i+1, err))
		return false
	}
	s.w = w
	s.gen++
	return true
}

func (p *Pool) note(s string) { p.notes = append(p.notes, s) }

// TakeNotes returns the failures reported since the last call.
func (p *Pool) TakeNotes() []string {
	n := p.notes
	p.notes = nil
	return n
}

// Run is a batch on the pool.
type Run struct {
	ID      int
	Spec    protocol.BatchSpec
	Outline outline.Outline
	results []string
	queue   queue // job indices not yet handed out, longest expected first (retries first; order.go, queue.go)
	tries   []int // failed attempts per job
	avoid   []int // the slot a job failed on (-1: none)
	ndone   int
	doneW   float64
	total   float64 // the outline's Total, summed once (Progress and Left run per message)
	start   float64
	workMs  float64 // worker time spent on the finished jobs
	evalAt  int     // the slot evaluating, -1 before
	Err     string  // set when the batch failed
	over    bool
	acct    runStats
	ord     runOrder // the jobs' configurations and measured speeds (order.go)
}

// Start runs batch spec (with its outline: one weight and label per job)
// as request id on the pool, superseding any batch in progress.
func (p *Pool) Start(id int, spec protocol.BatchSpec, o outline.Outline) error {
	p.Cancel()
	n := len(o.Weights)
	if n == 0 {
		return fmt.Errorf("%s: no runs planned", spec.Kind)
	}
	r := &Run{ID: id, Spec: spec, Outline: o, results: make([]string, n), tries: make([]int, n),
		avoid: make([]int, n), start: p.cfg.Now(), total: o.Total(), evalAt: -1, acct: newRunStats(p.size, n), ord: newRunOrder(o.Configs, n)}
	for i := range n {
		r.avoid[i] = -1
	}
	r.queue = newQueue(r) // heaviest first until speeds are measured (order.go)
	p.run = r
	p.dispatch()
	if !r.over && !p.anyBusy() {
		p.fail(r, "no worker could start")
		return fmt.Errorf("%s", r.Err)
	}
	return nil
}

// Active is the batch in progress (nil if none).
func (p *Pool) Active() *Run {
	if p.run == nil || p.run.over {
		return nil
	}
	return p.run
}

// Cancel stops the batch in progress: every busy worker is told to stop
// (it does at its next chunk) and is free for the next request at once.
func (p *Pool) Cancel() {
	r := p.run
	if r == nil {
		return
	}
	for _, s := range p.slots {
		if s.busy() && s.w != nil {
			s.w.Post(protocol.Cancel{ID: r.ID})
		}
		s.job, s.next, s.eval = -1, -1, false
	}
	r.over = true
	p.run = nil
	p.recycleIdle()
}

// dispatch hands pending jobs to idle slots, then the evaluation when
// every job is in.
func (p *Pool) dispatch() {
	r := p.run
	if r == nil || r.over {
		return
	}
	for i := 0; i < p.size && r.queue.n > 0; i++ {
		s := p.slots[i]
		if s.busy() || !p.ensure(i) {
			continue
		}
		job := p.pick(r, i)
		if job < 0 {
			continue
		}
		s.job, s.frac, s.began, s.heard, s.spoke = job, 0, p.cfg.Now(), p.cfg.Now(), false
		if err := s.w.Post(protocol.Job{ID: r.ID, BatchSpec: r.Spec, Index: job}); err != nil {
			p.Failed(i, s.gen, err.Error())
			return
		}
	}
	if !p.prefetch(r) {
		return
	}
	if r.ndone == len(r.results) && r.evalAt < 0 {
		p.evaluate(r)
	}
}

// pick takes the first pending job slot i may take (a retried job avoids
// the slot it failed on while another slot exists); -1 if none.
func (p *Pool) pick(r *Run, i int) int {
	return r.take(func(job int) bool { return r.avoid[job] != i || p.size == 1 })
}

func (p *Pool) evaluate(r *Run) {
	for i := 0; i < p.size; i++ {
		s := p.slots[i]
		if s.busy() || !p.ensure(i) {
			continue
		}
		all, _ := json.Marshal(r.results)
		s.eval, s.heard, s.spoke = true, p.cfg.Now(), false
		r.evalAt, r.acct.evalPost = i, p.cfg.Now()
		if err := s.w.Post(protocol.Evaluate{ID: r.ID, BatchSpec: r.Spec, Results: string(all)}); err != nil {
			p.Failed(i, s.gen, err.Error())
		}
		return
	}
}

func (p *Pool) anyBusy() bool {
	for _, s := range p.slots {
		if s.busy() {
			return true
		}
	}
	return false
}

func (p *Pool) fail(r *Run, err string) {
	r.Err, r.over = err, true
	for _, s := range p.slots {
		if s.busy() && s.w != nil {
			s.w.Post(protocol.Cancel{ID: r.ID})
		}
		s.job, s.next, s.eval = -1, -1, false
	}
}
