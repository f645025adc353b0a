package sched

import "testing"

// TestMovedTaskCold: a load-balancing move (detach_task() + attach_task())
// leaves the task cache-cold for task_hot() where the profile's kernel
// clears se->exec_start on migration (v5.8 migrate_task_rq_fair(), v6.3+
// enqueue_entity() on ENQUEUE_MIGRATED), and hot on v3.11, which keeps it.
func TestMovedTaskCold(t *testing.T) {
	for _, c := range []struct {
		kernel string
		cold   bool
	}{{"v3.11", false}, {"v5.8", true}, {"v6.6", true}, {"v6.12", true}, {"v6.18", true}} {
		s, p := threeHogs(t, c.kernel, 100*Millisecond)
		src := &s.rqs[p.cpu]
		dstCPU := 1 - p.cpu
		if p.se.execStart == 0 {
			t.Fatalf("%s: the queued hog never ran", c.kernel)
		}
		ran := p.se.execStart
		s.detachTask(src, p, dstCPU, ReasonPeriodicBalance)
		s.attachTask(&s.rqs[dstCPU], p, false)
		if got := p.se.execStart == 0; got != c.cold {
			t.Errorf("%s: exec_start after the move %d (last ran at %d), want cleared=%v", c.kernel, p.se.execStart, ran, c.cold)
		}
		// task_hot() from the destination's view, at once: within
		// sched_migration_cost of its last run only a kept exec_start is hot.
		s.now = ran + 100*Microsecond
		env := &lbEnv{sd: s.topo[p.cpu].sd, src: p.cpu, dst: 1 - p.cpu}
		if hot := s.taskHot(env, p); hot == c.cold {
			t.Errorf("%s: task_hot() = %v 0.1 ms after its last run, want %v", c.kernel, hot, !c.cold)
		}
	}
}
