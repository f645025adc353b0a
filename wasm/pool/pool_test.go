package pool

// The pool against fake workers: jobs go one per worker from one queue,
// heaviest first and in plan order among equals (order_test.go: by measured speed); results are gathered by job index whatever order they
// finish in; a failed or silent worker is replaced and its job retried
// once on another; cancel stops every busy worker; the time left follows
// the measured speed.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"schedplay/wasm/outline"
	"schedplay/wasm/protocol"
)

type fakeWorker struct {
	slot, n int
	got     []protocol.Message
	dead    bool
}

func (w *fakeWorker) Post(m protocol.Message) error {
	if w.dead {
		return fmt.Errorf("terminated")
	}
	w.got = append(w.got, m)
	return nil
}
func (w *fakeWorker) Terminate() { w.dead = true }

type harness struct {
	p       *Pool
	clock   float64
	workers []*fakeWorker // every worker spawned, in order
}

func newHarness(size, jobs int) *harness {
	h := &harness{}
	h.p = New(Config{Now: func() float64 { return h.clock }, Spawn: func(i int) (Worker, error) {
		w := &fakeWorker{slot: i, n: len(h.workers)}
		h.workers = append(h.workers, w)
		return w, nil
	}}, size)
	var o outline.Outline
	for i := range jobs {
		o.Weights = append(o.Weights, 10)
		o.Labels = append(o.Labels, fmt.Sprintf("cfg, seed %d", i))
	}
	if err := h.p.Start(7, protocol.BatchSpec{Kind: protocol.KindThread, Scenario: "{}"}, o); err != nil {
		panic(err)
	}
	return h
}

// live is slot i's current worker.
func (h *harness) live(i int) *fakeWorker { return h.p.slots[i].w.(*fakeWorker) }

// lastJob is the job index last posted to w (-1 if none).
func lastJob(w *fakeWorker) int {
	for k := len(w.got) - 1; k >= 0; k-- {
		if j, ok := w.got[k].(protocol.Job); ok {
			return j.Index
		}
	}
	return -1
}

func (h *harness) finish(i, job int) Event {
	return h.p.Handle(i, h.p.Gen(i), protocol.JobDone{ID: 7, Index: job, Result: fmt.Sprintf("r%d", job)})
}

// lastEvaluate is the Evaluate request the last message of a worker
// carried (the pool evaluates on one worker once every job is in).
func (h *harness) lastEvaluate() protocol.Evaluate {
	var ev protocol.Evaluate
	for i := range h.p.slots {
		w := h.p.slots[i].w.(*logWorker)
		if e, ok := w.got[len(w.got)-1].(protocol.Evaluate); ok {
			ev = e
		}
	}
	return ev
}

func TestResultsGatheredByIndex(t *testing.T) {
	h := newHarness(2, 4)
	if a, b := lastJob(h.live(0)), lastJob(h.live(1)); a != 0 || b != 1 {
		t.Fatalf("first jobs %d, %d: want 0 and 1 (plan order)", a, b)
	}
	h.clock = 100
	h.finish(1, 1) // the second worker finishes first and takes job 2
	if j := lastJob(h.live(1)); j != 2 {
		t.Fatalf("worker 2 took job %d, want 2", j)
	}
	h.finish(1, 2)
	h.finish(1, 3)
	if p := h.p.Progress(); p.Finished != 3 || p.Total != 4 || p.Current != "cfg, seed 0" {
		t.Fatalf("progress %+v", p)
	}
	h.finish(0, 0)
	ev, ok := h.live(0).got[len(h.live(0).got)-1].(protocol.Evaluate)
	if !ok {
		ev, ok = h.live(1).got[len(h.live(1).got)-1].(protocol.Evaluate)
	}
	var res []string
	if !ok || json.Unmarshal([]byte(ev.Results), &res) != nil || !reflect.DeepEqual(res, []string{"r0", "r1", "r2", "r3"}) {
		t.Fatalf("evaluation %+v: want the results in plan order", ev)
	}
	at := h.p.run.evalAt
	if e := h.p.Handle(at, h.p.Gen(at), protocol.ThreadDone{ID: 7, Report: "{}"}); !e.Forward || h.p.Active() != nil {
		t.Fatalf("the report: %+v, active %v", e, h.p.Active())
	}
	// Jobs 0 and 1 ran from 0 to 100, jobs 2 and 3 were posted and done
	// at 100: 4 jobs of weight 10 in 200 ms of worker time.
	if v := h.p.LastSpeed(); v != 200.0/40 {
		t.Fatalf("last speed %v ms per weight, want 5", v)
	}
}

func TestFailedWorkerRetriedOnAnother(t *testing.T) {
	h := newHarness(2, 3)
	first := h.live(0)
	e := h.p.Failed(0, h.p.Gen(0), "panic: boom")
	if e.Err != "" || !first.dead {
		t.Fatalf("first failure: %+v, worker terminated %v", e, first.dead)
	}
	notes := strings.Join(h.p.TakeNotes(), "\n")
	if !strings.Contains(notes, "worker 1 failed (panic: boom); retrying cfg, seed 0 on another worker") {
		t.Fatalf("notes %q", notes)
	}
	// The replacement of slot 0 must not take job 0 back while slot 1 exists.
	if j := lastJob(h.live(0)); j == 0 {
		t.Fatal("job 0 retried on the slot it failed on")
	}
	h.finish(1, 1) // slot 1 is free: it takes the retried job 0
	if j := lastJob(h.live(1)); j != 0 {
		t.Fatalf("slot 2 took job %d after its first, want the retried 0", j)
	}
	// A stale message of the dead worker changes nothing.
	if e := h.p.Handle(0, h.p.Gen(0)-1, protocol.JobDone{ID: 7, Index: 0, Result: "stale"}); e != (Event{}) {
		t.Fatalf("stale message: %+v", e)
	}
	// The second failure of job 0 ends the batch.
	h.clock = 50
	e = h.p.Failed(1, h.p.Gen(1), "the engine stopped (exit code 2)")
	if !strings.Contains(e.Err, "run cfg, seed 0 failed on two workers") || h.p.Active() != nil {
		t.Fatalf("second failure: %+v", e)
	}
}

func TestWatchdogAndCancel(t *testing.T) {
	h := newHarness(2, 4)
	h.clock = 5000
	h.p.Handle(0, h.p.Gen(0), protocol.JobProgress{ID: 7, Index: 0, Fraction: 0.5})
	h.p.Handle(1, h.p.Gen(1), protocol.JobProgress{ID: 7, Index: 1, Fraction: 0.1})
	h.clock = 6000
	h.p.Handle(0, h.p.Gen(0), protocol.JobProgress{ID: 7, Index: 0, Fraction: 0.6})
	h.clock = 5000 + DefaultStallMs + 1000 // slot 1 silent since 5000, slot 0 heard at 6000
	silent := h.live(1)
	h.p.Check()
	if !silent.dead || h.live(0).dead {
		t.Fatal("the watchdog should replace the silent worker only")
	}
	if n := strings.Join(h.p.TakeNotes(), ""); !strings.Contains(n, "no answer for 16 s") {
		t.Fatalf("notes %q", n)
	}
	// The replacement has not answered yet: it has DefaultStartMs (start-up
	// and planning) before the watchdog takes it for dead.
	fresh := h.live(1)
	h.clock += DefaultStallMs * 2
	h.p.Handle(0, h.p.Gen(0), protocol.JobProgress{ID: 7, Index: 0, Fraction: 0.7})
	h.p.Check()
	if fresh.dead {
		t.Fatal("a worker still starting was taken for dead")
	}
	busy := []*fakeWorker{h.live(0), h.live(1)}
	h.p.Cancel()
	for _, w := range busy {
		if c, ok := w.got[len(w.got)-1].(protocol.Cancel); !ok || c.ID != 7 {
			t.Fatalf("worker %d: last message %+v, want the cancel", w.n, w.got[len(w.got)-1])
		}
	}
	if e := h.finish(0, 0); e != (Event{}) || h.p.Active() != nil {
		t.Fatalf("a job done after the cancel: %+v", e)
	}
}

func TestJobErrorEndsBatch(t *testing.T) {
	h := newHarness(2, 4)
	e := h.p.Handle(1, h.p.Gen(1), protocol.JobDone{ID: 7, Index: 1, Error: "x: cfg, seed 1: run stopped"})
	if e.Err != "x: cfg, seed 1: run stopped" || h.p.Active() != nil {
		t.Fatalf("%+v", e)
	}
	if c, ok := h.live(0).got[len(h.live(0).got)-1].(protocol.Cancel); !ok || c.ID != 7 {
		t.Fatal("the other worker's job was not cancelled")
	}
}

func TestTimeLeft(t *testing.T) {
	h := newHarness(2, 4) // 4 jobs of weight 10 on 2 workers
	if ms, ok := h.p.Left(0); ok {
		t.Fatalf("time left %v with no speed known", ms)
	}
	if ms, _ := h.p.Left(50); ms != 4*10*50/2 {
		t.Fatalf("prior: %v ms left, want %v", ms, 4*10*50/2)
	}
	// Measured: each worker did half a job (5 weight) in 1000 ms: 200 ms per weight.
	h.clock = 1000
	h.p.Handle(0, h.p.Gen(0), protocol.JobProgress{ID: 7, Index: 0, Fraction: 0.5})
	h.p.Handle(1, h.p.Gen(1), protocol.JobProgress{ID: 7, Index: 1, Fraction: 0.5})
	if ms, _ := h.p.Left(50); ms != 30*200/2 {
		t.Fatalf("measured: %v ms left, want %v", ms, 30*200/2)
	}
	if e := Estimate(h.p.run.Outline, 8, 100); e != 40*100/4 {
		t.Fatalf("estimate on 8 workers of 4 jobs %v: want the jobs' count as the parallelism", e)
	}
}

func TestResizeAndHeap(t *testing.T) {
	h := newHarness(3, 2)
	if h.p.slots[2].w != nil {
		t.Fatal("a worker started for a slot with no job")
	}
	h.p.Resize(1)
	if h.live(1).dead {
		t.Fatal("a busy worker stopped by a resize")
	}
	h.finish(1, 1)
	if h.p.slots[1].w != nil && !h.live(1).dead {
		t.Fatal("a worker beyond the size kept after its job")
	}
	old := h.live(0)
	if e := h.p.Handle(0, h.p.Gen(0), protocol.Heap{Bytes: DefaultHeapLimit + 1}); !e.Recycle0 {
		t.Fatalf("slot 0 heap over the limit: %+v", e)
	}
	h.finish(0, 0)
	h.p.Recycle(0) // busy evaluating: not yet
	if old.dead {
		t.Fatal("slot 0 recycled while it evaluates")
	}
	h.p.Handle(0, h.p.Gen(0), protocol.ThreadDone{ID: 7, Report: "{}"})
	h.p.Recycle(0)
	if !old.dead || h.live(0) == old {
		t.Fatal("slot 0 not recycled")
	}
}

func TestSpareWorker(t *testing.T) {
	h := newHarness(3, 2) // jobs on slots 0 and 1, slot 2 not started
	if i, _ := h.p.Spare(); i != 0 {
		t.Fatalf("spare slot %d with no idle started worker: want 0", i)
	}
	h.p.Warm()
	if i, w := h.p.Spare(); i != 2 || w != h.p.WorkerOf(2) {
		t.Fatalf("spare slot %d: want the warmed slot 2", i)
	}
}

func TestHeaviestJobsFirst(t *testing.T) {
	var posted []int // every job posted, in order, whichever worker
	h := &harness{}
	h.p = New(Config{Now: func() float64 { return h.clock }, Spawn: func(i int) (Worker, error) {
		w := &logWorker{fakeWorker: fakeWorker{slot: i, n: len(h.workers)}, log: &posted}
		h.workers = append(h.workers, &w.fakeWorker)
		return w, nil
	}}, 2)
	o := outline.Outline{Weights: []float64{1, 5, 3, 5, 1}, Labels: []string{"a", "b", "c", "d", "e"}}
	if err := h.p.Start(7, protocol.BatchSpec{Kind: protocol.KindThread, Scenario: "{}"}, o); err != nil {
		t.Fatal(err)
	}
	for h.p.run.ndone < 5 {
		h.finish(0, h.p.slots[0].job)
		if h.p.slots[0].job < 0 {
			h.finish(1, h.p.slots[1].job)
		}
	}
	if want := []int{1, 3, 2, 0, 4}; !reflect.DeepEqual(posted, want) {
		t.Fatalf("jobs posted in order %v, want %v (heaviest first, plan order among equals)", posted, want)
	}
	ev := h.lastEvaluate()
	var res []string
	if json.Unmarshal([]byte(ev.Results), &res) != nil || !reflect.DeepEqual(res, []string{"r0", "r1", "r2", "r3", "r4"}) {
		t.Fatalf("evaluation %+v: want the results in plan order", ev)
	}
}

// logWorker is a fakeWorker that also logs the jobs posted to it in a
// log shared by the pool's workers.
type logWorker struct {
	fakeWorker
	log *[]int
}

func (w *logWorker) Post(m protocol.Message) error {
	if j, ok := m.(protocol.Job); ok && !w.dead {
		*w.log = append(*w.log, j.Index)
	}
	return w.fakeWorker.Post(m)
}

// TestPrefetch: while more jobs are pending than workers, each busy
// worker is posted its next job at once; the next job runs when the
// current one's result comes back, a failed worker's prefetched job goes
// back to the queue untried, and the last jobs are not prefetched.
func TestPrefetch(t *testing.T) {
	h := newHarness(2, 7)
	w0, w1 := h.live(0), h.live(1)
	if len(w0.got) != 2 || len(w1.got) != 2 || h.p.slots[0].next != 2 || h.p.slots[1].next != 3 {
		t.Fatalf("posted %v and %v: want jobs 0, 2 and 1, 3", w0.got, w1.got)
	}
	h.clock = 100
	h.finish(0, 0) // slot 0 runs job 2 now; 3 jobs pending > 2 workers: job 4 is prefetched
	if s := h.p.slots[0]; s.job != 2 || s.next != 4 || s.began != 100 || !s.spoke {
		t.Fatalf("slot 0: job %d, next %d, began %v, spoke %v; want 2, 4, 100, true", s.job, s.next, s.began, s.spoke)
	}
	if p := h.p.Progress(); p.Current != "cfg, seed 2; cfg, seed 1" {
		t.Fatalf("progress names %q", p.Current)
	}
	// Slot 1 dies with job 1 running and job 3 behind it: 1 is retried
	// (first), 3 goes back to the queue with no try counted.
	h.p.Failed(1, h.p.Gen(1), "boom")
	if h.p.run.tries[1] != 1 || h.p.run.tries[3] != 0 {
		t.Fatalf("tries %v", h.p.run.tries)
	}
	// The queue is [1 3 5 6]; the replacement of slot 1 skips job 1 (it
	// failed there) and takes 3, with 5 behind it (3 still pending).
	if s := h.p.slots[1]; s.job != 3 || s.next != 5 {
		t.Fatalf("slot 1 after its failure: job %d, next %d; want 3, 5", s.job, s.next)
	}
	// No more prefetch once the queue is no longer than the pool.
	h.finish(0, 2)
	h.finish(0, 4)
	h.finish(1, 3)
	for _, s := range h.p.slots {
		if s.next >= 0 && h.p.run.queue.n < 2 {
			t.Fatalf("a job prefetched with %d pending", h.p.run.queue.n)
		}
	}
	for h.p.run.ndone < 7 {
		for i := range 2 {
			if j := h.p.slots[i].job; j >= 0 {
				h.finish(i, j)
			}
		}
	}
	if h.p.run.evalAt < 0 {
		t.Fatal("no evaluation after every job")
	}

	// A worker whose heap grew is not posted a next job: it goes idle
	// after its job and is replaced.
	h = newHarness(2, 8)
	h.p.Handle(1, h.p.Gen(1), protocol.Heap{Bytes: DefaultHeapLimit + 1})
	old := h.live(1)
	h.finish(1, 1) // its prefetched job 3 runs; nothing behind it
	if s := h.p.slots[1]; s.job != 3 || s.next >= 0 {
		t.Fatalf("slot 1 over its heap limit: job %d, next %d; want 3 and none", s.job, s.next)
	}
	h.finish(1, 3)
	if !old.dead || h.live(1) == old || h.p.slots[1].job < 0 {
		t.Fatal("the worker over its heap limit was not replaced when idle, or the new one got no job")
	}
}

// TestStatsAccountTheWallTime: the workers' wall time splits into their
// work, the round trips, the tail and the evaluation, with nothing left.
func TestStatsAccountTheWallTime(t *testing.T) {
	h := newHarness(2, 3)
	done := func(i, job int, work, plan float64) {
		h.p.Handle(i, h.p.Gen(i), protocol.JobDone{ID: 7, Index: job, Result: "r", WorkMs: work, PlanMs: plan})
	}
	h.clock = 100
	done(0, 0, 90, 20) // slot 0 takes job 2 at 100
	h.clock = 150
	h.p.Handle(1, h.p.Gen(1), protocol.JobDone{ID: 7, Index: 1, Result: "r", WorkMs: 140, PlanMs: 30, WaitMs: 4}) // waited 4 ms in its worker
	h.clock = 220
	done(0, 2, 110, 0) // the last job: the evaluation is posted at 220
	at := h.p.run.evalAt
	h.clock = 250
	if e := h.p.Handle(at, h.p.Gen(at), protocol.ThreadDone{ID: 7, Report: "{}"}); !e.Forward {
		t.Fatalf("the report was not forwarded: %+v", e)
	}
	want := Stats{Workers: 2, Jobs: 3, WallMs: 250, WorkMs: 340, PlanMs: 50, TripMs: 30, FirstTripMs: 20, FirstWaitMs: 4, TailMs: 70, EvalMs: 30}
	if got := h.p.LastStats(); got != want || got.Other() != 0 {
		t.Fatalf("stats %+v (other %v), want %+v", got, got.Other(), want)
	}
	if got := h.p.LastJobMs(); !slices.Equal(got, []float64{70, 110, 110}) {
		t.Fatalf("per-job worker times %v, want [70 110 110] (planning apart, by job index)", got)
	}
}
