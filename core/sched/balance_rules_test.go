package sched

import "testing"

// Decision-rule tests for load balancing (balance.go, newidle.go).

// TestCalculateImbalance checks calculate_imbalance() /
// sched_balance_find_src_group() outcomes on two one-CPU groups.
func TestCalculateImbalance(t *testing.T) {
	s := placementSim(t, "smp-2", "v6.18")
	sd := s.topo[1].sd
	cases := []struct {
		name           string
		idle           cpuIdleType
		local, busiest sgStats
		wantType       int
		wantImb        int64
	}{
		{"overloaded vs fully busy: migrate_load to the domain average", cpuNotIdle,
			sgStats{load: 1024, util: 1024, runnable: 1024, capacity: 1024, nrRunning: 1, hNrRunning: 1, weight: 1},
			sgStats{load: 2048, util: 1024, runnable: 2048, capacity: 1024, nrRunning: 2, hNrRunning: 2, weight: 1},
			migrateLoad, 512},
		{"idle vs overloaded one-CPU group: migrate_task sibling_imbalance (2-0)/2", cpuIdle,
			sgStats{capacity: 1024, weight: 1, idleCPUs: 1},
			sgStats{load: 2048, util: 1024, runnable: 2048, capacity: 1024, nrRunning: 2, hNrRunning: 2, weight: 1},
			migrateTask, 1},
		{"busy dst, busiest has spare: balanced", cpuNotIdle,
			sgStats{load: 1024, util: 300, runnable: 300, capacity: 1024, nrRunning: 1, hNrRunning: 1, weight: 1},
			sgStats{load: 1024, util: 300, runnable: 300, capacity: 1024, nrRunning: 1, hNrRunning: 1, weight: 1},
			migrateLoad, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := &lbEnv{sd: sd, dst: 1, idle: c.idle, local: sd.groups[0], busy: sd.groups[1]}
			l, b := c.local, c.busiest
			for _, st := range []*sgStats{&l, &b} {
				st.groupType = groupClassify(sd.imbalancePct, sd.groups[0], st)
				if st.groupType == groupOverloaded {
					st.avgLoad = st.load * 1024 / st.capacity
				}
			}
			pref := env.busy.flags&SDPreferSibling != 0 // the child domain's flag: none at the base level
			if l.groupType > b.groupType || (b.groupType != groupOverloaded && c.idle == cpuNotIdle) {
				if c.wantImb != 0 {
					t.Fatalf("classified balanced: local %d busiest %d", l.groupType, b.groupType)
				}
				return
			}
			s.calcImbalance(env, &l, &b, pref, l.load+b.load, l.capacity+b.capacity)
			if env.migrationType != c.wantType || env.imbalance != c.wantImb {
				t.Errorf("got type %d imbalance %d, want %d %d", env.migrationType, env.imbalance, c.wantType, c.wantImb)
			}
		})
	}
}

// TestSiblingImbalance checks sibling_imbalance()'s normalisation by core
// counts.
func TestSiblingImbalance(t *testing.T) {
	s := placementSim(t, "smp-2", "v6.18")
	gl, gb := &schedGroup{cores: 1}, &schedGroup{cores: 1}
	env := &lbEnv{idle: cpuIdle, local: gl, busy: gb}
	cases := []struct {
		nl, nb, cl, cb int
		want           int64
	}{
		// equal cores: busiest - local; else (2*(cl*nb - cb*nl) + cl + cb) / (cl + cb),
		// raised to 2 when local is empty and busiest has more than one task.
		{0, 3, 1, 1, 3}, {2, 3, 4, 4, 1}, {0, 2, 4, 2, 3}, {1, 6, 2, 4, 3}, {0, 1, 8, 8, 1}, {0, 2, 1, 4, 2}, {3, 2, 2, 2, 0},
	}
	for _, c := range cases {
		gl.cores, gb.cores = c.cl, c.cb
		got := s.siblingImbalance(env, &sgStats{nrRunning: c.nb}, &sgStats{nrRunning: c.nl})
		if got != c.want {
			t.Errorf("sibling_imbalance(local %d/%d cores, busiest %d/%d cores) = %d, want %d", c.nl, c.cl, c.nb, c.cb, got, c.want)
		}
	}
	env.idle = cpuNotIdle
	if got := s.siblingImbalance(env, &sgStats{nrRunning: 3}, &sgStats{}); got != 0 {
		t.Errorf("busy dst: %d, want 0", got)
	}
}

// TestUpdateIdleCPUScan checks update_idle_cpu_scan(): the SIS_UTIL budget
// falls with LLC utilisation and reaches 0 at ~85 % (100/117).
func TestUpdateIdleCPUScan(t *testing.T) {
	s := placementSim(t, "smp-8", "v6.18")
	sd := s.topo[0].sdLLC
	env := &lbEnv{sd: sd, dst: 0, idle: cpuNotIdle}
	cases := []struct {
		perCPU int64
		want   int
	}{{0, 8}, {256, 7}, {512, 5}, {768, 1}, {870, 0}, {1024, 0}}
	for _, c := range cases {
		s.updateIdleCPUScan(env, c.perCPU*8)
		if got := s.topo[0].sdLLCShared.nrIdleScan; got != c.want {
			t.Errorf("util %d/cpu: nr_idle_scan %d, want %d", c.perCPU, got, c.want)
		}
	}
	env.idle = cpuNewlyIdle
	s.updateIdleCPUScan(env, 0)
	if got := s.topo[0].sdLLCShared.nrIdleScan; got != 0 {
		t.Errorf("newidle balance must not update nr_idle_scan (got %d)", got)
	}
}

// TestCanMigrateTask checks can_migrate_task() and task_hot().
func TestCanMigrateTask(t *testing.T) {
	s := placementSim(t, "smp-2", "v6.18")
	s.now = 10 * Millisecond
	sd := s.topo[1].sd
	env := &lbEnv{sd: sd, dst: 1, src: 0}
	running := fakeTask(s, 60)
	s.rqs[0].curr = running
	p := fakeTask(s, 61)
	cases := []struct {
		name   string
		setup  func()
		active bool
		want   bool
	}{
		{"running task: only active balance", func() { p = running }, false, false},
		// task_on_cpu() is tested before LBF_ACTIVE_LB: the stopper has
		// already preempted the task it pushes.
		{"running task, even for active balance", func() { p = running }, true, false},
		{"not allowed on dst", func() { p = fakeTask(s, 62); p.affinity[0] = 1 }, false, false},
		{"task_hot: ran 0.1 ms ago", func() { p = fakeTask(s, 63); p.se.execStart = s.now - 100*Microsecond }, false, false},
		{"task_hot but nr_balance_failed > cache_nice_tries", func() {
			p = fakeTask(s, 64)
			p.se.execStart = s.now - 100*Microsecond
			sd.nrBalanceFailed = sd.cacheNiceTries + 1
		}, false, true},
		{"cold: ran 1 ms ago", func() { p = fakeTask(s, 65); p.se.execStart = s.now - Millisecond; sd.nrBalanceFailed = 0 }, false, true},
		{"SCHED_IDLE is never hot", func() { p = fakeTask(s, 66); p.policy = SchedIdle; p.se.execStart = s.now }, false, true},
	}
	for _, c := range cases {
		c.setup()
		if got := s.canMigrateTask(env, p, c.active); got != c.want {
			t.Errorf("%s: can_migrate_task = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestShrBound checks detach_tasks()'s load test relaxed by
// nr_balance_failed: a 1024 load passes an imbalance of 512 only after one
// failure.
func TestShrBound(t *testing.T) {
	if shrBound(1024, 0) > 512 == false {
		t.Error("1024 >> 0 must exceed 512")
	}
	if shrBound(1024, 1) > 512 {
		t.Error("1024 >> 1 must not exceed 512")
	}
}

// TestShouldWeBalance checks should_we_balance(): newly idle always (when
// nothing is queued); periodic only on the first idle CPU of the local
// group, else its first CPU.
func TestShouldWeBalance(t *testing.T) {
	s := placementSim(t, "smp-4", "v6.18")
	sd := s.topo[2].sd // MC over 0-3, one-CPU groups
	env := &lbEnv{sd: sd, dst: 2, idle: cpuNotIdle, cpus: newCPUMask(4)}
	for c := 0; c < 4; c++ {
		env.cpus.set(c)
	}
	if !s.shouldWeBalance(env) {
		t.Error("one-CPU local group: its CPU balances")
	}
	env.idle = cpuNewlyIdle
	setBusy(s, 2)
	if s.shouldWeBalance(env) {
		t.Error("newly idle with a task queued must not balance")
	}
}

type evSink struct{ evs []Event }

func (k *evSink) Event(e *Event) { k.evs = append(k.evs, *e) }

// TestNewidleBalancePulls: sched_balance_newidle() runs when a CPU is about
// to go idle and pulls a waiting task (migrate_task, sibling_imbalance
// (2-0)/2 = 1) from the overloaded CPU; the pick then switches to it.
func TestNewidleBalancePulls(t *testing.T) {
	s, waiting := threeHogs(t, "v6.18", 100*Millisecond)
	busyCPU := waiting.cpu
	x := &s.rqs[1-busyCPU]
	waiting.se.execStart = s.now - Millisecond // cold (task_hot() false)
	k := &evSink{}
	s.Attach(k)
	s.localCPU = x.cpu
	s.schedule(x, ReasonSleep) // x's hog blocks
	var migr, sw *Event
	for i := range k.evs {
		switch e := &k.evs[i]; e.Kind {
		case EvMigrate:
			migr = e
		case EvSwitch:
			sw = e
		}
	}
	if migr == nil || migr.Reason != ReasonNewidleBalance || migr.Next != waiting.id || migr.CPU != x.cpu {
		t.Fatalf("migration %+v, want %s pulled to cpu %d by newidle_balance", migr, waiting.name, x.cpu)
	}
	if sw == nil || sw.Next != waiting.id || x.curr != waiting {
		t.Errorf("switch %+v, want the pulled task to run", sw)
	}
	if invariantsEnabled {
		s.checkInvariants()
	}
}

// TestActiveBalanceStop: active_load_balance_cpu_stop() preempts the
// running task and pushes the least recently run movable task
// (detach_one_task(), cache hotness ignored) to push_cpu.
func TestActiveBalanceStop(t *testing.T) {
	s, _ := threeHogs(t, "v6.18", 100*Millisecond)
	var b *rq
	for i := range s.rqs {
		if s.rqs[i].nrRunning == 2 {
			b = &s.rqs[i]
		}
	}
	target := 1 - b.cpu
	lru := s.lruTasks(b)[0]
	k := &evSink{}
	s.Attach(k)
	b.activeBalance, b.pushCPU = true, target
	s.localCPU = b.cpu
	s.activeBalanceStop(b)
	if lru.cpu != target || b.activeBalance {
		t.Errorf("task %s on cpu %d (active_balance=%v), want pushed to %d", lru.name, lru.cpu, b.activeBalance, target)
	}
	found := false
	for _, e := range k.evs {
		if e.Kind == EvMigrate && e.Reason == ReasonActiveBalance && e.Next == lru.id {
			found = true
		}
	}
	if !found {
		t.Errorf("no active_balance migration in %v", k.evs)
	}
	if invariantsEnabled {
		s.checkInvariants()
	}
}
