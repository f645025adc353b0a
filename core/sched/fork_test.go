package sched

// Fork (kernel_clone() -> sched_fork()/wake_up_new_task()): a fork step
// creates one task of the target group, announced by sched_process_fork then
// sched_wakeup_new; tasks are named rt-app style `<name>-<index>` with one
// global index in creation order; the task limit stops the run with an
// error.

import (
	"strings"
	"testing"
)

func TestForkCreatesNamedChildren(t *testing.T) {
	// parent-0 and other-1, other-2 exist from the start; parent forks a
	// worker every 1ms, so the workers are worker-3, worker-4, ... The
	// workers run on CPUs 2-3, so the parent's CPU stays its own.
	r := newRun(t).topology("smp-4").duration(5*Millisecond+500*Microsecond).
		task("parent").cpus(0).run(Millisecond).fork("worker").
		task("other").instances(2).cpus(1).run(Forever).
		task("worker").parent("parent").cpus(2, 3).loop(1).run(200 * Microsecond).
		build()
	r.runFor(5*Millisecond + 500*Microsecond)
	forks := r.rec.of(EvFork)
	if len(forks) != 5 {
		t.Fatalf("%d forks in 5.5ms, want 5 (at 1, 2, 3, 4, 5ms)", len(forks))
	}
	parent := r.id("parent")
	for i, f := range forks {
		child := f.Next
		if f.Prev != parent || f.Time != Time(i+1)*Millisecond {
			t.Errorf("fork %d: %s by %s at %s, want by parent-0 at %dms", i, r.name(child), r.name(f.Prev), f.Time, i+1)
		}
		info := r.TaskInfo(child)
		if want := "worker-" + string(rune('3'+i)); info.Name != want || info.Group != "worker" {
			t.Errorf("fork %d: child %q of group %q, want %q of group worker", i, info.Name, info.Group, want)
		}
		// sched_wakeup_new of the child follows at the same instant, with
		// the parent as Arg.
		var woke bool
		for _, w := range r.rec.of(EvWakeupNew) {
			if w.Next == child {
				woke = w.Time == f.Time && w.Reason == ReasonForked && TaskID(w.Arg) == parent
			}
		}
		if !woke {
			t.Errorf("fork %d: no sched_wakeup_new of %s at %s with reason fork and waker parent-0", i, info.Name, f.Time)
		}
	}
	// Each worker runs 200us and exits.
	exits := r.rec.of(EvExit)
	if len(exits) < 4 {
		t.Errorf("%d workers exited, want at least 4", len(exits))
	}
	if got := r.NumTasks(); got != 3+5 {
		t.Errorf("%d tasks, want 8", got)
	}
}

func TestForkTaskLimitIsAnError(t *testing.T) {
	// MaxTasks 5: the parent and 4 workers (on the other CPU); the 5th
	// fork (at 5ms) fails and stops the run with an error instead of
	// growing without bound.
	r := newRun(t).topology("smp-2").duration(Second).maxTasks(5).
		task("parent").cpus(0).run(Millisecond).fork("worker").
		task("worker").parent("parent").cpus(1).loop(1).run(Forever).
		build()
	done := func() (err any) {
		defer func() { err = recover() }()
		r.RunUntil(Second)
		return nil
	}()
	if done != nil {
		t.Fatalf("the task limit panicked: %v", done)
	}
	err := r.Err()
	if err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("run error %v, want one about the task limit", err)
	}
	if !r.Done() || r.Now() != 5*Millisecond {
		t.Errorf("run stopped at %s (done=%v), want at the failed fork at 5ms", r.Now(), r.Done())
	}
	if r.NumTasks() != 5 {
		t.Errorf("%d tasks exist, want the limit 5", r.NumTasks())
	}
	if r.Step() {
		t.Error("Step() after the failure still runs")
	}
}

func TestForkOfUnrelatedGroupIsAnError(t *testing.T) {
	// The fork target must name the forking group as its parent.
	r := newRun(t).duration(Second).
		task("a").loop(1).run(Millisecond).fork("c").run(Millisecond).
		task("b").loop(1).run(Millisecond).
		task("c").parent("b").loop(1).run(Millisecond).
		build()
	r.RunUntil(Second)
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "parent") {
		t.Fatalf("run error %v, want one about the fork target's parent", err)
	}
}

func TestNewTaskFirstDeadline(t *testing.T) {
	// EEVDF place_entity() for a new task (docs/kernel-rules.md §1.11):
	// v6.6 wake_up_new_task() passes no ENQUEUE_INITIAL, so the first
	// deadline is a full vslice; v6.12+ pass it and PLACE_DEADLINE_INITIAL
	// halves it. Nice 0 on one CPU: slice = base slice (0.75ms for 6.6/6.12,
	// 0.70ms for 6.18), vslice = slice.
	for _, c := range []struct {
		kernel string
		want   int64
	}{{"v6.6", 750_000}, {"v6.12", 375_000}, {"v6.18", 350_000}} {
		t.Run(c.kernel, func(t *testing.T) {
			r := newRun(t).kernel(c.kernel).duration(10 * Millisecond).
				task("parent").run(Millisecond).fork("child").sleep(Second).
				task("child").parent("parent").loop(1).run(Millisecond).
				build()
			var got int64 = -1
			r.Attach(sinkFunc(func(e *Event) {
				if e.Kind == EvWakeupNew && e.Reason == ReasonForked {
					se := &r.task(e.Next).se
					got = se.deadline - se.vruntime
				}
			}))
			r.runFor(10 * Millisecond)
			if got != c.want {
				t.Errorf("child's first deadline is v + %d, want v + %d", got, c.want)
			}
		})
	}
}

// sinkFunc adapts a function to Sink.
type sinkFunc func(e *Event)

func (f sinkFunc) Event(e *Event) { f(e) }
