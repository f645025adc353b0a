package runner

// The pool's requests against the single-worker ones: a thread
// experiment and a sweep whose jobs ran on two services in an order
// unlike the plan's (interleaved, last first), evaluated by a third that
// ran none, give the report bytes of one service running the whole
// batch; the outline's weights and labels are the plan's; bad requests
// are error messages.

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/outline"
	"schedplay/wasm/protocol"
)

// poolReport runs every job of b on two services, last job first,
// alternating, and evaluates the results on a third.
func poolReport(t *testing.T, b protocol.BatchSpec, jobs int) protocol.Message {
	t.Helper()
	workers := []*testService{newTestService(WorkerPace()), newTestService(WorkerPace())}
	results := make([]string, jobs)
	for k := 0; k < jobs; k++ {
		i := jobs - 1 - k
		w := workers[k%2]
		w.got = nil
		w.setCurrent(40 + k)
		w.job(protocol.Job{ID: 40 + k, BatchSpec: b, Index: i})
		last, ok := w.got[len(w.got)-1].(protocol.JobDone)
		if !ok || last.Error != "" || last.Index != i || last.ID != 40+k {
			t.Fatalf("job %d: last message %+v", i, w.got[len(w.got)-1])
		}
		for _, m := range w.got[:len(w.got)-1] {
			if p, ok := m.(protocol.JobProgress); !ok || p.Index != i || p.Fraction < 0 || p.Fraction > 1 {
				t.Fatalf("job %d: %+v, want its progress", i, m)
			}
		}
		results[i] = last.Result
	}
	all, _ := json.Marshal(results)
	ev := newTestService(WorkerPace())
	ev.setCurrent(99)
	ev.evaluate(protocol.Evaluate{ID: 99, BatchSpec: b, Results: string(all)})
	if len(ev.got) != 1 {
		t.Fatalf("evaluate: %+v", ev.got)
	}
	return ev.got[0]
}

func TestPoolThreadMatchesOneWorker(t *testing.T) {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 100 * sched.Millisecond
	b := protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode()), Runs: 2}
	one := newTestService(WorkerPace())
	one.setCurrent(1)
	one.thread(1, b.Scenario, b.Runs)
	want := one.got[len(one.got)-1].(protocol.ThreadDone)
	if want.Error != "" || !strings.Contains(want.Report, `"Tables"`) {
		t.Fatalf("one worker's report: %+v", want)
	}
	got, ok := poolReport(t, b, 4).(protocol.ThreadDone)
	if !ok || got.ID != 99 || got.Error != "" {
		t.Fatalf("evaluate answered %+v", got)
	}
	if got.Report != want.Report {
		t.Fatalf("the pool's report differs from one worker's:\n%s\n---\n%s", got.Report, want.Report)
	}

	o, err := outline.Batch(sc, b)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PlanBatch(b)
	if err != nil {
		t.Fatal(err)
	}
	q := plan.queue()
	if len(o.Weights) != len(q.jobs) || o.Total() != q.total {
		t.Fatalf("outline %v (total %v), plan %v (total %v)", o.Weights, o.Total(), q.weight, q.total)
	}
	for i, j := range q.jobs {
		if o.Labels[i] != q.label(j) || o.Weights[i] != q.weight[i] || o.Configs[i] != j.Config {
			t.Fatalf("job %d: outline %q %v configuration %d, plan %q %v configuration %d",
				i, o.Labels[i], o.Weights[i], o.Configs[i], q.label(j), q.weight[i], j.Config)
		}
	}
}

func TestPoolSweepMatchesOneWorker(t *testing.T) {
	b := protocol.BatchSpec{Kind: protocol.KindSweep, Scenario: budgetJSON("20ms"),
		Spec: `{"sweep":["kernel.hz=250,1000","topology=smp-2,smp-4"],"runs":2}`}
	one := newTestService(WorkerPace())
	one.setCurrent(1)
	one.sweep(1, b.Scenario, b.Spec)
	want := one.got[len(one.got)-1].(protocol.SweepDone)
	if want.Error != "" {
		t.Fatal(want.Error)
	}
	got, ok := poolReport(t, b, 8).(protocol.SweepDone)
	if !ok || got.Error != "" || got.Report != want.Report {
		t.Fatalf("the pool's sweep report differs from one worker's:\n%+v\n---\n%s", got, want.Report)
	}
	sc, _ := scenario.Decode([]byte(b.Scenario))
	o, err := outline.Batch(sc, b)
	if err != nil || len(o.Weights) != 8 || o.Weights[0] != o.Weights[1] || o.Weights[2] != 2*o.Weights[0] {
		t.Fatalf("outline %+v, %v: want 8 jobs weighted by CPUs (smp-2 then smp-4)", o, err)
	}
}

func TestPoolBadRequests(t *testing.T) {
	ts := newTestService(WorkerPace())
	b := protocol.BatchSpec{Kind: protocol.KindSweep, Scenario: budgetJSON("10ms"), Spec: `{"sweep":["kernel.hz=250,1000"],"runs":1}`}
	for _, c := range []struct {
		m    protocol.Job
		want string
	}{
		{protocol.Job{ID: 1, BatchSpec: b, Index: 2}, "job 2 of a plan of 2"},
		{protocol.Job{ID: 1, BatchSpec: protocol.BatchSpec{Kind: "nope"}}, `batch kind "nope"`},
		{protocol.Job{ID: 1, BatchSpec: protocol.BatchSpec{Kind: protocol.KindThread, Scenario: budgetJSON("10ms")}}, "no experiment block"},
	} {
		ts.got = nil
		ts.setCurrent(1)
		ts.job(c.m)
		if d, ok := ts.got[0].(protocol.JobDone); !ok || !strings.Contains(d.Error, c.want) {
			t.Errorf("%+v: got %+v, want %q", c.m, ts.got, c.want)
		}
	}
	ts.got = nil
	ts.setCurrent(2)
	ts.evaluate(protocol.Evaluate{ID: 2, BatchSpec: b, Results: `["{}"]`})
	if d, ok := ts.got[0].(protocol.SweepDone); !ok || !strings.Contains(d.Error, "1 for a plan of 2") {
		t.Errorf("evaluate of too few results: %+v", ts.got)
	}
	if _, err := outline.Batch(&scenario.Scenario{}, protocol.BatchSpec{Kind: protocol.KindSweep, Spec: `{"sweep":["nokey=1"],"runs":1}`}); err == nil {
		t.Error("outline of a bad sweep key: no error")
	}
}

// TestPrefetchedJobsRunOneAtATime: jobs posted to a worker while one
// runs (the pool's prefetch) run one after the other, each message of
// one before any of the next, with the worker's own time on each; a job
// superseded while it waited is dropped unanswered.
func TestPrefetchedJobsRunOneAtATime(t *testing.T) {
	var mu sync.Mutex // the jobs run on goroutines: the test reads what they post under it
	var got []protocol.Message
	clock := 0.0
	svc := NewService(WorkerPace(), func() float64 { mu.Lock(); defer mu.Unlock(); clock++; return clock }, func() {},
		func(m protocol.Message) { mu.Lock(); got = append(got, m); mu.Unlock() })
	b := protocol.BatchSpec{Kind: protocol.KindSweep, Scenario: budgetJSON("30ms"), Spec: `{"sweep":["kernel.hz=250,1000"],"runs":2}`}
	for i := range 3 {
		svc.Handle(protocol.Job{ID: 5, BatchSpec: b, Index: i})
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := 0
		for _, m := range got {
			if _, ok := m.(protocol.JobDone); ok {
				n++
			}
		}
		mu.Unlock()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 3 jobs done", n)
		}
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[int]bool{}
	cur, planned := -1, 0
	for _, m := range got {
		var i int
		switch m := m.(type) {
		case protocol.JobProgress:
			i = m.Index
		case protocol.JobDone:
			i = m.Index
			if m.Error != "" || m.WorkMs <= 0 || m.PlanMs < 0 || m.PlanMs > m.WorkMs {
				t.Fatalf("job %d: %+v", i, m)
			}
			if m.PlanMs > 0 {
				planned++
			}
		default:
			t.Fatalf("unexpected %+v", m)
		}
		if i != cur {
			if seen[i] {
				t.Fatalf("job %d's messages interleaved with another's: %+v", i, got)
			}
			seen[i], cur = true, i
		}
	}
	if planned != 1 {
		t.Fatalf("%d jobs planned the batch, want the first only", planned)
	}

	// A queued job of a batch superseded before it ran says nothing.
	got = nil
	svc.setCurrent(6)
	mu.Unlock()
	svc.job(protocol.Job{ID: 5, BatchSpec: b, Index: 3})
	mu.Lock()
	if len(got) != 0 {
		t.Fatalf("a superseded job answered %+v", got)
	}
}

// TestJobProgressIsPaced: a job of many chunks tells the page its progress
// after its first chunk and then at most every jobProgressMs, not after
// every chunk (each message costs the page's main thread), and still ends
// with its result.
func TestJobProgressIsPaced(t *testing.T) {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode()), Runs: 1}
	w := newTestService(WorkerPace()) // its clock moves 1 ms per reading: a chunk is about 50 slices
	w.setCurrent(5)
	w.job(protocol.Job{ID: 5, BatchSpec: b, Index: 0})
	if d, ok := w.got[len(w.got)-1].(protocol.JobDone); !ok || d.Error != "" {
		t.Fatalf("last message %+v, want the job's result", w.got[len(w.got)-1])
	}
	chunks := w.clock / WorkerPace().ChunkMs
	if chunks < 10 {
		t.Fatalf("the job took %.0f chunks: too few to tell paced progress from per-chunk progress", chunks)
	}
	if _, ok := w.got[0].(protocol.JobProgress); !ok || w.at[0] > WorkerPace().ChunkMs+10 {
		t.Errorf("first message %+v at %.0f ms, want progress after the first chunk", w.got[0], w.at[0])
	}
	last, n := 0.0, 0
	for k, m := range w.got[:len(w.got)-1] {
		if _, ok := m.(protocol.JobProgress); !ok {
			t.Fatalf("message %d: %+v, want progress", k, m)
		}
		if n > 0 && w.at[k]-last < jobProgressMs {
			t.Errorf("progress at %.0f ms, %.0f ms after the previous one (want at least %d)", w.at[k], w.at[k]-last, jobProgressMs)
		}
		last, n = w.at[k], n+1
	}
	if n == 0 || float64(n) > w.clock/jobProgressMs+2 {
		t.Errorf("%d progress messages over %.0f ms (%.0f chunks), want 1 to %.0f", n, w.clock, chunks, w.clock/jobProgressMs+2)
	}
}
