package runner

// Service: the engine side of the page/worker protocol (wasm/protocol).
// The Web Worker (wasm/worker) feeds it the page's messages; the page
// itself does when it has no worker (the main-thread fallback), so both
// run the same loops: a run streams batches of records and ends with its
// metrics report, an export re-runs the scenario with a trace writer, an
// experiment or a sweep runs its planned jobs, an import parses a trace.
//
// A newer request supersedes the current one (exports have their own
// line, beside runs); a cancel clears it. Each loop asks between two
// chunks whether its request is still current, after yielding to the
// host's event loop (Yield), which is when a cancel or a newer request is
// delivered.

import (
	"fmt"
	"sync"
	"sync/atomic"

	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

// Service runs the requests of one page.
type Service struct {
	pace  Pace
	now   Clock
	yield func()
	post  func(protocol.Message)

	mu sync.Mutex // the worker runs one goroutine at a time; the page's fallback may not
	// current is the request that may proceed; exportCurrent the export.
	current, exportCurrent int

	// The pool's batch this worker planned last (pool.go), by its spec.
	// jobMu runs the pool's jobs one at a time: the page posts a worker
	// its next job before the current one ends (wasm/pool/prefetch.go).
	jobMu       sync.Mutex
	planMu      sync.Mutex
	planned     protocol.BatchSpec
	plannedPlan Batch
	// domains is the sched domain trees of this worker's jobs (under jobMu).
	domains *sched.DomainCache
	// jobsWaiting counts the Job requests not yet started and requests
	// every request but a Warm: a warm-up (warm.go) stops for them.
	jobsWaiting atomic.Int32
	requests    atomic.Int64
}

// NewService makes a service paced by p and timed by now. yield lets the
// host's event loop run; post delivers a message to the page (it must
// copy a Buf it keeps past the call: batch buffers are reused).
func NewService(p Pace, now Clock, yield func(), post func(protocol.Message)) *Service {
	return &Service{pace: p, now: now, yield: yield, post: post, current: -1, exportCurrent: -1,
		domains: sched.NewDomainCache()}
}

// Handle starts or stops what a request asks (an OpenTrace needs its
// file: see OpenTrace). It returns at once; the work runs on goroutines.
func (s *Service) Handle(m protocol.Message) {
	if _, ok := m.(protocol.Warm); !ok {
		s.requests.Add(1)
	}
	switch m := m.(type) {
	case protocol.Run:
		s.setCurrent(m.ID)
		go s.run(m.ID, m.Scenario)
	case protocol.Cancel:
		s.mu.Lock()
		if s.current == m.ID {
			s.current = -1
		}
		s.mu.Unlock()
	case protocol.Export:
		s.mu.Lock()
		s.exportCurrent = m.ID
		s.mu.Unlock()
		go s.export(m.ID, m.Kind, m.Scenario, m.Provenance)
	case protocol.CancelExport:
		s.mu.Lock()
		if s.exportCurrent == m.ID {
			s.exportCurrent = -1
		}
		s.mu.Unlock()
	case protocol.Thread:
		s.setCurrent(m.ID)
		go s.thread(m.ID, m.Scenario, m.Runs)
	case protocol.Sweep:
		s.setCurrent(m.ID)
		go s.sweep(m.ID, m.Scenario, m.Spec)
	case protocol.Job:
		s.setCurrent(m.ID)
		s.jobsWaiting.Add(1)
		go s.queuedJob(m, s.now())
	case protocol.Warm:
		go s.warm(m.BatchSpec)
	case protocol.Evaluate:
		s.setCurrent(m.ID)
		go s.evaluate(m)
	case protocol.Crash:
		go crash()
	}
}

// OpenTrace imports the trace file name of size bytes, read by read,
// as request id.
func (s *Service) OpenTrace(id int, name string, size float64, read func() ([]byte, error)) {
	s.setCurrent(id)
	go s.openTrace(id, name, size, read)
}

func (s *Service) setCurrent(id int) {
	s.mu.Lock()
	s.current = id
	s.mu.Unlock()
}

func (s *Service) isCurrent(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current == id
}

func (s *Service) isExport(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exportCurrent == id
}

// run streams a simulation: a batch after each chunk, then its report.
func (s *Service) run(id int, scenarioJSON string) {
	eng, err := NewEngine([]byte(scenarioJSON))
	if err != nil {
		s.post(protocol.Done{ID: id, Error: err.Error()})
		return
	}
	p := NewPacer(s.pace, s.now)
	for s.isCurrent(id) {
		done := p.Events(eng.Sim)
		t, _ := eng.Sim.Progress()
		buf := eng.Rec.Take()
		s.post(protocol.Batch{ID: id, Now: int64(t), Events: eng.Sim.EventsPopped(), Tasks: eng.NewTasks(), Buf: buf, ChunkMs: p.LastMs})
		eng.Rec.Recycle(buf) // post copied it
		if done {
			m := protocol.Done{ID: id, Report: eng.ReportJSON()}
			if err := eng.Sim.Err(); err != nil {
				m.Error = err.Error()
			}
			s.post(m)
			return
		}
		s.yield()
	}
}

// export re-runs a scenario with a trace writer (export.go), posting the
// fraction done after each chunk and finally the file or the error.
func (s *Service) export(id int, kind, scenarioJSON, provenance string) {
	x, err := NewExport([]byte(scenarioJSON), kind, provenance)
	if err != nil {
		s.post(protocol.ExportError{ID: id, Error: err.Error()})
		return
	}
	p := NewPacer(s.pace, s.now)
	for s.isExport(id) {
		if p.Events(x.Sim) {
			data, err := x.Bytes()
			if err != nil {
				s.post(protocol.ExportError{ID: id, Error: err.Error()})
				return
			}
			s.post(protocol.ExportFile{ID: id, Kind: kind, Buf: data})
			return
		}
		s.post(protocol.ExportProgress{ID: id, Fraction: x.Fraction()})
		s.yield()
	}
}

func (s *Service) thread(id int, scenarioJSON string, runs int) {
	tr, err := NewThread(scenarioJSON, runs)
	if err != nil {
		s.post(protocol.ThreadDone{ID: id, Error: err.Error()})
		return
	}
	s.runQueue(id, tr, tr.ReportJSON,
		func(p protocol.Progress) protocol.Message { return protocol.ThreadProgress{ID: id, Progress: p} },
		func(rep, err string) protocol.Message { return protocol.ThreadDone{ID: id, Report: rep, Error: err} })
}

func (s *Service) sweep(id int, scenarioJSON, specJSON string) {
	sr, err := NewSweep(scenarioJSON, specJSON)
	if err != nil {
		s.post(protocol.SweepDone{ID: id, Error: err.Error()})
		return
	}
	s.runQueue(id, sr, sr.ReportJSON,
		func(p protocol.Progress) protocol.Message { return protocol.SweepProgress{ID: id, Progress: p} },
		func(rep, err string) protocol.Message { return protocol.SweepDone{ID: id, Report: rep, Error: err} })
}

// runQueue runs q chunk by chunk while request id is current, posting
// progress after each chunk and the report (or the error) at the end.
func (s *Service) runQueue(id int, q Queue, report func() (string, error),
	progress func(protocol.Progress) protocol.Message, done func(rep, err string) protocol.Message) {
	p := NewPacer(s.pace, s.now)
	for s.isCurrent(id) {
		finished, err := p.Slices(q)
		if err != nil {
			s.post(done("", err.Error()))
			return
		}
		s.post(progress(protocol.Progress{Fraction: q.Fraction(), Finished: q.Finished(), Total: q.Jobs(), Current: q.Current()}))
		if finished {
			rep, err := report()
			if err != nil {
				s.post(done("", err.Error()))
			} else {
				s.post(done(rep, ""))
			}
			return
		}
		s.yield()
	}
}

// openTrace reads and imports a trace file (trace.go): its header, one
// batch and the report, unless a newer request came meanwhile.
func (s *Service) openTrace(id int, name string, size float64, read func() ([]byte, error)) {
	fail := func(msg string) { s.post(protocol.TraceError{ID: id, Error: msg}) }
	if size > MaxTraceBytes {
		fail(fmt.Sprintf("%s is %.1f MB; the playground opens traces up to %d MB", name, size/1e6, MaxTraceBytes>>20))
		return
	}
	data, err := read()
	if err != nil {
		fail(err.Error())
		return
	}
	res, err := ImportTrace(name, data)
	if err != nil {
		fail(name + ": " + err.Error())
		return
	}
	if !s.isCurrent(id) {
		return // superseded while importing
	}
	s.post(protocol.TraceHeader{ID: id, CPUs: res.NumCPUs, Now: res.Duration, Events: res.Events, Summary: res.Summary, Replay: res.Replay, ReplayTasks: res.ReplayTasks})
	s.post(protocol.Batch{ID: id, Now: res.Duration, Events: res.Events, Tasks: res.Tasks, Buf: res.Records})
	s.post(protocol.Done{ID: id, Report: res.Report})
}
