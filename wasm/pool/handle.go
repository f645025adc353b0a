package pool

// The workers' messages, their failures and the watchdog.

import (
	"fmt"
	"strings"

	"schedplay/wasm/protocol"
)

// Event is what a message or a check changed, for the page.
type Event struct {
	Progress bool   // the batch's progress moved: redraw it
	Forward  bool   // the message is the batch's report (ThreadDone, SweepDone): the page applies it
	Err      string // the batch failed with this error (its jobs are stopped)
	Recycle0 bool   // slot 0's heap is over the limit: the host replaces it when it is idle (Recycle)
}

// Handle applies message m of slot i's worker of generation gen.
func (p *Pool) Handle(i, gen int, m protocol.Message) Event {
	if i < 0 || i >= len(p.slots) || gen != p.slots[i].gen {
		return Event{} // a replaced worker's last words
	}
	s := p.slots[i]
	r := p.run
	now := p.cfg.Now()
	switch m := m.(type) {
	case protocol.Heap:
		if m.Bytes > p.cfg.HeapLimit {
			if i == 0 {
				return Event{Recycle0: true}
			}
			s.recyle = true
			p.recycleIdle()
		}
	case protocol.JobProgress:
		if r == nil || r.over || m.ID != r.ID || s.job != m.Index {
			return Event{}
		}
		s.heard, s.frac, s.spoke = now, m.Fraction, true
		return Event{Progress: true}
	case protocol.JobDone:
		if r == nil || r.over || m.ID != r.ID || (s.job != m.Index && s.next != m.Index) {
			return Event{}
		}
		began := s.began
		if s.job == m.Index {
			s.promote(now) // the prefetched job, if any, runs now (prefetch.go)
		} else {
			s.next, began = -1, now-m.WorkMs // the prefetched one ran first
		}
		if m.Error != "" {
			p.fail(r, m.Error)
			return Event{Err: m.Error}
		}
		r.results[m.Index] = m.Result
		r.ndone++
		r.doneW += r.Outline.Weights[m.Index]
		r.workMs += now - began
		r.acct.jobDone(i, m.Index, began, now, m.WorkMs, m.PlanMs, m.WaitMs)
		r.ord.measured(m.Index, r.Outline.Weights[m.Index], m.WorkMs-m.PlanMs)
		r.order() // the longest expected first, with what this job's time taught (order.go)
		if r.ndone == len(r.results) {
			r.acct.allDone = now
		}
		if s.recyle && !s.busy() {
			p.replace(i)
		}
		p.recycleIdle() // a slot beyond a smaller size stops
		p.dispatch()
		if r.over {
			return Event{Err: r.Err}
		}
		return Event{Progress: true}
	case protocol.ThreadDone, protocol.SweepDone:
		if r == nil || r.over || !s.eval || doneID(m) != r.ID {
			return Event{}
		}
		s.eval = false
		if w, ms := p.work(); w > 0 && ms > 0 {
			p.last = ms / w
		}
		p.stats, p.jobMs = r.acct.finish(r.start, now), r.acct.jobMs
		r.over = true
		p.run = nil
		p.recycleIdle()
		return Event{Forward: true}
	}
	return Event{}
}

func doneID(m protocol.Message) int {
	switch m := m.(type) {
	case protocol.ThreadDone:
		return m.ID
	case protocol.SweepDone:
		return m.ID
	}
	return -1
}

// Failed reports that slot i's worker of generation gen died (a fatal
// message, an error event, a failed post): it is replaced, and the job it
// held is retried once on another worker.
func (p *Pool) Failed(i, gen int, why string) Event {
	if i < 0 || i >= len(p.slots) || gen != p.slots[i].gen {
		return Event{}
	}
	s := p.slots[i]
	job, next, eval := s.job, s.next, s.eval
	s.job, s.next, s.eval = -1, -1, false
	p.replace(i)
	r := p.run
	if r == nil || r.over {
		p.note(fmt.Sprintf("worker %d failed (%s); it was replaced", i+1, why))
		return Event{}
	}
	if next >= 0 {
		r.queue.putFront(next) // never started: back in the queue, no try counted
	}
	switch {
	case job >= 0:
		label := r.Outline.Labels[job]
		r.tries[job]++
		if r.tries[job] >= 2 {
			err := fmt.Sprintf("run %s failed on two workers (last: worker %d: %s)", label, i+1, why)
			p.note(fmt.Sprintf("worker %d failed (%s) running %s a second time; the batch stops", i+1, why, label))
			p.fail(r, err)
			return Event{Err: err}
		}
		p.note(fmt.Sprintf("worker %d failed (%s); retrying %s on another worker", i+1, why, label))
		r.avoid[job] = i
		r.queue.putFront(job)
	case eval:
		p.note(fmt.Sprintf("worker %d failed (%s) while evaluating; evaluating on another worker", i+1, why))
		r.evalAt = -1
	default:
		p.note(fmt.Sprintf("worker %d failed (%s); it was replaced", i+1, why))
	}
	p.dispatch()
	if r.over {
		return Event{Err: r.Err}
	}
	return Event{Progress: true}
}

// Check is the watchdog: a worker silent for StallMs while it holds a job
// (StartMs before its first answer, or while it evaluates) is taken for
// dead.
func (p *Pool) Check() Event {
	now := p.cfg.Now()
	var ev Event
	for i, s := range p.slots {
		limit := p.cfg.StallMs
		if !s.spoke {
			limit = p.cfg.StartMs
		}
		if s.busy() && now-s.heard > limit {
			e := p.Failed(i, s.gen, fmt.Sprintf("no answer for %.0f s", (now-s.heard)/1000))
			ev.Progress = ev.Progress || e.Progress
			if e.Err != "" {
				ev.Err = e.Err
			}
		}
	}
	return ev
}

// replace stops slot i's worker and starts a fresh one (warm for the next
// job or run).
func (p *Pool) replace(i int) {
	s := p.slots[i]
	if s.w != nil {
		s.w.Terminate()
		s.w = nil
	}
	s.recyle = false
	if i < p.size {
		p.ensure(i)
	}
}

// Recycle replaces slot i's worker now (the host calls it for slot 0 when
// its timeline worker is idle; see Event.Recycle0).
func (p *Pool) Recycle(i int) {
	if i >= 0 && i < len(p.slots) && !p.slots[i].busy() {
		p.replace(i)
	}
}

// recycleIdle replaces the idle workers marked for it and stops those
// beyond the pool's size.
func (p *Pool) recycleIdle() {
	for i, s := range p.slots {
		if s.busy() || s.w == nil {
			continue
		}
		if i >= p.size {
			s.w.Terminate()
			s.w = nil
		} else if s.recyle {
			p.replace(i)
		}
	}
}

// Progress is where the batch in progress stands: runs done, the share of
// the work (weighted as the outline weighs the jobs) and the runs in
// progress.
func (p *Pool) Progress() protocol.Progress {
	r := p.run
	if r == nil {
		return protocol.Progress{}
	}
	total := r.total
	w := r.doneW
	var cur []string
	for _, s := range p.slots {
		if s.job >= 0 {
			w += r.Outline.Weights[s.job] * s.frac
			cur = append(cur, r.Outline.Labels[s.job])
		}
	}
	f := 1.0
	if total > 0 {
		f = min(1, w/total)
	}
	return protocol.Progress{Fraction: f, Finished: r.ndone, Total: len(r.results), Current: strings.Join(cur, "; ")}
}

// Jobs is the job index each slot runs (-1: idle; the evaluation counts
// as idle), for the page's probe.
func (p *Pool) Jobs() []int {
	out := make([]int, len(p.slots))
	for i, s := range p.slots {
		out[i] = s.job
	}
	return out
}

// Spare is a started worker of a slot other than 0 with no job, for work
// beside a batch (a trace export's re-run), or slot 0's when there is
// none.
func (p *Pool) Spare() (int, Worker) {
	for i := 1; i < p.size; i++ {
		if s := p.slots[i]; s.w != nil && !s.busy() {
			return i, s.w
		}
	}
	return 0, p.slots[0].w
}

// WorkerOf is slot i's worker (nil if it has none).
func (p *Pool) WorkerOf(i int) Worker {
	if i < 0 || i >= len(p.slots) {
		return nil
	}
	return p.slots[i].w
}

// Spoke reports, per slot, whether its worker has answered since its job
// was posted (the watchdog's short limit applies), for the page's probe.
func (p *Pool) Spoke() []bool {
	out := make([]bool, len(p.slots))
	for i, s := range p.slots {
		out[i] = s.busy() && s.spoke
	}
	return out
}
