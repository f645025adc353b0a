package sched

// Tests of cpu.idle groups, autogroup, RT group scheduling and cpusets
// (cgroup.go, autogroup.go, rt_bandwidth.go, cpuset.go).

import (
	"strings"
	"testing"
)

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
		r := b.buildWith(func(cfg *Config) {
			cfg.Autogroup = on
		})
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
			r := b.buildWith(func(cfg *Config) {
				cfg.RTGroupSched = on
			})
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

// cpu.stat's usage counts every class (cgroup_account_cputime() from
// update_curr_rt() too): a SCHED_FIFO task in /R that runs 30 % is charged.
func TestCgroupUsageCountsRT(t *testing.T) {
	r := newRun(t).kernel("v6.18").duration(Second).
		cgroup("/R", "", 1024).
		task("fifo").in("/R").policy(SchedFIFO).rtprio(10).cpus(0).run(3 * Millisecond).sleep(7 * Millisecond).
		build()
	r.runFor(Second)
	st := r.CgroupStat(1)
	want := int64(r.runtime(r.id("fifo")))
	if d := st.UsageNs - want; d < -int64(Millisecond) || d > int64(Millisecond) || want < int64(290*Millisecond) {
		t.Errorf("/R usage %d ns, the FIFO task ran %d ns", st.UsageNs, want)
	}
}

// Autogroup nice (sched_autogroup_set_nice()): a session's autogroup weighs
// sched_prio_to_weight[nice + 20], so a session at nice 5 (335) against
// one at nice 0 (1024) gets 335/1359 of the CPU whatever its task count;
// out of range and without autogroup the write is refused.
func TestAutogroupNice(t *testing.T) {
	b := newRun(t).kernel("v6.18").duration(4 * Second).
		task("batch").instances(2).cpus(0).run(Forever)
	b.cur().spec.Session = 1
	b.task("shell").cpus(0).run(Forever)
	b.cur().spec.Session = 2
	r := b.buildWith(func(cfg *Config) {
		cfg.Autogroup = true
		cfg.AutogroupNice = []int{0, 5, 0}
	})
	r.runFor(4 * Second)
	want := 335.0 / (335 + 1024)
	var batch Time
	for _, id := range r.ids("batch") {
		batch += r.runtime(id)
	}
	if got := float64(batch) / float64(r.Now()); got < want-0.01 || got > want+0.01 {
		t.Errorf("nice-5 session: %.4f of the CPU, want %.4f", got, want)
	}
	if got := share(r, "shell"); got < 1-want-0.01 || got > 1-want+0.01 {
		t.Errorf("nice-0 session: %.4f of the CPU, want %.4f", got, 1-want)
	}
	for _, tc := range []struct {
		nice []int
		on   bool
		msg  string
	}{{[]int{0, 20}, true, "want -20..19"}, {[]int{0, -21}, true, "want -20..19"}, {[]int{0, 5}, false, "needs sched_autogroup_enabled"}} {
		cfg := b.config()
		cfg.Autogroup, cfg.AutogroupNice = tc.on, tc.nice
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("autogroup %v nice %v: error %v, want one saying %q", tc.on, tc.nice, err, tc.msg)
		}
	}
}
