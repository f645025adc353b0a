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

// queuedDelayed runs hogs and run/sleep tasks on smp-2 in 50 us steps until
// a delayed-dequeue task sits queued on a CPU, and returns it.
func queuedDelayed(t *testing.T, kernel string) (*Sim, *Task) {
	t.Helper()
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	burst := []Op{{Kind: OpRun, Dur: 300 * Microsecond}, {Kind: OpSleep, Dur: 200 * Microsecond}}
	s := peltSim(t, "smp-2", kernel, Second,
		TaskSpec{Name: "hog", Instances: 2, Loop: -1, Program: hog},
		TaskSpec{Name: "burst", Instances: 3, Loop: -1, Program: burst})
	for at := 50 * Microsecond; at < Second; at += 50 * Microsecond {
		s.RunUntil(at)
		for i := range s.rqs {
			for _, p := range s.rqs[i].cfs.queue {
				if p.se.delayed {
					return s, p
				}
			}
		}
	}
	t.Fatalf("%s: no task was ever queued delayed", kernel)
	return nil, nil
}

// TestCanMigrateDelayed: v6.12's can_migrate_task() has no delayed-dequeue
// test, so the balancer may move a delayed task under any migration type;
// v6.14+ (61b82dfb6b7e) moves one only when it migrates load.
func TestCanMigrateDelayed(t *testing.T) {
	types := []int{migrateLoad, migrateUtil, migrateTask}
	for _, c := range []struct {
		kernel string
		want   []bool // per entry of types
	}{{"v6.12", []bool{true, true, true}}, {"v6.18", []bool{true, false, false}}} {
		s, p := queuedDelayed(t, c.kernel)
		s.sys.MigrationCostNs = 0 // task_hot() false
		sd := s.topo[1-p.cpu].sd
		saved := sd.nrBalanceFailed
		sd.nrBalanceFailed = 1 // past the v6.14+ soft limit on ineligible tasks
		for i, mt := range types {
			env := &lbEnv{sd: sd, src: p.cpu, dst: 1 - p.cpu, migrationType: mt}
			if got := s.canMigrateTask(env, p, false); got != c.want[i] {
				t.Errorf("%s: can_migrate_task(delayed %s, migration type %d) = %v, want %v", c.kernel, p.name, mt, got, c.want[i])
			}
		}
		sd.nrBalanceFailed = saved
		// The move keeps it delayed (no DEQUEUE_DELAYED), counted in
		// the destination's h_nr_queued but not its h_nr_runnable.
		src, dst := &s.rqs[p.cpu], &s.rqs[1-p.cpu]
		srcDelayed, dstDelayed, dstNr := src.cfs.nrDelayed, dst.cfs.nrDelayed, dst.nrRunning
		s.detachTask(src, p, dst.cpu, ReasonPeriodicBalance)
		s.attachTask(dst, p, false)
		if !p.se.delayed || !p.se.onRq || src.cfs.nrDelayed != srcDelayed-1 || dst.cfs.nrDelayed != dstDelayed+1 || dst.nrRunning != dstNr+1 {
			t.Errorf("%s: moved delayed task: delayed=%v on_rq=%v, src delayed %d -> %d, dst delayed %d -> %d, dst nr_running %d -> %d",
				c.kernel, p.se.delayed, p.se.onRq, srcDelayed, src.cfs.nrDelayed, dstDelayed, dst.cfs.nrDelayed, dstNr, dst.nrRunning)
		}
	}
}

// TestWakeAffineSyncCountsEveryClass: wake_affine_idle()'s sync test reads
// rq->nr_running, which counts every class: an RT waker alone on CPU 0
// makes it 1, so a sync wakeup of a task last on CPU 1 (idle) joins the
// waker's CPU; with a fair task queued behind the waker it is 2 and the
// idle previous CPU is taken.
func TestWakeAffineSyncCountsEveryClass(t *testing.T) {
	rt := TaskSpec{Name: "rt", Policy: SchedFIFO, RTPriority: 10, CPUs: []int{0}, Loop: -1, Program: []Op{{Kind: OpRun, Dur: Forever}}}
	fair := TaskSpec{Name: "fair", CPUs: []int{0}, Loop: -1, Program: []Op{{Kind: OpRun, Dur: Forever}}}
	wakee := TaskSpec{Name: "wakee", CPUs: []int{1}, Loop: 1, Program: []Op{{Kind: OpRun, Dur: Millisecond}, {Kind: OpSleep, Dur: Second}}}
	for _, c := range []struct {
		tasks []TaskSpec
		want  CPUID
	}{{[]TaskSpec{wakee, rt}, 0}, {[]TaskSpec{wakee, rt, fair}, 1}} {
		for _, kernel := range []string{"v5.8", "v6.18"} {
			s := peltSim(t, "smp-2", kernel, Second, c.tasks...)
			s.RunUntil(10 * Millisecond)
			p, waker := s.tasks[0], s.tasks[1]
			if got := s.wakeAffine(s.topo[0].sd, p, waker, 0, 1, true); got != c.want {
				t.Errorf("%s, %d task(s) on CPU 0: sync wake_affine() = CPU %d, want %d", kernel, len(c.tasks)-1, got, c.want)
			}
		}
	}
}

// TestSchedIdleRqBalancesEarly: a dequeue that leaves only SCHED_IDLE
// tasks on a runqueue sets rq->next_balance to the current jiffy (v5.4+
// dequeue_task_fair(); v3.11 has no such rule), so the next tick balances
// with the idle interval.
func TestSchedIdleRqBalancesEarly(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	for _, c := range []struct {
		kernel string
		early  bool
	}{{"v3.11", false}, {"v5.8", true}, {"v6.18", true}} {
		s := peltSim(t, "smp-2", c.kernel, Second,
			TaskSpec{Name: "i", Policy: SchedIdle, CPUs: []int{1}, Loop: -1, Program: hog},
			TaskSpec{Name: "n", CPUs: []int{1}, Loop: 1, Program: []Op{{Kind: OpRun, Dur: 22 * Millisecond}, {Kind: OpExit}}},
			TaskSpec{Name: "a", CPUs: []int{0}, Loop: -1, Program: hog})
		// Step to the instant n exits (it shares CPU 1 with i, so a
		// little after 22 ms, between ticks), keeping next_balance from
		// just before.
		n := s.tasks[1]
		at, before := 22*Millisecond, int64(0)
		for ; n.state != stateDead && at < 30*Millisecond; at += Microsecond {
			before = s.rqs[1].nextBalance
			s.RunUntil(at)
		}
		if n.state != stateDead {
			t.Fatalf("%s: n did not exit by 30 ms", c.kernel)
		}
		if !c.early {
			if s.rqs[1].nextBalance == s.jiffies() {
				t.Errorf("%s: next_balance %d -> the current jiffy %d at the exit", c.kernel, before, s.jiffies())
			}
			continue
		}
		if !s.schedIdleRq(&s.rqs[1]) {
			t.Fatalf("%s: CPU 1 is not SCHED_IDLE-only after n's exit", c.kernel)
		}
		if s.rqs[1].nextBalance != s.jiffies() {
			t.Errorf("%s: next_balance after the exit %d, want the current jiffy %d (was %d)",
				c.kernel, s.rqs[1].nextBalance, s.jiffies(), before)
		}
	}
}
