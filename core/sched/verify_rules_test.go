package sched

// Rules checked against the kernel source for docs/kernel-rules.md (the
// items that were [M]): each test names the function and the stored copy
// it was read in, and fails on the simulator's earlier behaviour.
// The mutex waiter order rule is testdata/locks/fair_waiter_order.txt.

import (
	"testing"
)

// task_woken_rt(): a woken RT task that cannot run because a deadline task
// runs triggers push_rt_tasks() ((dl_task(rq->curr) || rt_task(rq->curr)),
// rt.c at torvalds/linux 00d6a8a7 and every later copy read).
// select_task_rq_rt(): rt_task(curr) counts a deadline curr before v6.12
// (rt_prio() was prio < MAX_RT_PRIO until 130fd056dd82), so there the
// second wakee is placed on the lowest-priority CPU at once (r1 stays:
// cpupri does not see the deadline task, so cpu 0 is among the lowest and
// task_cpu() wins). Either way r2 runs on the CPU running a fair task long
// before the deadline task throttles at 9 ms; the simulator used to leave
// both RT tasks behind it.
func TestRTWokenBehindDeadlineMoves(t *testing.T) {
	for _, k := range rtKernels {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).topology("smp-2").duration(20*Millisecond).
				task("d").deadline(9*Millisecond, 10*Millisecond, 10*Millisecond).run(Forever).
				task("f").cpus(1).run(Forever).
				task("r1").fifo(10).start(Millisecond).run(Forever).
				task("r2").fifo(20).start(2 * Millisecond).run(Forever).
				build()
			r.runFor(8 * Millisecond)
			first, who := Time(-1), ""
			for _, e := range r.rec.of(EvSwitch) {
				if e.CPU == 1 && e.Next != NoTask && r.TaskInfo(e.Next).Policy.IsRT() {
					first, who = e.Time, r.TaskInfo(e.Next).Group
					break
				}
			}
			if first < 0 || first > 2*Millisecond+500*Microsecond || who != "r2" {
				t.Fatalf("first RT task on cpu 1: %q at %s; want r2 at about 2ms (the deadline task holds cpu 0)", who, first)
			}
			pushed := 0
			for _, e := range r.rec.of(EvMigrate) {
				if e.Next == r.id("r2") && e.Reason == ReasonRTPush {
					pushed++
				}
			}
			if wantPush := r.Sim.rules.rtTaskExcludesDL; wantPush != (pushed == 1) {
				t.Fatalf("r2 pushed %d times; want a push only from v6.12 (before, select_task_rq_rt() places it)", pushed)
			}
		})
	}
}

// put_prev_task_balance(): after balance_dl() finds no deadline task the
// walk goes on to balance_rt(rq, prev) with the deadline prev, which is
// never on an rt list and always satisfies need_pull_rt_task() (prio -1),
// so pull_rt_task() runs (core.c / rt.c / deadline.c at 00d6a8a7 and
// 0039189a). The RT task queued behind a pinned RT task on cpu 1 is pulled
// when the deadline task on cpu 0 blocks; the simulator used to leave cpu 0
// idle.
func TestDLPrevPullsRT(t *testing.T) {
	for _, k := range rtKernels {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).topology("smp-2").duration(20*Millisecond).
				task("hi").fifo(50).cpus(1).run(Forever).
				task("d").deadline(5*Millisecond, 10*Millisecond, 10*Millisecond).run(3 * Millisecond).sleep(100 * Millisecond).
				task("lo").fifo(10).start(Millisecond).run(Forever).
				build()
			r.runFor(2 * Millisecond)
			lo := r.Sim.tasks[r.id("lo")]
			src, dst := &r.Sim.rqs[0], &r.Sim.rqs[1]
			if lo.cpu != 0 || src.curr == lo || !lo.rt.onRq {
				t.Fatalf("setup: lo on cpu %d (running=%v), want queued on cpu 0 behind the deadline task", lo.cpu, src.curr == lo)
			}
			// The state an earlier push would leave (rt_balance.go): lo
			// queued on cpu 1 behind the pinned hi, cpu 1 RT-overloaded.
			r.Sim.moveRTTask(src, dst, lo, ReasonRTPush)
			if !dst.rt.overloaded {
				t.Fatal("setup: cpu 1 not RT-overloaded")
			}
			r.runFor(6 * Millisecond)
			pulled := false
			for _, e := range r.rec.of(EvMigrate) {
				if e.Next == lo.id && e.Reason == ReasonRTPull && e.Time >= 3*Millisecond {
					pulled = true
				}
			}
			ran := Time(-1)
			for _, e := range r.rec.of(EvSwitch) {
				if e.CPU == 0 && e.Next == lo.id && e.Time >= 3*Millisecond {
					ran = e.Time
					break
				}
			}
			if !pulled || ran < 0 || ran > 3*Millisecond+500*Microsecond {
				t.Fatalf("lo pulled=%v, ran on cpu 0 at %s; want pull_rt_task() when the deadline task blocks at 3ms", pulled, ran)
			}
		})
	}
}

// pull_dl_task(): the task taken is pick_earliest_pushable_dl_task(src,
// this_cpu), and it must be earlier than this CPU's earliest deadline
// (deadline.c at 0039189a). The pre-check uses src's earliest pushable
// task overall, which may not be allowed here; the simulator used to pull
// a later task than the one this CPU is about to run.
func TestDLPullNeedsEarlierThanLocal(t *testing.T) {
	r := newRun(t).kernel("v6.18").topology("smp-4").duration(Second).
		task("a").deadline(Millisecond, 30*Millisecond, 30*Millisecond).run(Forever).
		task("b").deadline(Millisecond, 40*Millisecond, 40*Millisecond).run(Forever).
		build()
	s := r.Sim
	r.runFor(0)
	a, b := s.tasks[r.id("a")], s.tasks[r.id("b")]
	// Hand-built state: cpu 0 has a (deadline 30ms) queued and nothing
	// running; cpu 1 runs a pinned-ish task n (deadline 10ms) with n2
	// (15ms, not allowed on cpu 0) and b (40ms) queued behind it.
	for _, t2 := range []*Task{a, b} {
		if t2.dl.onRq {
			s.dlRemove(&s.rqs[t2.cpu], t2)
		}
	}
	src, this := &s.rqs[1], &s.rqs[0]
	mk := func(name string, dl Time, cpus ...int) *Task {
		t2 := &Task{name: name, id: TaskID(len(s.tasks) + 100), cpu: 1, affinity: newCPUMask(len(s.rqs)), effPrio: -1}
		for _, c := range cpus {
			t2.affinity.set(c)
		}
		t2.dl.deadline = dl
		return t2
	}
	n := mk("n", 10*Millisecond, 1, 2)
	n2 := mk("n2", 15*Millisecond, 1, 2)
	a.dl.deadline, b.dl.deadline = 30*Millisecond, 40*Millisecond
	a.cpu, b.cpu = 0, 1
	this.dl.queue = []*Task{a}
	src.dl.queue = []*Task{n, n2, b}
	this.curr, src.curr = nil, n
	s.pullDLTask(this)
	if len(this.dl.queue) != 1 || this.dl.queue[0] != a {
		var names []string
		for _, t2 := range this.dl.queue {
			names = append(names, t2.name)
		}
		t.Fatalf("cpu 0 queue after pull_dl_task(): %v; want only a (b, deadline 40ms, is later than a's 30ms)", names)
	}
}

// menu_update() (drivers/cpuidle/governors/menu.c at 010e85f9): the exit
// latency is deducted only from a residency of more than twice it (else
// the residency is halved), and the result is capped at next_timer, also
// in intervals[]. The 3.x form subtracts whenever it can and does not cap
// (its intervals[] entry is left as the simulator had it, see menuReflect).
func TestMenuUpdateMeasuredRule(t *testing.T) {
	for _, tc := range []struct {
		kernel         string
		resid, next    Time
		state          string
		factor, interv int64
	}{
		// 300us in C6 (exit 170us): 300 <= 2x170, so measured = 150us.
		{"v6.18", 300 * Microsecond, Millisecond, "C6", menuUnity - menuUnity/menuDecay + 1024*150/1000, 150},
		{"v3.11", 300 * Microsecond, Millisecond, "C6", menuUnity - menuUnity/menuDecay + 1024*130/1000, 130},
		// 2ms in C1E (exit 4us) with the next timer at 1ms: capped.
		{"v6.18", 2 * Millisecond, Millisecond, "C1E", menuUnity - menuUnity/menuDecay + 1024, 1000},
		{"v3.11", 2 * Millisecond, Millisecond, "C1E", menuUnity - menuUnity/menuDecay + 1024*1996/1000, 1996},
	} {
		cfg := newRun(t).kernel(tc.kernel).topology("icelake-2s32c").duration(Second).
			task("x").cpus(0).run(Forever).config()
		cfg.HW = DefaultHW(&cfg.Machine)
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rq := &s.rqs[5]
		idx := -1
		for i, n := range s.IdleStateNames() {
			if n == tc.state {
				idx = i
			}
		}
		if idx < 0 {
			t.Fatalf("%s: no state %s in %v", tc.kernel, tc.state, s.IdleStateNames())
		}
		m := &rq.idle.menu
		m.init = true
		for i := range m.correction {
			m.correction[i] = menuUnity
		}
		m.nextTimerNs = int64(tc.next)
		m.bucket = menuBucket(m.nextTimerNs)
		m.intervalPtr = 0
		rq.idle.state = idx
		s.menuReflect(rq, int64(tc.resid))
		if got := m.correction[m.bucket]; got != tc.factor {
			t.Errorf("%s %s in %s: correction factor %d, want %d", tc.kernel, tc.resid, tc.state, got, tc.factor)
		}
		if got := m.intervals[0]; got != tc.interv {
			t.Errorf("%s %s in %s: interval %dus, want %dus", tc.kernel, tc.resid, tc.state, got, tc.interv)
		}
	}
}
