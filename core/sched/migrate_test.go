package sched

import "testing"

// Migration mechanics (migrate.go): what a task carries from one runqueue
// to another, per fair class, and the sched_migrate_task event.

type migrateSink struct{ evs []Event }

func (k *migrateSink) Event(e *Event) {
	if e.Kind == EvMigrate {
		k.evs = append(k.evs, *e)
	}
}

// threeHogs runs three hogs on smp-2 until t and returns a queued (not
// running) task on a CPU with two tasks.
func threeHogs(t *testing.T, kernel string, at Time) (*Sim, *Task) {
	t.Helper()
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-2", kernel, Second, TaskSpec{Name: "hog", Instances: 3, Loop: -1, Program: hog})
	s.RunUntil(at)
	for i := range s.rqs {
		if q := s.rqs[i].cfs.queue; len(q) > 0 {
			return s, q[0]
		}
	}
	t.Fatal("no queued task")
	return nil, nil
}

// TestDetachAttachEEVDF: detach_task()/attach_task() under EEVDF keep the
// lag (update_entity_lag() at the dequeue, place_entity() at the enqueue)
// and, with PLACE_REL_DEADLINE, the deadline relative to vruntime; PELT
// moves the task's load from the source cfs_rq to the destination.
func TestDetachAttachEEVDF(t *testing.T) {
	s, p := threeHogs(t, "v6.18", 100*Millisecond)
	src := &s.rqs[p.cpu]
	dstCPU := 1 - p.cpu
	dst := &s.rqs[dstCPU]
	k := &migrateSink{}
	s.Attach(k)
	relDeadline := p.se.deadline - p.se.vruntime
	srcLoad, dstLoad, tl := src.cfs.avg.loadAvg, dst.cfs.avg.loadAvg, p.se.avg.loadAvg
	s.detachTask(src, p, dstCPU, ReasonPeriodicBalance)
	if !p.se.relDeadline || p.se.deadline != relDeadline {
		t.Errorf("PLACE_REL_DEADLINE: deadline %d rel=%v, want %d relative", p.se.deadline, p.se.relDeadline, relDeadline)
	}
	if src.cfs.avg.loadAvg > srcLoad-tl+2 || p.se.avg.attached {
		t.Errorf("detach_entity_load_avg: src load %d -> %d (task %d), attached=%v", srcLoad, src.cfs.avg.loadAvg, tl, p.se.avg.attached)
	}
	lag := p.se.vlag
	s.attachTask(dst, p, false)
	if got := p.se.deadline - p.se.vruntime; got != relDeadline {
		t.Errorf("deadline - vruntime after attach %d, want %d", got, relDeadline)
	}
	if lag != 0 && dst.cfs.nrQueued > 1 {
		// place_entity(): vruntime = V - lag * (W + w) / W
		if v := dst.cfs.avgVruntimeOf(s); p.se.vruntime >= v && lag > 0 {
			t.Errorf("positive lag %d not kept: v %d, V %d", lag, p.se.vruntime, v)
		}
	}
	if dst.cfs.avg.loadAvg < dstLoad+tl-2 || !p.se.avg.attached {
		t.Errorf("attach_entity_load_avg: dst load %d -> %d (task %d)", dstLoad, dst.cfs.avg.loadAvg, tl)
	}
	if len(k.evs) != 1 || k.evs[0].Arg != int64(1-dstCPU) || k.evs[0].CPU != CPUID(dstCPU) || k.evs[0].Reason != ReasonPeriodicBalance {
		t.Errorf("sched_migrate_task events %+v", k.evs)
	}
}

// TestDetachAttachCFS: legacy CFS (v5.8) dequeue for migration makes
// vruntime relative to the source min_vruntime; the enqueue without
// ENQUEUE_WAKEUP adds the destination's.
func TestDetachAttachCFS(t *testing.T) {
	s, p := threeHogs(t, "v5.8", 100*Millisecond)
	src := &s.rqs[p.cpu]
	dstCPU := 1 - p.cpu
	dst := &s.rqs[dstCPU]
	rel := p.se.vruntime - src.cfs.minVruntime
	s.detachTask(src, p, dstCPU, ReasonPeriodicBalance)
	if p.se.vruntime != rel {
		t.Errorf("after detach vruntime %d, want relative %d", p.se.vruntime, rel)
	}
	s.attachTask(dst, p, false)
	// cfsEnqueue() updates curr first, which may advance min_vruntime.
	if got := p.se.vruntime - dst.cfs.minVruntime; got != rel {
		t.Errorf("after attach vruntime - min_vruntime %d, want %d", got, rel)
	}
}

// TestWakeupMigrationCFS: migrate_task_rq_fair() for a waking task
// (TASK_WAKING) subtracts the source min_vruntime; the enqueue with
// ENQUEUE_WAKEUP|ENQUEUE_MIGRATED adds the destination's, then
// place_entity() applies the sleeper credit (max with min_vruntime -
// latency/2 under GENTLE_FAIR_SLEEPERS).
func TestWakeupMigrationCFS(t *testing.T) {
	s, p := threeHogs(t, "v5.8", 100*Millisecond)
	src := &s.rqs[p.cpu]
	dstCPU := CPUID(1 - p.cpu)
	dst := &s.rqs[dstCPU]
	// Put p to sleep as a sleep-dequeue would (absolute vruntime kept).
	s.dequeueTask(src, p, deqSleep)
	p.state = stateBlocked
	v := p.se.vruntime
	rel := v - src.cfs.minVruntime
	s.migrateWaking(p, dstCPU, ReasonSISIdleCPU)
	if p.se.vruntime != rel || p.se.avg.attached || src.cfs.removed.nr != 1 {
		t.Errorf("migrate_task_rq_fair: v %d (want %d), attached %v, removed %d", p.se.vruntime, rel, p.se.avg.attached, src.cfs.removed.nr)
	}
	s.enqueueTask(dst, p, enqWakeup|enqMigrated)
	floor := dst.cfs.minVruntime - s.sys.LatencyNs/2
	want := max(rel+dst.cfs.minVruntime, floor)
	if p.se.vruntime != want {
		t.Errorf("enqueue: v %d, want max(%d+%d, %d) = %d", p.se.vruntime, rel, dst.cfs.minVruntime, floor, want)
	}
}
