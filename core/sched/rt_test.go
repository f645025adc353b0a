package sched

// RT class tests (rt.go, class.go, rt_bandwidth.go, rt_balance.go). Each
// case names the kernel function whose rule it checks. Exact switch
// sequences are scripts: testdata/rt/*.txt.

import (
	"fmt"
	"testing"
)

func (b *runBuilder) fifo(prio int) *runBuilder {
	b.cur().spec.Policy, b.cur().spec.RTPriority = SchedFIFO, prio
	return b
}

func (b *runBuilder) rr(prio int) *runBuilder {
	b.cur().spec.Policy, b.cur().spec.RTPriority = SchedRR, prio
	return b
}

var rtKernels = []string{"v5.8", "v6.6", "v6.12", "v6.18"}

// task_tick_rt(): SCHED_RR tasks of one priority rotate every
// sched_rr_timeslice_ms (100 ms = 25 ticks at HZ=250), each requeued at the
// tail; a SCHED_FIFO task of the same priority would never rotate.
func TestRTRoundRobinEvery100ms(t *testing.T) {
	for _, k := range rtKernels {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(2*Second).
				sysctl("sched_rt_runtime_us", -1).
				task("a").rr(10).run(Forever).
				task("b").rr(10).run(Forever).
				task("c").rr(10).run(Forever).
				build()
			r.runFor(Second)
			var at []Time
			for _, e := range r.rec.of(EvSwitch) {
				if e.Reason == ReasonRRSliceExpired {
					at = append(at, e.Time)
				}
			}
			if len(at) < 8 {
				t.Fatalf("%d RR rotations in 1s, want about 10", len(at))
			}
			for i := 1; i < len(at); i++ {
				if d := at[i] - at[i-1]; d != 100*Millisecond {
					t.Fatalf("rotation %d after %s, want 100ms (rotations at %v)", i, d, at)
				}
			}
			for _, g := range []string{"a", "b", "c"} {
				if rt := r.runtime(r.id(g)); rt < 300*Millisecond || rt > 400*Millisecond {
					t.Errorf("%s ran %s of 1s, want about 1/3", g, rt)
				}
			}
		})
	}
}

// sched_rt_runtime_exceeded() + do_sched_rt_period_timer() (v5.8, v6.6), and
// the v6.12+ deferred fair server (fair_server_init(): 50 ms / 1 s): a
// SCHED_FIFO hog against a SCHED_OTHER hog on one CPU gets 95 %, the fair
// task 5 %, in every 1 s period after the first.
func TestRTThrottlingShares(t *testing.T) {
	for _, k := range rtKernels {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(4 * Second).
				task("rt").fifo(50).run(Forever).
				task("fair").run(Forever).
				build()
			prevRT, prevFair := Time(0), Time(0)
			for sec := Time(1); sec <= 4; sec++ {
				r.runFor(sec * Second)
				rt, fair := r.runtime(r.id("rt")), r.runtime(r.id("fair"))
				dRT, dFair := rt-prevRT, fair-prevFair
				prevRT, prevFair = rt, fair
				if dRT+dFair != Second {
					t.Fatalf("second %d: %s + %s != 1s", sec, dRT, dFair)
				}
				if dFair < 40*Millisecond || dFair > 60*Millisecond {
					t.Errorf("second %d: fair ran %s, want about 50ms (5%%)", sec, dFair)
				}
			}
			reason := ReasonRTThrottled
			if k == "v6.12" || k == "v6.18" {
				reason = ReasonFairServer
			}
			n := 0
			for _, e := range r.rec.of(EvSwitch) {
				if e.Reason == reason {
					n++
				}
			}
			if n < 3 {
				t.Errorf("%d switches with reason %s, want one per period", n, reason)
			}
		})
	}
}

// sched_rt_runtime_us = -1 disables throttling (rt_bandwidth_enabled()).
func TestRTThrottlingDisabled(t *testing.T) {
	r := newRun(t).kernel("v6.6").duration(2*Second).
		sysctl("sched_rt_runtime_us", -1).
		task("rt").fifo(50).run(Forever).
		task("fair").run(Forever).
		build()
	r.runFor(2 * Second)
	if got := r.runtime(r.id("fair")); got != 0 {
		t.Fatalf("fair ran %s with throttling off, want 0", got)
	}
}

// select_task_rq_rt() / find_lowest_rq(), push_rt_tasks() and
// pull_rt_task(): at the end of every instant, no RT task waits while a CPU
// it may use runs something of lower priority (or idles).
func TestRTPushPullKeepsHighestRunning(t *testing.T) {
	for _, k := range rtKernels {
		t.Run(k, func(t *testing.T) {
			b := newRun(t).kernel(k).topology("smp-4").duration(2*Second).
				sysctl("sched_rt_runtime_us", -1)
			for i := 1; i <= 7; i++ {
				b = b.task(fmt.Sprintf("t%d", i)).fifo(i * 10).start(Time(i) * Millisecond).
					run(Time(3+i) * Millisecond).sleep(Time(11-i) * Millisecond)
			}
			b = b.task("fair").instances(2).run(Forever)
			r := b.build()
			s := r.Sim
			checked := 0
			for s.Step() && s.now < 2*Second {
				if s.q.len() > 0 && s.q.peek().at == s.now {
					continue // the instant is not finished (IPIs in flight)
				}
				checked++
				worst := -1 // the lowest-priority thing a CPU runs (higher value = lower)
				for i := range s.rqs {
					p := 140
					if c := s.rqs[i].curr; c != nil {
						p = c.prio()
					}
					worst = max(worst, p)
				}
				for i := range s.rqs {
					for _, t2 := range s.rqs[i].rt.queue {
						if t2 != s.rqs[i].curr && t2.prio() < worst {
							t.Fatalf("at %s: %s (prio %d) waits on cpu %d while a CPU runs prio %d", s.now, t2.name, t2.prio(), i, worst)
						}
					}
				}
			}
			if checked < 100 {
				t.Fatalf("only %d instants checked", checked)
			}
		})
	}
}

// normal_prio(): prio = MAX_RT_PRIO-1 - rt_priority, as ftrace prints it;
// rt_priority is what metrics report. RT tasks sleep with no timer slack
// (hrtimer_nanosleep()).
func TestRTPrioNumberingAndSlack(t *testing.T) {
	r := newRun(t).kernel("v6.18").
		task("p1").fifo(1).sleep(Millisecond).run(Millisecond).exit().
		task("p99").rr(99).run(Millisecond).exit().
		task("fair").nice(-5).run(Millisecond).exit().
		build()
	r.runFor(10 * Millisecond)
	for _, c := range []struct {
		name         string
		prio, rtPrio int
	}{{"p1", 98, 1}, {"p99", 0, 99}, {"fair", 115, 0}} {
		info := r.TaskInfo(r.id(c.name))
		if info.Prio != c.prio || info.RTPriority != c.rtPrio {
			t.Errorf("%s: prio %d rt_priority %d, want %d %d", c.name, info.Prio, info.RTPriority, c.prio, c.rtPrio)
		}
	}
	for _, e := range r.rec.of(EvWakeup) {
		if e.Next == r.id("p1") && e.Time != Millisecond {
			t.Errorf("p1 woke at %s, want exactly 1ms (no slack)", e.Time)
		}
	}
}

// checkSpec: RT priorities are validated.
func TestRTSpecErrors(t *testing.T) {
	for _, c := range []struct {
		pol  Policy
		prio int
	}{{SchedFIFO, 0}, {SchedRR, 100}, {SchedOther, 5}} {
		b := newRun(t).task("x").run(Millisecond)
		b.cur().spec.Policy, b.cur().spec.RTPriority = c.pol, c.prio
		if _, err := New(b.config()); err == nil {
			t.Errorf("%s priority %d: no error", c.pol, c.prio)
		}
	}
}
