package sched

// Deadline class tests (dl.go, dl_cbs.go, dl_admit.go, dl_balance.go).
// Each case names the kernel rule it checks. Exact switch sequences are
// scripts: testdata/dl/*.txt.

import (
	"fmt"
	"strings"
	"testing"
)

func (b *runBuilder) deadline(runtime, deadline, period Time) *runBuilder {
	b.cur().spec.Policy = SchedDeadline
	b.cur().spec.DL = DLParams{Runtime: runtime, Deadline: deadline, Period: period}
	return b
}

// normal_prio(): a deadline task's prio is -1, as ftrace prints it. The EDF
// switch order is checked in testdata/dl/edf_order.txt.
func TestDLPrioIsMinusOne(t *testing.T) {
	r := newRun(t).task("d").deadline(5*Millisecond, 20*Millisecond, 100*Millisecond).run(Millisecond).exit().build()
	if p := r.TaskInfo(r.id("d")).Prio; p != -1 {
		t.Errorf("deadline task prio %d, want -1", p)
	}
}

// update_curr_dl(): a task that overruns its runtime is throttled until
// dl_timer replenishes it at the next period; over time it gets
// runtime/period of the CPU and the fair hog the rest.
func TestDLCBSThrottling(t *testing.T) {
	for _, k := range rtKernels {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(2*Second).
				task("dl").deadline(10*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever).
				task("fair").run(Forever).
				build()
			r.runFor(2 * Second)
			dl := float64(r.cpuTime(r.id("dl"))) / float64(r.Now())
			if dl < 0.095 || dl > 0.115 {
				t.Errorf("deadline hog share %.4f, want runtime/period = 0.10 (+ at most a tick of overrun per period, paid back)", dl)
			}
			throttles := 0
			for _, e := range r.rec.of(EvSwitch) {
				if e.Prev == r.id("dl") && e.Reason == ReasonDLThrottled {
					throttles++
				}
			}
			if throttles < 19 || throttles > 21 {
				t.Errorf("%d throttles in 2 s, want one per 100 ms period", throttles)
			}
		})
	}
}

// A deadline hog against an RT hog: the deadline class still gets its
// bandwidth (it is above RT).
func TestDLAboveRTHog(t *testing.T) {
	r := newRun(t).kernel("v6.18").duration(Second).
		task("rt").fifo(50).run(Forever).
		task("dl").deadline(30*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever).
		build()
	r.runFor(Second)
	dl := float64(r.cpuTime(r.id("dl"))) / float64(r.Now())
	if dl < 0.29 || dl > 0.33 {
		t.Errorf("deadline share %.3f against an RT hog, want 0.30", dl)
	}
}

// sched_dl_overflow(): a task whose bandwidth does not fit in 95% of the
// root domain is refused with an error naming it.
func TestDLAdmissionRefused(t *testing.T) {
	b := newRun(t).kernel("v6.18").topology("smp-2").
		task("a").instances(3).deadline(60*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever).
		task("b").deadline(60*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever)
	_, err := New(b.config())
	if err == nil || !strings.Contains(err.Error(), "tasks[1] (b)") || !strings.Contains(err.Error(), "admission refused") {
		t.Fatalf("New = %v, want the admission refusal of tasks[1] (b): 4 x 0.6 > 2 x 0.95", err)
	}
	// Three fit in 2 x 0.95: 1.8.
	b = newRun(t).kernel("v6.18").topology("smp-2").
		task("a").instances(3).deadline(60*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever)
	if _, err := New(b.config()); err != nil {
		t.Fatalf("three tasks of 0.6 on 2 CPUs: %v", err)
	}
	// A late start is admitted at creation: the run fails then.
	r := newRun(t).kernel("v6.18").
		task("a").deadline(60*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever).
		task("b").start(50*Millisecond).deadline(60*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever).
		build()
	r.RunUntil(Second)
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "tasks[1] (b)") {
		t.Fatalf("run error %v, want the refusal of tasks[1] (b) at 50ms", err)
	}
	// The v6.12 fair servers take 5% per CPU of the 95%.
	b = newRun(t).kernel("v6.12").
		task("a").deadline(92*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever)
	if _, err := New(b.config()); err == nil {
		t.Errorf("v6.12: 0.92 admitted next to the fair server's 0.05 of 0.95")
	}
	b = newRun(t).kernel("v6.12").sysctl("sched_rt_runtime_us", -1).
		task("a").deadline(99*Millisecond, 100*Millisecond, 100*Millisecond).run(Forever)
	if _, err := New(b.config()); err != nil {
		t.Errorf("sched_rt_runtime_us=-1 disables admission control: %v", err)
	}
}

// push_dl_task()/pull_dl_task()/find_later_rq(): at every quiet instant
// (no reschedule pending) the CPUs run the earliest-deadline tasks.
func TestDLPushPullKeepsEarliest(t *testing.T) {
	for _, topo := range []string{"smp-2", "smp-4"} {
		t.Run(topo, func(t *testing.T) {
			b := newRun(t).kernel("v6.18").topology(topo).duration(2 * Second)
			for i, p := range []Time{30, 40, 50, 70, 110, 130} {
				b.task(fmt.Sprintf("d%d", i)).deadline(Time(4+i)*Millisecond, p*Millisecond, p*Millisecond).
					run(Time(2+i)*Millisecond).timer("t", p*Millisecond, TimerAbsolute)
			}
			b.task("fair").instances(2).run(Forever)
			r := b.build()
			checked, moves := 0, 0
			for r.Step() {
				if r.Now() >= 2*Second {
					break
				}
				if !dlQuiet(r.Sim) {
					continue
				}
				checked++
				if msg := dlEarliestRunning(r.Sim); msg != "" {
					t.Fatalf("at %s: %s", r.Now(), msg)
				}
			}
			for _, e := range r.rec.of(EvMigrate) {
				if e.Reason == ReasonDLPush || e.Reason == ReasonDLPull || e.Reason == ReasonDLFindLater {
					moves++
				}
			}
			if checked < 100 || moves == 0 {
				t.Fatalf("checked %d instants, %d deadline migrations: the test did not exercise push/pull", checked, moves)
			}
		})
	}
}

// dlQuiet reports an instant with no reschedule pending or in flight.
func dlQuiet(s *Sim) bool {
	for i := range s.rqs {
		if s.rqs[i].needResched || s.rqs[i].ipiPending {
			return false
		}
	}
	return true
}

// dlEarliestRunning checks that the running deadline tasks are the m
// earliest-deadline queued ones (m = min(CPUs, queued)).
func dlEarliestRunning(s *Sim) string {
	var queued []*Task
	for i := range s.rqs {
		queued = append(queued, s.rqs[i].dl.queue...)
	}
	for i := range s.rqs {
		c := s.rqs[i].curr
		if c == nil || !c.isDL() {
			for _, q := range queued {
				if q.cpu != CPUID(i) && q != s.rqs[q.cpu].curr {
					return fmt.Sprintf("cpu %d runs %v while %s (deadline %s) waits on cpu %d", i, taskName(c), q.name, q.dl.deadline, q.cpu)
				}
			}
			continue
		}
		for _, q := range queued {
			if q != s.rqs[q.cpu].curr && q.dl.deadline < c.dl.deadline {
				return fmt.Sprintf("cpu %d runs %s (deadline %s) while %s (deadline %s) waits on cpu %d", i, c.name, c.dl.deadline, q.name, q.dl.deadline, q.cpu)
			}
		}
	}
	return ""
}

// cpuTime is id's CPU time up to now, from the switch events.
func (r *testRun) cpuTime(id TaskID) Time {
	r.t.Helper()
	m, err := r.rec.runtimes(r.Now())
	if err != nil {
		r.t.Fatal(err)
	}
	return m[id]
}

// dl_check_constrained_dl(), yield_task_dl(): a yield gives up the rest of
// the runtime until the next period.
func TestDLYieldThrottles(t *testing.T) {
	r := newRun(t).kernel("v6.18").
		task("dl").deadline(20*Millisecond, 50*Millisecond, 50*Millisecond).run(Millisecond).yield().
		task("fair").run(Forever).
		build()
	r.runFor(Second)
	dl := r.cpuTime(r.id("dl"))
	// One ms per 50 ms period: 20 periods.
	if dl < 19*Millisecond || dl > 21*Millisecond {
		t.Errorf("yielding deadline task ran %s in 1 s, want 1 ms per 50 ms period", dl)
	}
}

// Parameter checks (__checkparam_dl()) and the affinity rule.
func TestDLParamErrors(t *testing.T) {
	for _, c := range []struct {
		p    DLParams
		want string
	}{
		{DLParams{Runtime: 10 * Millisecond, Deadline: 5 * Millisecond, Period: 20 * Millisecond}, "runtime <= deadline"},
		{DLParams{Runtime: 10 * Millisecond, Deadline: 30 * Millisecond, Period: 20 * Millisecond}, "exceeds dl_period"},
		{DLParams{Runtime: 100, Deadline: 30 * Millisecond, Period: 30 * Millisecond}, "1024ns"},
		{DLParams{Runtime: 10 * Microsecond, Deadline: 50 * Microsecond, Period: 50 * Microsecond}, "100us"},
	} {
		if err := CheckDLParams(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
	b := newRun(t).topology("smp-2").task("a").cpus(0).deadline(Millisecond, 10*Millisecond, 10*Millisecond).run(Forever)
	if _, err := New(b.config()); err == nil || !strings.Contains(err.Error(), "span all CPUs") {
		t.Errorf("pinned deadline task: %v", err)
	}
}
