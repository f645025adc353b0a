package sched_test

import (
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// pingPong is the two-task pipe ping-pong of seed/nohz-pipe on
// xeon-2s8c-2013: every round trip wakes an idle CPU twice.
func pingPong(t *testing.T, kernel string) (*sched.Sim, *evSink, metrics.Report) {
	t.Helper()
	return pingPongWith(t, kernel, nil)
}

// pingPongWith is pingPong with the configuration adjusted by set (nil: none).
func pingPongWith(t *testing.T, kernel string, set func(*sched.Config)) (*sched.Sim, *evSink, metrics.Report) {
	t.Helper()
	specs := []sched.TaskSpec{
		{Name: "sender", Instances: 1, Parent: -1, Loop: 2000, Program: []sched.Op{
			{Kind: sched.OpRun, Dur: 50}, {Kind: sched.OpSys, Dur: 200}, {Kind: sched.OpSignal, Res: 0, Sync: true},
			{Kind: sched.OpSys, Dur: 400}, {Kind: sched.OpWait, Res: 1}, {Kind: sched.OpSys, Dur: 100}}},
		{Name: "receiver", Instances: 1, Parent: -1, Loop: 2000, Program: []sched.Op{
			{Kind: sched.OpSys, Dur: 400}, {Kind: sched.OpWait, Res: 0}, {Kind: sched.OpSys, Dur: 100},
			{Kind: sched.OpRun, Dur: 50}, {Kind: sched.OpSys, Dur: 200}, {Kind: sched.OpSignal, Res: 1, Sync: true}}}}
	cfg := hwConfig(t, "xeon-2s8c-2013", kernel, false, specs, sched.Second)
	cfg.Resources = []sched.Resource{{Name: "pipe1"}, {Name: "pipe2"}}
	if set != nil {
		set(&cfg)
	}
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k := &evSink{}
	c := metrics.New(s.NumCPUs())
	s.Attach(k)
	s.Attach(c)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	return s, k, c.Build(s, "pingpong")
}

// wakePaths sums, per task, the time from each wakeup onto an idle CPU (the
// remote enqueue: update_rq_clock() of the target) to the task's switch-in
// there: the IPI, the exit latency, the idle exit with the tick restart,
// the pick.
func wakePaths(evs []sched.Event) map[sched.TaskID]int64 {
	woke := map[sched.TaskID]sched.Time{}
	idle := map[sched.CPUID]bool{}
	sum := map[sched.TaskID]int64{}
	for _, e := range evs {
		switch e.Kind {
		case sched.EvWakeup, sched.EvWakeupNew:
			if idle[e.CPU] || !seen(idle, e.CPU) {
				woke[e.Next] = e.Time
			}
		case sched.EvSwitch:
			idle[e.CPU] = e.Next == sched.NoTask
			if w, ok := woke[e.Next]; ok && e.Prev == sched.NoTask {
				sum[e.Next] += int64(e.Time - w)
			}
			delete(woke, e.Next)
		}
	}
	return sum
}

func seen(m map[sched.CPUID]bool, c sched.CPUID) bool { _, ok := m[c]; return ok }

// On v3.11 the woken task's exec_start is the rq clock of the waker's
// enqueue (put_prev_task() does not update it for the idle task), so its
// sum_exec_runtime covers the whole wakeup path, and getrusage() reports
// it scaled by the task's own sys:user ratio; on v5.8 and later the pick
// reads a fresh clock and sum_exec_runtime is the running time.
func TestStaleRqClockChargesWakeupPath(t *testing.T) {
	s, k, r := pingPong(t, "v3.11")
	paths := wakePaths(k.evs)
	for id, task := range r.Tasks {
		// A clock update on the target between the enqueue and the pick
		// (a tick in the idle path) shortens a span: within 1%.
		stale, want := s.TaskStaleExecNs(sched.TaskID(id)), paths[sched.TaskID(id)]
		if stale <= 0 || stale > want || stale < want-want/100 {
			t.Errorf("v3.11 %s: stale exec %d ns, want the wakeup paths %d ns", task.Name, stale, want)
		}
		if task.SumExecNs != task.RuntimeNs+stale || task.UserNs+task.SysNs != task.SumExecNs {
			t.Errorf("v3.11 %s: sum_exec %d, runtime %d + stale %d; user %d + sys %d", task.Name, task.SumExecNs, task.RuntimeNs, stale, task.UserNs, task.SysNs)
		}
		// A round trip's wakeup path (IPI, C1 exit, tick restart, pick)
		// is several us against 750 ns of the task's own work.
		if task.SumExecNs < 3*task.RuntimeNs {
			t.Errorf("v3.11 %s: sum_exec %d not dominated by the wakeup path (runtime %d)", task.Name, task.SumExecNs, task.RuntimeNs)
		}
	}
	for _, kernel := range []string{"v5.8", "v6.18"} {
		s, k, r := pingPong(t, kernel)
		if len(wakePaths(k.evs)) == 0 {
			t.Fatalf("%s: no wakeups of an idle CPU", kernel)
		}
		for id, task := range r.Tasks {
			if st := s.TaskStaleExecNs(sched.TaskID(id)); st != 0 || task.SumExecNs != task.RuntimeNs || task.UserNs+task.SysNs != task.RuntimeNs {
				t.Errorf("%s %s: stale %d, sum_exec %d, runtime %d, user %d + sys %d", kernel, task.Name, st, task.SumExecNs, task.RuntimeNs, task.UserNs, task.SysNs)
			}
		}
	}
}
