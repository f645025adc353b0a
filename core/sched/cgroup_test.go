package sched

// Tests of the task-group hierarchy (cgroup.go, cgroup_fair.go,
// cgroup_shares.go), each tied to the kernel rule it checks.

import (
	"strings"
	"testing"
)

// cgroup adds a cgroup below parent ("" = the root) with tg->shares.
func (b *runBuilder) cgroup(path, parent string, shares uint64) *runBuilder {
	p := 0
	if parent != "" {
		p = b.cgroupID(parent)
	}
	b.cgroups = append(b.cgroups, CgroupSpec{Path: path, Parent: p, Shares: shares, Quota: Unlimited, Period: 100 * Millisecond})
	return b
}

func (b *runBuilder) cgroupID(path string) int {
	for i, c := range b.cgroups {
		if c.Path == path {
			return i + 1
		}
	}
	b.t.Fatalf("builder: no cgroup %q", path)
	return 0
}

// in puts the current task group in cgroup path.
func (b *runBuilder) in(path string) *runBuilder {
	b.cur().spec.Cgroup = b.cgroupID(path)
	return b
}

func share(r *testRun, name string) float64 {
	return float64(r.runtime(r.id(name))) / float64(r.Now())
}

// calc_group_shares() on one CPU gives each group entity tg->shares
// exactly, so one hog in /A against four in /B splits the CPU 1:1 at the
// top level and /B's half four ways: 50 % and 12.5 % each, on every
// profile (EEVDF and legacy CFS).
func TestCgroupOneVersusFour(t *testing.T) {
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(10*Second).
				cgroup("/A", "", 1024).cgroup("/B", "", 1024).
				task("a").in("/A").cpus(0).run(Forever).
				task("b").in("/B").instances(4).cpus(0).run(Forever).
				build()
			r.runFor(10 * Second)
			if got := share(r, "a"); got < 0.495 || got > 0.505 {
				t.Errorf("a: %.4f of the CPU, want 0.50", got)
			}
			for _, id := range r.ids("b") {
				got := float64(r.runtime(id)) / float64(r.Now())
				if got < 0.120 || got > 0.130 {
					t.Errorf("%s: %.4f of the CPU, want 0.125", r.name(id), got)
				}
			}
			st := r.CgroupStat(1)
			want := r.runtime(r.id("a"))
			if d := st.UsageNs - int64(want); d < -int64(Millisecond) || d > int64(Millisecond) {
				t.Errorf("/A usage %d ns, the task ran %d ns", st.UsageNs, want)
			}
		})
	}
}

// Weights at the top level follow tg->shares: cpu.weight 200 against 100
// is 2:1, whatever the number of tasks inside.
func TestCgroupWeightRatio(t *testing.T) {
	for _, k := range []string{"v5.8", "v6.18"} {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(6*Second).
				cgroup("/A", "", 2048).cgroup("/B", "", 1024).
				task("a").in("/A").instances(3).cpus(0).run(Forever).
				task("b").in("/B").cpus(0).run(Forever).
				build()
			r.runFor(6 * Second)
			var a float64
			for _, id := range r.ids("a") {
				a += float64(r.runtime(id)) / float64(r.Now())
			}
			if a < 0.66 || a > 0.673 {
				t.Errorf("/A: %.4f of the CPU, want 2/3", a)
			}
		})
	}
}

// Nested groups: /P (1024) holds /P/X and /P/Y; /Q (1024) one task. /P's
// half is split between its children by their shares (3:1).
func TestCgroupNested(t *testing.T) {
	for _, k := range []string{"v3.11", "v6.6", "v6.12", "v6.18"} {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(8*Second).
				cgroup("/P", "", 1024).cgroup("/P/X", "/P", 3072).cgroup("/P/Y", "/P", 1024).cgroup("/Q", "", 1024).
				task("x").in("/P/X").cpus(0).run(Forever).
				task("y").in("/P/Y").cpus(0).run(Forever).
				task("q").in("/Q").cpus(0).run(Forever).
				build()
			r.runFor(8 * Second)
			for _, c := range []struct {
				name string
				want float64
			}{{"x", 0.375}, {"y", 0.125}, {"q", 0.5}} {
				if got := share(r, c.name); got < c.want-0.007 || got > c.want+0.007 {
					t.Errorf("%s: %.4f of the CPU, want %.3f", c.name, got, c.want)
				}
			}
			if p, x := r.CgroupStat(1).UsageNs, r.CgroupStat(2).UsageNs; p <= x || x <= 0 {
				t.Errorf("usage /P %d must include /P/X %d", p, x)
			}
		})
	}
}

// Two CPUs, one group per CPU-pinned pair: the groups' entities on each CPU
// get shares in proportion to the group's load there, so a group spread over
// two CPUs does not get twice its weight (tg->load_avg).
func TestCgroupSharesAcrossCPUs(t *testing.T) {
	r := newRun(t).topology("smp-2").kernel("v6.18").duration(4*Second).
		cgroup("/A", "", 1024).cgroup("/B", "", 1024).
		task("a0").in("/A").cpus(0).run(Forever).
		task("a1").in("/A").cpus(1).run(Forever).
		task("b").in("/B").cpus(0).run(Forever).
		build()
	r.runFor(4 * Second)
	// On CPU 0 /A's entity weighs about half of /B's: b gets about 2/3.
	if got := share(r, "b"); got < 0.60 || got > 0.72 {
		t.Errorf("b: %.4f of CPU 0, want about 2/3 (A's shares split over two CPUs)", got)
	}
}

// sched_move_task(): a task that moves itself from /A to /B mid-run joins
// /B's share from then on.
func TestCgroupMove(t *testing.T) {
	b := newRun(t).kernel("v6.18").duration(4*Second).
		cgroup("/A", "", 1024).cgroup("/B", "", 1024).
		task("m").in("/A").cpus(0).run(Second - 10*Millisecond)
	b.op(Op{Kind: OpCgroup, Target: 2}).run(Forever)
	r := b.task("b").in("/B").cpus(0).run(Forever).build()
	r.runFor(2 * Second)
	if got := share(r, "m"); got < 0.49 || got > 0.51 {
		t.Errorf("m in /A: %.4f, want 0.5", got)
	}
	before := r.runtime(r.id("m"))
	r.runFor(4 * Second)
	if got := r.TaskCgroup(r.id("m")); got != 2 {
		t.Fatalf("m is in cgroup %d after the move, want 2", got)
	}
	// Alone at the top level, /B runs all the time; m and b split it.
	after := float64(r.runtime(r.id("m"))-before) / float64(2*Second)
	if after < 0.45 || after > 0.55 {
		t.Errorf("m in /B: %.4f of the second half, want 0.5", after)
	}
}

func TestCgroupBadInput(t *testing.T) {
	cases := []struct {
		cg   []CgroupSpec
		want string
	}{
		{[]CgroupSpec{{Path: "/A", Parent: 1, Shares: 1024}}, "parent 1"},
		{[]CgroupSpec{{Path: "/A", Shares: 1}}, "shares 1"},
	}
	for _, c := range cases {
		b := newRun(t).task("a").run(Forever)
		b.cgroups = c.cg
		_, err := New(b.config())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.cg, err, c.want)
		}
	}
	b := newRun(t).kernel("v5.8").task("a").run(Forever)
	b.cgroups = []CgroupSpec{{Path: "/I", Shares: 1024, Idle: true}}
	if _, err := New(b.config()); err == nil || !strings.Contains(err.Error(), "v5.15") {
		t.Errorf("cpu.idle on v5.8: %v, want an error naming v5.15", err)
	}
}

// A mixed workload over a three-level hierarchy on four CPUs (sleepers,
// yielders, forks, moves between groups, idle-policy tasks), on every
// profile: with -tags invariants every event checks the group cfs_rqs'
// loads, counts and sums against their entities (invariants_cgroup_on.go).
// The run must also be deterministic.
func TestCgroupMixedWorkload(t *testing.T) {
	build := func(k string) *testRun {
		b := newRun(t).topology("smp-4").kernel(k).duration(2*Second).
			cgroup("/S", "", 1024).cgroup("/S/A", "/S", 512).cgroup("/S/A/X", "/S/A", 2048).
			cgroup("/S/B", "/S", 100).cgroup("/T", "", 4096).
			quota("/S/A", 30*Millisecond, 20*Millisecond, 0).quota("/T", 8*Millisecond, 10*Millisecond, 0).
			task("hog").in("/S/A/X").instances(3).run(Forever).
			task("sleeper").in("/S/B").instances(4).run(3 * Millisecond).sleep(2 * Millisecond).
			task("yielder").in("/T").instances(2).run(Millisecond).yield().
			task("idle").in("/S/A").policy(SchedIdle).instances(2).run(Forever).
			task("mover").in("/S/A/X").instances(2).run(4 * Millisecond)
		b.op(Op{Kind: OpCgroup, Target: 5}).run(5 * Millisecond).sleep(Millisecond)
		b.op(Op{Kind: OpCgroup, Target: 3})
		b.task("root").run(2 * Millisecond).sleep(3 * Millisecond)
		return b.build()
	}
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			r := build(k)
			r.runFor(2 * Second)
			r2 := build(k)
			r2.runFor(2 * Second)
			if len(r.rec.events) != len(r2.rec.events) {
				t.Fatalf("two runs: %d and %d events", len(r.rec.events), len(r2.rec.events))
			}
			for i := range r.rec.events {
				if r.rec.events[i] != r2.rec.events[i] {
					t.Fatalf("two runs differ at event %d: %s / %s", i, r.rec.events[i].Describe(), r2.rec.events[i].Describe())
				}
			}
			var sum int64
			for k := 1; k <= r.NumCgroups(); k++ {
				if r.CgroupStat(k).UsageNs < 0 {
					t.Fatalf("cgroup %d negative usage", k)
				}
			}
			// /S/A may use 1.5 CPUs, /T 0.8: both are held there.
			if u := r.CgroupStat(2).UsageNs; u > int64(3*Second)+int64(40*Millisecond) {
				t.Errorf("/S/A used %d ns in 2 s under a 30ms/20ms quota", u)
			}
			if u := r.CgroupStat(5).UsageNs; u > int64(1600*Millisecond)+int64(20*Millisecond) {
				t.Errorf("/T used %d ns in 2 s under an 8ms/10ms quota", u)
			}
			if r.CgroupStat(2).NrThrottled == 0 {
				t.Errorf("/S/A never throttled")
			}
			sum = r.CgroupStat(1).UsageNs + r.CgroupStat(5).UsageNs
			if sum > 4*int64(2*Second) || sum < int64(2*Second) {
				t.Errorf("/S + /T usage %d ns on four CPUs for 2 s", sum)
			}
		})
	}
}

// PELT through the hierarchy (propagate_entity_load_avg()) and
// task_h_load(): in the 1-vs-4 case the root cfs_rq sees the two group
// entities, each near its weight (1024), not the five tasks; a task of /B
// weighs a quarter of /B's entity for the balancer, the task of /A all of
// /A's; the root's util_avg is a full CPU.
func TestCgroupHierarchicalLoad(t *testing.T) {
	r := newRun(t).kernel("v6.18").duration(3*Second).
		cgroup("/A", "", 1024).cgroup("/B", "", 1024).
		task("a").in("/A").cpus(0).run(Forever).
		task("b").in("/B").instances(4).cpus(0).run(Forever).
		build()
	r.runFor(3 * Second)
	r.updateLoadAvg(&r.rqs[0], r.rqs[0].curr, 0) // bring the averages to now
	root := r.CPUPELT(0)
	if root.LoadAvg < 1900 || root.LoadAvg > 2100 {
		t.Errorf("root load_avg %d, want about 2048 (two group entities)", root.LoadAvg)
	}
	if root.UtilAvg < 1000 {
		t.Errorf("root util_avg %d, want about 1024 (the CPU is always busy)", root.UtilAvg)
	}
	ha := r.taskHLoad(r.tasks[r.id("a")])
	for _, id := range r.ids("b") {
		hb := r.taskHLoad(r.tasks[id])
		if hb*4 < ha*8/10 || hb*4 > ha*12/10 {
			t.Errorf("task_h_load: %s %d, a %d: want a quarter of a's", r.name(id), hb, ha)
		}
	}
	if ha < 900 || ha > 1100 {
		t.Errorf("task_h_load(a) %d, want about 1024", ha)
	}
}

// An OpCgroup move is reported (the cgroup:cgroup_attach_task tracepoint)
// with the task and the new cgroup, so consumers can attribute the task's
// later waits to its new group.
func TestCgroupAttachEvent(t *testing.T) {
	b := newRun(t).kernel("v6.12").duration(100*Millisecond).
		cgroup("/A", "", 1024).cgroup("/B", "", 1024).
		task("m").in("/A").run(10 * Millisecond)
	b.op(Op{Kind: OpCgroup, Target: 2}).run(Forever)
	r := b.build()
	r.runFor(100 * Millisecond)
	ev := r.rec.of(EvCgroupAttach)
	if len(ev) != 1 || ev[0].Next != r.id("m") || ev[0].Arg != 2 || ev[0].Time != 10*Millisecond {
		t.Fatalf("attach events %v, want one for m to cgroup 2 at 10ms", ev)
	}
}
