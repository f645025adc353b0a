package sched

import (
	"strings"
	"testing"
)

// rtGroupRun runs a SCHED_FIFO hog in /R (RT runtime runtime per period)
// beside a fair hog on CPU 0 of smp-2 (CPU 1 idle) for d under kernel k
// with RT group scheduling.
func rtGroupRun(t *testing.T, k string, runtime, period, d Time) *testRun {
	b := newRun(t).topology("smp-2").kernel(k).duration(d).cgroup("/R", "", 1024)
	b.cgroups[0].RTRuntime, b.cgroups[0].RTPeriod = runtime, period
	b.task("fifo").in("/R").policy(SchedFIFO).rtprio(50).cpus(0).run(Forever).
		task("fair").cpus(0).run(Forever)
	r := b.buildWith(func(cfg *Config) {
		cfg.RTGroupSched = true
	})
	r.runFor(d)
	return r
}

// A group's own RT bandwidth (sched_rt_runtime_exceeded() on the group's
// rt_rq, the group's period timer replenishing it): cpu.rt_runtime_us
// 30 ms per 100 ms holds the group's FIFO hog at 30 % of its CPU and the
// fair hog gets the rest. Where RT_RUNTIME_SHARE defaults on (v3.11,
// v5.8), do_balance_runtime() lets CPU 0's group rt_rq borrow the idle
// CPU 1's whole 30 ms (1/2 of its spare at a time, converging), so from
// the second period on the hog runs 60 ms per 100 ms. Without the group's
// limit the hog would get the root's 95 %.
func TestRTGroupRuntime(t *testing.T) {
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			r := rtGroupRun(t, k, 30*Millisecond, 100*Millisecond, 5*Second)
			got := share(r, "fifo")
			want, low := 0.30, 0.005
			if r.rules.rtRuntimeShare {
				want, low = 0.60, 0.01 // the first period borrows as it goes
			}
			// Throttling lands on a tick (update_curr_rt() at the tick): at
			// most one tick more per period.
			tick := float64(Second/Time(r.cfg.Profile.HZ)) / float64(100*Millisecond)
			if got < want-low || got > want+tick+0.005 {
				t.Errorf("FIFO hog in a 30/100 ms RT group: %.4f of the CPU, want %.2f (+ at most a tick per period, %.3f)", got, want, tick)
			}
			if fair := share(r, "fair"); fair < 1-got-0.01 {
				t.Errorf("fair hog %.4f, want the rest (%.4f)", fair, 1-got)
			}
		})
	}
}

// An unlimited group runtime (-1) leaves only the root RT bandwidth (95 %).
func TestRTGroupUnlimited(t *testing.T) {
	r := rtGroupRun(t, "v6.18", Unlimited, Second, 5*Second)
	if got := share(r, "fifo"); got < 0.945 || got > 0.951 {
		t.Errorf("FIFO hog in an unlimited RT group: %.4f of the CPU, want 0.95 (the root's)", got)
	}
}

// A child group with more RT runtime than its parent (tg_rt_schedulable()),
// one below a group without RT runtime, and a runtime above the period are
// refused with the group named.
func TestRTGroupRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(b *runBuilder)
		msg  string
	}{
		{"child above parent", func(b *runBuilder) {
			b.cgroup("/P", "", 1024).cgroup("/P/C", "/P", 1024)
			b.cgroups[0].RTRuntime, b.cgroups[0].RTPeriod = 10*Millisecond, Second
			b.cgroups[1].RTRuntime, b.cgroups[1].RTPeriod = 50*Millisecond, Second
		}, "cgroups[0] (/P): its child groups' RT runtime adds up to more than its own"},
		{"parent without runtime", func(b *runBuilder) {
			b.cgroup("/P", "", 1024).cgroup("/P/C", "/P", 1024)
			b.cgroups[1].RTRuntime, b.cgroups[1].RTPeriod = 10*Millisecond, Second
		}, "cgroups[0] (/P): its child groups' RT runtime adds up"},
		{"above period", func(b *runBuilder) {
			b.cgroup("/R", "", 1024)
			b.cgroups[0].RTRuntime, b.cgroups[0].RTPeriod = 2*Second, Second
		}, "cgroups[0] (/R): RT runtime"},
	} {
		b := newRun(t).kernel("v6.18")
		tc.set(b)
		b.task("x").run(Forever)
		cfg := b.config()
		cfg.RTGroupSched = true
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.msg)
		}
	}
}
