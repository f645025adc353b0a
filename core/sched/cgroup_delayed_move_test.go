package sched

import "testing"

// TestDelayedGroupedMoves: run/sleep workers at two nice levels in a
// nested group compete with hogs in a throttled sibling group on four
// CPUs, so the balancer finds delayed-dequeue tasks at every level of the
// hierarchy. The balancer must move some of them while delayed (v6.18
// under migrate_load, v6.12 under any type; docs/kernel-rules.md §9.7),
// and, with -tags invariants, every cfs_rq's h_nr_queued / h_nr_delayed
// must match its entities after every event.
func TestDelayedGroupedMoves(t *testing.T) {
	for i, prof := range []string{"v6.18", "v6.12"} {
		t.Run(prof, func(t *testing.T) {
			b := newRun(t).kernel(prof).topology("smp-4").duration(2 * Second).seed(uint64(i + 7))
			b.cgroup("/A", "", 1024).cgroup("/A/B", "/A", 2048).cgroup("/C", "", 512)
			b.cgroups[2].Quota = 150 * Millisecond
			b.task("w").instances(5)
			b.cur().spec.Cgroup = b.cgroupID("/A/B")
			b.run(2 * Millisecond).sleep(Millisecond)
			b.task("v").instances(3).nice(10)
			b.cur().spec.Cgroup = b.cgroupID("/A")
			b.run(700 * Microsecond).sleep(3 * Millisecond)
			b.task("h").instances(3).run(Forever)
			b.cur().spec.Cgroup = b.cgroupID("/C")
			r := b.build()
			moved := 0
			r.Attach(sinkFunc(func(e *Event) {
				if e.Kind == EvMigrate && r.tasks[e.Next].se.delayed {
					moved++
				}
			}))
			r.RunUntil(2 * Second)
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if moved == 0 {
				t.Errorf("no delayed task was moved")
			}
			t.Logf("%d delayed moves", moved)
		})
	}
}
