package runner

// The warm-up (warm.go) against a cold worker: it posts nothing, keeps the
// batch's plan and fills the domain cache, and every job the warmed worker
// runs afterwards answers with the result a fresh worker gives; a warm-up
// that finds a job waiting does nothing.

import (
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

func warmSpec(t *testing.T, name string, runs int) protocol.BatchSpec {
	t.Helper()
	sc, err := scenario.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = min(sc.Duration, 50*sched.Millisecond)
	return protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode()), Runs: runs}
}

func TestWarmChangesNoResult(t *testing.T) {
	for _, name := range []string{"seed/sched-idle-wakeup", "seed/sm-idle-ipistorm"} {
		b := warmSpec(t, name, 2)
		warm, cold := newTestService(WorkerPace()), newTestService(WorkerPace())
		warm.warm(b)
		if len(warm.got) != 0 {
			t.Fatalf("%s: the warm-up posted %+v", name, warm.got)
		}
		if warm.plannedPlan == nil || warm.planned != b {
			t.Fatalf("%s: the warm-up did not keep the batch's plan", name)
		}
		if _, misses := warm.domains.Stats(); misses == 0 {
			t.Fatalf("%s: the warm-up built no sched domain tree", name)
		}
		n := len(warm.plannedPlan.queue().jobs)
		for i := range n {
			var res [2]protocol.JobDone
			for k, s := range []*testService{warm, cold} {
				s.got = nil
				s.setCurrent(10 + i)
				s.job(protocol.Job{ID: 10 + i, BatchSpec: b, Index: i})
				d, ok := s.got[len(s.got)-1].(protocol.JobDone)
				if !ok || d.Error != "" {
					t.Fatalf("%s job %d: %+v", name, i, s.got[len(s.got)-1])
				}
				res[k] = d
			}
			if res[0].Result != res[1].Result {
				t.Fatalf("%s job %d: the warmed worker's result differs:\n%s\n%s", name, i, res[0].Result, res[1].Result)
			}
			if res[0].PlanMs != 0 {
				t.Errorf("%s job %d: the warmed worker planned again (%.0f ms)", name, i, res[0].PlanMs)
			}
		}
		if hits, _ := warm.domains.Stats(); hits < n {
			t.Errorf("%s: %d domain cache hits for %d jobs after the warm-up", name, hits, n)
		}
	}
}

func TestWarmYieldsToAJob(t *testing.T) {
	s := newTestService(WorkerPace())
	s.jobsWaiting.Add(1) // a Job request arrived and waits for jobMu
	s.warm(warmSpec(t, "seed/sched-idle-wakeup", 2))
	if s.plannedPlan != nil || len(s.got) != 0 {
		t.Fatalf("a warm-up ran with a job waiting (plan %v, posted %d)", s.plannedPlan != nil, len(s.got))
	}
	if h, m := s.domains.Stats(); h+m != 0 {
		t.Fatalf("a warm-up ran %d runs with a job waiting", h+m)
	}
}

// TestWarmStopsForARequest: a request that arrives while a warm-up runs
// (a timeline run) stops it at its next slice, in any of its phases.
func TestWarmStopsForARequest(t *testing.T) {
	b := warmSpec(t, "seed/sched-idle-wakeup", 2)
	full := newTestService(WorkerPace())
	all := 0
	full.onYield = func() { all++ }
	full.warm(b)
	if all < 8 {
		t.Fatalf("a whole warm-up yielded %d times", all)
	}
	for _, at := range []int{1, 2, all / 2, all - 1} {
		s := newTestService(WorkerPace())
		yields := 0
		s.onYield = func() {
			yields++
			if yields == at {
				s.Handle(protocol.Cancel{ID: 1}) // any request but a Warm
			}
		}
		s.warm(b)
		if yields > at+1 {
			t.Errorf("a request at yield %d of %d: the warm-up went on for %d more", at, all, yields-at)
		}
	}
}
