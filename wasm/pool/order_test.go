package pool

// The queue's order (order.go): every configuration's first run first
// among equal weights, then the longest expected job by the speeds the
// finished jobs measured; retries stay first; results stay by index.

import (
	"encoding/json"
	"reflect"
	"testing"

	"schedplay/wasm/outline"
	"schedplay/wasm/protocol"
)

func TestOrderLongestMeasuredFirst(t *testing.T) {
	var posted []int
	h := &harness{}
	h.p = New(Config{Now: func() float64 { return h.clock }, Spawn: func(i int) (Worker, error) {
		w := &logWorker{fakeWorker: fakeWorker{slot: i, n: len(h.workers)}, log: &posted}
		h.workers = append(h.workers, &w.fakeWorker)
		return w, nil
	}}, 2)
	// Two configurations of three runs each, of one weight; the second
	// configuration's jobs take three times as long.
	o := outline.Outline{Weights: []float64{10, 10, 10, 10, 10, 10},
		Labels:  []string{"a1", "a2", "a3", "b1", "b2", "b3"},
		Configs: []int{0, 0, 0, 1, 1, 1}}
	if err := h.p.Start(7, protocol.BatchSpec{Kind: protocol.KindThread, Scenario: "{}"}, o); err != nil {
		t.Fatal(err)
	}
	// Each configuration's first run, then the second runs (prefetched).
	if want := []int{0, 3, 1, 4}; !reflect.DeepEqual(posted, want) {
		t.Fatalf("first posts %v, want %v (each configuration's first run first)", posted, want)
	}
	if want := []int{2, 5}; !reflect.DeepEqual(h.p.run.pendingOrder(), want) {
		t.Fatalf("queue %v before any measurement, want %v", h.p.run.pendingOrder(), want)
	}
	cost := func(job int) float64 { return map[bool]float64{false: 100, true: 300}[job >= 3] }
	done := func(i, job int) {
		h.p.Handle(i, h.p.Gen(i), protocol.JobDone{ID: 7, Index: job, Result: o.Labels[job], WorkMs: cost(job) + 5, PlanMs: 5})
	}
	done(0, 0) // configuration 0 measured; 1 not yet: both at the batch's mean
	if want := []int{2, 5}; !reflect.DeepEqual(h.p.run.pendingOrder(), want) {
		t.Fatalf("queue %v after one measurement, want %v (equal expectations: plan order)", h.p.run.pendingOrder(), want)
	}
	done(1, 3) // configuration 1 measured: three times slower
	if want := []int{5, 2}; !reflect.DeepEqual(h.p.run.pendingOrder(), want) {
		t.Fatalf("queue %v after both, want %v (the slower configuration first)", h.p.run.pendingOrder(), want)
	}
	if got := h.p.run.ord.expected(5, 10) / h.p.run.ord.expected(2, 10); got != 3 {
		t.Fatalf("expected time of b3 over a3: %v, want 3 (the measured speeds, planning apart)", got)
	}
	// Run the rest to the end: the last job handed out is the short one.
	for h.p.run.ndone < 6 {
		for i := range 2 {
			if j := h.p.slots[i].job; j >= 0 {
				done(i, j)
			}
		}
	}
	if len(posted) != 6 || posted[len(posted)-1] != 2 {
		t.Fatalf("jobs posted in order %v: want b3 (5) before a3 (2), the longest expected first", posted)
	}
	ev := h.lastEvaluate()
	var res []string
	if json.Unmarshal([]byte(ev.Results), &res) != nil || !reflect.DeepEqual(res, o.Labels) {
		t.Fatalf("evaluation %+v: want the results in plan order", ev)
	}
}

func TestOrderRetriesFirst(t *testing.T) {
	r := &Run{Outline: outline.Outline{Weights: []float64{1, 9, 5}}, tries: []int{0, 0, 1}}
	r.ord = newRunOrder(nil, 3)
	r.queue = newQueue(r)
	if want := []int{2, 1, 0}; !reflect.DeepEqual(r.pendingOrder(), want) {
		t.Fatalf("order %v, want %v (the retried job, then by weight)", r.pendingOrder(), want)
	}
	r.ord.measured(1, 9, 90) // 10 ms per weight, the mean for jobs of no configuration
	r.ord.measured(0, 1, 0)  // no time: nothing learnt
	if e := r.ord.expected(0, 1); e != 10 {
		t.Fatalf("expected %v for weight 1 at the batch's mean of 10 ms per weight", e)
	}
}
