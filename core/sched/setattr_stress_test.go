package sched

import "testing"

// TestSetattrCycle: a manager cycles two worker instances through every
// policy while they run, sleep, wait on a PI mutex and are delayed, on two
// CPUs under every profile; the run must finish without error (with
// -tags invariants the engine's invariants are checked after every event),
// every policy must have been applied and the workers must have run under
// each class. The manager changes its own policy along the way; on every
// other profile the workers are in a cgroup with a CPU quota.
func TestSetattrCycle(t *testing.T) {
	dl := DLParams{Runtime: Millisecond, Deadline: 10 * Millisecond, Period: 10 * Millisecond}
	steps := []*Attr{
		{Policy: SchedFIFO, RTPrio: 10}, {Policy: SchedOther, Nice: -3}, {Policy: SchedDeadline, DL: dl},
		{Policy: SchedIdle, KeepNice: true}, {Policy: SchedRR, RTPrio: 5}, {Policy: SchedBatch, Nice: 4},
		{Policy: SchedDeadline, DL: DLParams{Runtime: 2 * Millisecond, Deadline: 8 * Millisecond, Period: 20 * Millisecond}},
		{Policy: SchedOther, KeepNice: true},
	}
	for i, prof := range ProfileNames() {
		t.Run(prof, func(t *testing.T) {
			topo := []string{"smp-2", "smp-4"}[i%2]
			b := newRun(t).kernel(prof).topology(topo).duration(300 * Millisecond).withPI(true).seed(uint64(i + 1))
			grouped := i%2 == 1 // the workers in a cgroup with a quota: the hierarchy walks
			if grouped {
				b.cgroup("/W", "", 512)
				b.cgroups[0].Quota = 30 * Millisecond
			}
			b.task("w")
			b.cur().spec.Instances = 2
			if grouped {
				b.cur().spec.Cgroup = b.cgroupID("/W")
			}
			b.lock("m").run(200 * Microsecond).unlock("m").run(700 * Microsecond).sleep(300 * Microsecond)
			b.task("hog").run(Forever)
			b.task("mgr")
			for i, a := range steps {
				a := *a
				b.sleep(Time(300+100*i) * Microsecond)
				b.op(Op{Kind: OpSetattr, Attr: &a})
				b.cur().attrTo[len(b.cur().spec.Program)-1] = "w"
				b.sleep(500 * Microsecond)
				b.op(Op{Kind: OpNice, Attr: &Attr{Nice: i - 4, Group: -1}})
				b.cur().attrTo[len(b.cur().spec.Program)-1] = "w"
				self := *steps[(i+3)%len(steps)] // the manager changes itself too
				self.Group = -1
				b.op(Op{Kind: OpSetattr, Attr: &self})
			}
			r := b.build()
			seen := map[Policy]bool{}
			classes := map[int]bool{}
			r.Attach(sinkFunc(func(e *Event) {
				if e.Kind == EvSetattr {
					seen[r.TaskInfo(e.Next).Policy] = true
				}
				if e.Kind == EvSwitch && e.Next != NoTask && r.TaskInfo(e.Next).Group == "w" {
					classes[int(prioClass(r.tasks[e.Next].effPrio))] = true
				}
			}))
			r.RunUntil(300 * Millisecond)
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if len(seen) != 6 || len(classes) != 3 {
				t.Errorf("policies applied %v, classes run %v: want all 6 and all 3", seen, classes)
			}
		})
	}
}
