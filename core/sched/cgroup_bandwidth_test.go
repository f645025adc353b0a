package sched

// Tests of CPU bandwidth control (cgroup_bandwidth*.go, cgroup_throttle*.go),
// each tied to the kernel rule it checks.

import (
	"fmt"
	"testing"
)

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

// The per-CPU slice expiry of v3.16-v5.3 (CFS_SLICE_EXPIRY,
// expire_cfs_rq_runtime(); removed by de53fd7aedb1): 32 threads, one per
// CPU of smp-64, each running 100 us every 10 ms, use 32 ms per 100 ms of a
// 40 ms quota. Without expiry the min_cfs_rq_runtime each CPU keeps carries
// over and the group is throttled only briefly; with it every CPU's
// leftover runtime expires each period and must be taken again in 5 ms
// slices, so the group is throttled far longer for the same usage (Dave
// Chiluk's report: throttling "almost 30x" worse on many-CPU machines).
func TestCgroupSliceExpiry(t *testing.T) {
	run := func(k string, on bool) CgroupStat {
		b := newRun(t).topology("smp-64").kernel(k).duration(5*Second).feature(CfsSliceExpiry, on).
			cgroup("/C", "", 1024).quota("/C", 40*Millisecond, 100*Millisecond, 0)
		for i := 0; i < 32; i++ {
			b.task(fmt.Sprintf("w%d", i)).in("/C").cpus(i).run(100*Microsecond).timer("t", 10*Millisecond, TimerAbsolute)
		}
		r := b.build()
		r.runFor(5 * Second)
		return r.CgroupStat(1)
	}
	for _, k := range []string{"v3.11", "v5.8"} {
		fixed, expiring := run(k, false), run(k, true)
		if fixed.UsageNs != expiring.UsageNs || fixed.UsageNs < int64(1550*Millisecond) {
			t.Errorf("%s: usage %d / %d ns, want the same 1.6 s either way", k, fixed.UsageNs, expiring.UsageNs)
		}
		if expiring.ThrottledNs < 10*fixed.ThrottledNs || expiring.ThrottledNs < int64(Second) {
			t.Errorf("%s: throttled %d ns with expiry, %d ns without: want far more with it", k, expiring.ThrottledNs, fixed.ThrottledNs)
		}
	}
}
