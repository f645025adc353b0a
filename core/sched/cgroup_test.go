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

// quota sets a cgroup's cpu.max and cpu.max.burst.
func (b *runBuilder) quota(path string, quota, period, burst Time) *runBuilder {
	c := &b.cgroups[b.cgroupID(path)-1]
	c.Quota, c.Period, c.Burst = quota, period, burst
	return b
}

// cpu.max "25000 100000": the hog of /Q gets its 25 ms per period and is
// throttled in nearly every period (throttle_cfs_rq() when its runtime
// is gone, unthrottled by distribute_cfs_runtime() at the refill), on every
// profile. Throttled time is the rest of each period.
func TestCgroupQuotaHoldsHog(t *testing.T) {
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			r := newRun(t).kernel(k).duration(10*Second).
				cgroup("/Q", "", 1024).quota("/Q", 25*Millisecond, 100*Millisecond, 0).
				task("hog").in("/Q").cpus(0).run(Forever).
				build()
			r.runFor(10 * Second)
			if got := share(r, "hog"); got < 0.245 || got > 0.262 {
				t.Errorf("hog: %.4f of the CPU, want 0.25", got)
			}
			st := r.CgroupStat(1)
			if st.NrPeriods < 98 || st.NrPeriods > 101 {
				t.Errorf("nr_periods %d, want about 100", st.NrPeriods)
			}
			if st.NrThrottled < st.NrPeriods-2 {
				t.Errorf("nr_throttled %d of %d periods, want nearly all", st.NrThrottled, st.NrPeriods)
			}
			// Throttled about 75 ms of each period.
			if per := float64(st.ThrottledNs) / float64(st.NrThrottled) / float64(Millisecond); per < 70 || per > 78 {
				t.Errorf("throttled %.1f ms per throttled period, want about 75", per)
			}
			if n := len(r.rec.of(EvCgroupThrottle)); int64(n) < st.NrThrottled-1 {
				t.Errorf("%d throttle events for %d throttled periods", n, st.NrThrottled)
			}
			sw := 0
			for _, e := range r.rec.of(EvSwitch) {
				if e.Reason == ReasonCgroupThrottled {
					sw++
				}
			}
			if sw < 90 {
				t.Errorf("%d switches with reason cfs_throttled, want one per period", sw)
			}
		})
	}
}

// A group within its quota is never throttled: the per-CPU runtime slices
// come back through the slack timer and the period refill.
func TestCgroupQuotaUnderLimit(t *testing.T) {
	r := newRun(t).kernel("v6.18").duration(4*Second).
		cgroup("/Q", "", 1024).quota("/Q", 50*Millisecond, 100*Millisecond, 0).
		task("p").in("/Q").cpus(0).run(10 * Millisecond).sleep(90 * Millisecond).
		build()
	r.runFor(4 * Second)
	st := r.CgroupStat(1)
	if st.NrThrottled != 0 || st.ThrottledNs != 0 {
		t.Errorf("throttled %d times (%d ns) within quota", st.NrThrottled, st.ThrottledNs)
	}
	if got := share(r, "p"); got < 0.095 || got > 0.105 {
		t.Errorf("p: %.4f, want 0.10", got)
	}
}

// cpu.max.burst (v5.14+): a service that needs 40 ms every 200 ms under a
// 25 ms / 100 ms quota runs unthrottled with a 25 ms burst (it saves the
// idle period's quota), and is throttled without it.
func TestCgroupBurst(t *testing.T) {
	run := func(burst Time) CgroupStat {
		r := newRun(t).kernel("v6.12").duration(6*Second).
			cgroup("/S", "", 1024).quota("/S", 25*Millisecond, 100*Millisecond, burst).
			task("svc").in("/S").cpus(0).run(40 * Millisecond).sleep(160 * Millisecond).
			build()
		r.runFor(6 * Second)
		return r.CgroupStat(1)
	}
	without, with := run(0), run(25*Millisecond)
	if without.NrThrottled < 20 {
		t.Errorf("no burst: throttled %d times, want about once per burst of work", without.NrThrottled)
	}
	if with.NrThrottled > 1 {
		t.Errorf("25 ms burst: throttled %d times, want none after the start", with.NrThrottled)
	}
	// Each 40 ms of work straddles a period boundary once the first
	// throttle shifted it, so the part above the quota in one period is a
	// burst: at most 15 ms (40 - 25) per cycle of 200 ms.
	if with.NrBursts < 20 || with.BurstNs <= 0 || with.BurstNs > with.NrBursts*int64(15*Millisecond) {
		t.Errorf("25 ms burst: nr_bursts %d, burst_ns %d, want about one burst of at most 15 ms per 200 ms", with.NrBursts, with.BurstNs)
	}
	if without.NrBursts != 0 || without.BurstNs != 0 {
		t.Errorf("no burst: nr_bursts %d, burst_ns %d, want 0", without.NrBursts, without.BurstNs)
	}
}

// cpu.idle (v5.15+, sched_group_set_idle()): the group's entities weigh
// WEIGHT_IDLEPRIO (3), and a waking task of a non-idle group preempts the
// idle group's running task at once (se_is_idle() in wakeup preemption),
// although both tasks are SCHED_OTHER.
func TestCgroupIdleGroup(t *testing.T) {
	for _, k := range []string{"v6.6", "v6.12", "v6.18"} {
		t.Run(k, func(t *testing.T) {
			b := newRun(t).kernel(k).duration(4*Second).
				cgroup("/I", "", 1024).cgroup("/N", "", 1024)
			b.cgroups[0].Idle = true
			r := b.task("bg").in("/I").cpus(0).run(Forever).
				task("hog").in("/N").cpus(0).run(Forever).
				build()
			r.runFor(4 * Second)
			if got := share(r, "bg"); got > 0.01 {
				t.Errorf("bg in the idle group: %.4f of the CPU beside a hog, want about 3/1027", got)
			}
			b = newRun(t).kernel(k).duration(2*Second).
				cgroup("/I", "", 1024).cgroup("/N", "", 1024)
			b.cgroups[0].Idle = true
			r = b.task("bg").in("/I").cpus(0).run(Forever).
				task("w").in("/N").cpus(0).run(Millisecond).sleep(9 * Millisecond).
				build()
			r.runFor(2 * Second)
			wakeups, preempt := len(r.rec.of(EvWakeup)), 0
			for _, e := range r.rec.of(EvResched) {
				if e.Reason == ReasonWakeupIdlePolicy {
					preempt++
				}
			}
			if wakeups < 150 || preempt < wakeups-2 {
				t.Errorf("%d wakeups of w, %d idle-entity preemptions: want one per wakeup", wakeups, preempt)
			}
			if got := share(r, "w"); got < 0.098 || got > 0.102 {
				t.Errorf("w: %.4f of the CPU, want 0.10", got)
			}
		})
	}
}

// Autogroup (sched_autogroup_create_attach()): tasks of the root cgroup
// are scheduled through one group per session, so a session running four
// hogs (the build) and a session with one (the interactive shell) split the
// CPU in half, as two cgroups would; without autogroup the five share it.
func TestAutogroupSessions(t *testing.T) {
	for _, on := range []bool{true, false} {
		b := newRun(t).kernel("v6.18").duration(4 * Second).
			task("shell").cpus(0).run(Forever)
		b.cur().spec.Session = 1
		b.task("make").instances(4).cpus(0).run(Forever)
		b.cur().spec.Session = 2
		cfg := b.config()
		cfg.Autogroup = on
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		s.Attach(rec)
		r := &testRun{Sim: s, t: t, rec: rec}
		r.runFor(4 * Second)
		want := 0.5
		if !on {
			want = 0.2
		}
		if got := share(r, "shell"); got < want-0.01 || got > want+0.01 {
			t.Errorf("autogroup %v: shell %.4f of the CPU, want %.2f", on, got, want)
		}
		if got := r.TaskCgroup(r.id("shell")); got != 0 {
			t.Errorf("an autogroup task reports cgroup %d, want 0 (root)", got)
		}
	}
}

// CONFIG_RT_GROUP_SCHED keeps the root RT bandwidth on v6.12+ (the fair
// server alone protects fair tasks without it, 5f6bd380c7bd): a SCHED_FIFO
// hog alone on a CPU gets sched_rt_runtime_us / sched_rt_period_us = 95 %.
func TestRTGroupSchedRootBandwidth(t *testing.T) {
	for _, on := range []bool{true, false} {
		for _, k := range []string{"v6.12", "v6.18"} {
			b := newRun(t).kernel(k).duration(5 * Second).
				task("fifo").policy(SchedFIFO).rtprio(50).cpus(0).run(Forever)
			cfg := b.config()
			cfg.RTGroupSched = on
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			s.Attach(rec)
			r := &testRun{Sim: s, t: t, rec: rec}
			r.runFor(5 * Second)
			want := 1.0
			if on {
				want = 0.95
			}
			if got := share(r, "fifo"); got < want-0.005 || got > want+0.001 {
				t.Errorf("%s rt_group_sched %v: FIFO hog %.4f of the CPU, want %.2f", k, on, got, want)
			}
		}
	}
}

// cpusets (cpuset.go): cpuset.cpus restricts a group's tasks; an isolated
// partition's CPUs get no sched domain, so two hogs started on the same
// CPU stay there (no load balancing), while a root partition of the same
// CPUs balances them; the root cgroup's tasks never use partition CPUs.
func TestCpusetPartitions(t *testing.T) {
	run := func(partition string) *testRun {
		b := newRun(t).topology("smp-4").kernel("v6.18").duration(2*Second).
			cgroup("/P", "", 1024)
		b.cgroups[0].CPUs = []int{2, 3}
		b.cgroups[0].Partition = partition
		r := b.task("hog").in("/P").instances(2).cpus(2, 3).run(Forever).
			task("rest").instances(3).run(Forever).
			build()
		r.runFor(2 * Second)
		return r
	}
	onCPU := func(r *testRun, name string) map[CPUID]bool {
		out := map[CPUID]bool{}
		for _, id := range r.ids(name) {
			for _, e := range r.rec.switchesIn(id) {
				out[e.CPU] = true
			}
		}
		return out
	}
	iso := run("isolated")
	if c := onCPU(iso, "hog"); !c[2] || c[3] || len(c) != 1 {
		t.Errorf("isolated partition: hogs ran on %v, want CPU 2 only (no balancing)", c)
	}
	if c := onCPU(iso, "rest"); c[2] || c[3] {
		t.Errorf("root cgroup tasks ran on %v, inside the partition", c)
	}
	root := run("root")
	if c := onCPU(root, "hog"); !c[2] || !c[3] {
		t.Errorf("root partition: hogs ran on %v, want CPUs 2 and 3 (balanced)", c)
	}
	for _, id := range root.ids("hog") {
		if got := float64(root.runtime(id)) / float64(root.Now()); got < 0.9 {
			t.Errorf("root partition: %s got %.3f of a CPU, want nearly all", root.name(id), got)
		}
	}
	b := newRun(t).topology("smp-2").cgroup("/A", "", 1024)
	b.cgroups[0].CPUs = []int{1}
	b.task("a").in("/A").cpus(0).run(Forever)
	if _, err := New(b.config()); err == nil || !strings.Contains(err.Error(), "share no CPU") {
		t.Errorf("task pinned outside its cpuset: %v, want an error", err)
	}
}
