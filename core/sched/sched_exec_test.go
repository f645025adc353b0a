package sched

// Exec balancing (sched_exec.go): an exec step runs sched_exec(), the
// SD_BALANCE_EXEC slow path from the task's own CPU with the task
// discounted, and the migration stopper moves the task when another CPU
// is chosen.

import "testing"

// execRun builds a run where task x starts pinned to CPU start (so fork
// placement cannot choose), widens its mask to every CPU (no move: its CPU
// stays allowed), runs 1 ms and execs at 1 ms. hogs are pinned CPU-bound
// tasks.
func execRun(t *testing.T, machine string, start int, hogs []int, withExec bool, feats ...featureToggle) *testRun {
	b := newRun(t).topology(machine).kernel("v6.6").duration(10 * Millisecond)
	for _, f := range feats {
		b = b.feature(f.f, f.on)
	}
	b = b.task("x").cpus(start).loop(1).op(Op{Kind: OpAffinity}).run(Millisecond)
	if withExec {
		b = b.op(Op{Kind: OpExec})
	}
	b = b.run(Millisecond)
	for i, c := range hogs {
		b = b.task("hog" + string(rune('a'+i))).cpus(c).run(Forever)
	}
	r := b.build()
	r.runFor(1500 * Microsecond)
	return r
}

// migrationsOf returns x's sched_migrate_task events up to 1.5 ms.
func migrationsOf(r *testRun, id TaskID) []Event {
	var out []Event
	for _, e := range r.rec.of(EvMigrate) {
		if e.Next == id {
			out = append(out, e)
		}
	}
	return out
}

func TestExecMovesTaskToIdlestCPU(t *testing.T) {
	// x shares CPU 1 with a hog; CPU 0 has a hog too, CPUs 2 and 3 are
	// idle. At its exec (1 ms, before any balance pass could move it:
	// the busy balance interval is longer) sched_exec() sends it to an
	// idle CPU; the switch out of x on CPU 1 carries reason exec.
	for _, withExec := range []bool{true, false} {
		r := execRun(t, "smp-4", 1, []int{0, 1}, withExec)
		x := r.id("x")
		migs := migrationsOf(r, x)
		if !withExec {
			if len(migs) != 0 {
				t.Errorf("without exec: x migrated %+v before 1.5 ms; the test needs a run where only the exec moves it", migs)
			}
			continue
		}
		if len(migs) != 1 {
			t.Fatalf("with exec: %d migrations of x, want 1: %+v", len(migs), migs)
		}
		m := migs[0]
		if m.Arg != 1 || (m.CPU != 2 && m.CPU != 3) || m.Reason != ReasonFindIdlest || m.Time < Millisecond {
			t.Errorf("exec migration %s: want from CPU 1 to idle CPU 2 or 3 by find_idlest at or after 1 ms", m.Describe())
		}
		var sw bool
		for _, e := range r.rec.of(EvSwitch) {
			if e.CPU == 1 && e.Prev == x && e.Time == m.Time {
				sw = e.Reason == ReasonExec && e.PrevState == 'R'
			}
		}
		if !sw {
			t.Errorf("no switch out of x on CPU 1 at %s with reason exec and state R", m.Time)
		}
		if c := r.tasks[x].cpu; c != m.CPU {
			t.Errorf("x is on CPU %d, want %d", c, m.CPU)
		}
	}
}

func TestExecDiscountsTheTaskItself(t *testing.T) {
	// x is alone on CPU 1, the other CPUs idle: without x its CPU is idle
	// (idle_cpu_without()), so its group ties with every other and the
	// local group wins. Counting x would make CPU 1 look busy and move it.
	r := execRun(t, "smp-4", 1, nil, true)
	if migs := migrationsOf(r, r.id("x")); len(migs) != 0 {
		t.Fatalf("x alone on its CPU migrated at exec: %s", migs[0].Describe())
	}
}

func TestExecClusterLevelPrefersAnIdleECluster(t *testing.T) {
	// alderlake-6p8e: x alone on P-core CPU 4 (its sibling 5 idle), the
	// machine otherwise idle. With the CLS level the MC level's groups
	// are the P-cores (2 CPUs) and the two E clusters (4 CPUs each):
	// find_idlest_group() takes the group with the most idle CPUs, an E
	// cluster, over the local P-core (2 idle without x). Without it the
	// E-cores are single-CPU groups and the local P-core keeps x.
	for _, cls := range []bool{true, false} {
		r := execRun(t, "alderlake-6p8e", 4, nil, true, featureToggle{SchedCluster, cls})
		migs := migrationsOf(r, r.id("x"))
		if !cls {
			if len(migs) != 0 {
				t.Errorf("SCHED_CLUSTER off: x migrated at exec: %s", migs[0].Describe())
			}
			continue
		}
		if len(migs) != 1 || migs[0].CPU < 12 || migs[0].Reason != ReasonFindIdlest {
			t.Fatalf("SCHED_CLUSTER on: migrations %+v, want one to an E-core (12-19) by find_idlest", migs)
		}
	}
}

func TestExecOfRTTaskStays(t *testing.T) {
	// select_task_rq_rt() keeps the CPU for an exec (not a wakeup or a
	// fork): an RT task sharing CPU 1 does not move at its exec.
	b := newRun(t).topology("smp-4").kernel("v6.6").duration(10 * Millisecond).
		task("x").policy(SchedFIFO).rtprio(10).cpus(1).loop(1).op(Op{Kind: OpAffinity}).run(Millisecond).op(Op{Kind: OpExec}).run(Millisecond).
		task("hog").cpus(1).run(Forever)
	r := b.build()
	r.runFor(1500 * Microsecond)
	for _, m := range migrationsOf(r, r.id("x")) {
		if m.Reason == ReasonFindIdlest {
			t.Fatalf("RT task moved by exec: %s", m.Describe())
		}
	}
}
