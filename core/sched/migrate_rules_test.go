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

// queuedIneligible runs three hogs on smp-2 in 1 ms steps until a CPU's
// queued (not running) hog is not eligible there, and returns it.
func queuedIneligible(t *testing.T, kernel string) (*Sim, *Task) {
	t.Helper()
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-2", kernel, Second, TaskSpec{Name: "hog", Instances: 3, Loop: -1, Program: hog})
	for at := Millisecond; at < Second; at += Millisecond {
		s.RunUntil(at)
		for i := range s.rqs {
			q := &s.rqs[i].cfs
			for _, p := range q.queue {
				if !q.eligible(s, p) && s.rqs[1-i].cfs.nrQueued > 0 {
					return s, p
				}
			}
		}
	}
	t.Fatalf("%s: no queued hog was ever ineligible", kernel)
	return nil, nil
}

// TestCanMigrateIneligible: v6.14+ can_migrate_task() refuses a task not
// eligible on its source while nr_balance_failed is 0 and the destination
// has queued tasks (task_is_ineligible_on_dst_cpu()); after one failed
// balance it may move. v6.12 has no such test.
func TestCanMigrateIneligible(t *testing.T) {
	for _, c := range []struct {
		kernel string
		refuse bool
	}{{"v6.12", false}, {"v6.18", true}} {
		s, p := queuedIneligible(t, c.kernel)
		s.sys.MigrationCostNs = 0 // task_hot() false: only the eligibility test decides
		sd := s.topo[1-p.cpu].sd
		env := &lbEnv{sd: sd, src: p.cpu, dst: 1 - p.cpu, migrationType: migrateLoad}
		saved := sd.nrBalanceFailed
		sd.nrBalanceFailed = 0
		if got := s.canMigrateTask(env, p, false); got == c.refuse {
			t.Errorf("%s: can_migrate_task(ineligible %s, nr_balance_failed 0) = %v, want %v", c.kernel, p.name, got, !c.refuse)
		}
		sd.nrBalanceFailed = 1
		if !s.canMigrateTask(env, p, false) {
			t.Errorf("%s: can_migrate_task(ineligible %s, nr_balance_failed 1) = false, want true", c.kernel, p.name)
		}
		sd.nrBalanceFailed = saved
	}
}
