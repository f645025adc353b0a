package sched

// Newidle balance as a non-preemptible span (lbcost.go, irqoff.go,
// newidle.go): a cyclictest-like RT thread whose hrtimer expires just after
// its CPU started a newidle walk waits for the walk, as long as the walk
// costs; the RFC toggles of S2 (docs/VALIDATION.md) cut it short as each patch
// does; the max_newidle_lb_cost cut-off and its decay follow fair.c.

import (
	"testing"

	"schedplay/core/topology"
)

// spanSink records the RT task's timer latency samples.
type spanSink struct {
	rt  TaskID
	due Time
	lat []Time
}

func (k *spanSink) Event(e *Event) {
	switch {
	case e.Kind == EvTimerExpire && e.Next == k.rt:
		k.due = Time(e.Arg)
	case e.Kind == EvSwitch && e.Next == k.rt && k.due > 0:
		k.lat = append(k.lat, e.Time-k.due)
		k.due = 0
	}
}

// lbCosts is a machine model with only load-balancing costs.
type lbCosts struct{ cpu, group, task, blocked int64 }

// newidleRTConfig: xeon-4s18c with SMT off (72 CPUs: MC of 18, one NUMA
// level), v5.8. CPU 0 runs a fair task for 2 ms, then idles; CPU 5 holds
// two pinned hogs (rd->overload, nothing to pull), so CPU 0's newidle
// balance walks both domains. The RT thread on CPU 0 (FIFO 95, 1 ms
// timer from 1.005 ms) expires 5 us after the walk started at 2 ms (the
// machine model has no other costs). In MC, CPU 5's two tasks are pinned:
// detach finds nothing movable and load_balance() redoes the statistics
// without CPU 5 (LBF_ALL_PINNED), as the kernel does.
func newidleRTConfig(t *testing.T, c lbCosts, feats ...Feature) Config {
	t.Helper()
	b := newRun(t).topology("xeon-4s18c").kernel("v5.8").preempt("full").duration(5 * Millisecond)
	for _, f := range feats {
		b.feature(f, true)
	}
	b.task("w").cpus(0).run(2000*Microsecond).sleep(10*Millisecond).
		task("hog").instances(2).cpus(5).run(Forever).
		task("rt").policy(SchedFIFO).cpus(0).start(1005*Microsecond).timer("t", Millisecond, TimerAbsolute).run(4 * Microsecond)
	cfg := b.config()
	cfg.Tasks[2].RTPriority = 95
	m, err := topology.Preset("xeon-4s18c")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Machine = m.WithoutSMT()
	cfg.Sysctls = cfg.Profile.DefaultSysctls(cfg.Machine.NumCPUs())
	cfg.HW = HW{LBCPUNs: c.cpu, LBGroupNs: c.group, LBTaskNs: c.task, LBBlockedNs: c.blocked}
	return cfg
}

// rtLatency runs cfg and returns the RT thread's latency for its first
// expiry, at 2.005 ms, which lands in CPU 0's newidle walk.
func rtLatency(t *testing.T, cfg Config) Time {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k := &spanSink{rt: 3} // w, hog, hog, rt
	s.Attach(k)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if len(k.lat) < 2 {
		t.Fatalf("rt ran %d times", len(k.lat))
	}
	if k.lat[1] > 5*Microsecond {
		t.Fatalf("second expiry (CPU 0 idle, no walk): latency %s", k.lat[1])
	}
	return k.lat[0]
}

func TestNewidleSpanGrowsWithCPUCost(t *testing.T) {
	var prev Time = -1
	var lats []Time
	for _, c := range []int64{0, 250, 500, 1000, 2000} {
		lat := rtLatency(t, newidleRTConfig(t, lbCosts{cpu: c}))
		lats = append(lats, lat)
		if lat <= prev {
			t.Errorf("lb_cpu_ns %d: latency %s, not above %s at the previous cost", c, lat, prev)
		}
		prev = lat
	}
	if lats[0] > 5*Microsecond {
		t.Errorf("free balancing: latency %s, want a few us at most", lats[0])
	}
	// The walk reads MC (18 CPUs) + NUMA (72) + the busiest groups'
	// CPUs: at least 90 CPUs per ns of lb_cpu_ns.
	if d := lats[4] - lats[3]; d < 90*1000 {
		t.Errorf("1000 -> 2000 ns per CPU: latency grew by %s, want at least 90 CPUs x 1 us", d)
	}
}

func TestNewidleRFCToggles(t *testing.T) {
	c := lbCosts{cpu: 2000, group: 100, task: 1000, blocked: 20000}
	base := rtLatency(t, newidleRTConfig(t, c))
	p1 := rtLatency(t, newidleRTConfig(t, c, NewidleFromFinishSwitch))
	p2only := rtLatency(t, newidleRTConfig(t, c, NewidleIRQOnUnlock))
	p12 := rtLatency(t, newidleRTConfig(t, c, NewidleFromFinishSwitch, NewidleIRQOnUnlock))
	p123 := rtLatency(t, newidleRTConfig(t, c, NewidleFromFinishSwitch, NewidleIRQOnUnlock, NewidleRTAbort))
	t.Logf("latency: base %s, 1/3 %s, 2/3 alone %s, 1+2 %s, 1+2+3 %s", base, p1, p2only, p12, p123)
	// The whole walk: update_blocked_averages (20 us) + MC (18 CPUs, 18
	// groups) + NUMA (72 CPUs, 4 groups) + find_busiest_queue.
	if base < 20*Microsecond+90*2*Microsecond {
		t.Errorf("base: %s, want the whole walk (> 200 us)", base)
	}
	// 1/3 alone keeps interrupts off; 2/3 needs 1/3 (written on top of it).
	if p1 != base || p2only != base {
		t.Errorf("1/3 alone %s, 2/3 alone %s: want the base span %s", p1, p2only, base)
	}
	// 1+2: the interrupt is taken during update_blocked_averages(); the
	// walk stops after the first domain (MC: 18 x 2 us of statistics).
	if p12 >= base-100*Microsecond || p12 < 20*Microsecond+18*2*Microsecond-3*Microsecond {
		t.Errorf("1+2: %s, want about blocked + MC (~56-60 us)", p12)
	}
	// 1+2+3: should_we_balance() refuses at the first domain: only the
	// rest of update_blocked_averages() is waited for.
	if p123 >= p12 || p123 > 20*Microsecond {
		t.Errorf("1+2+3: %s, want under 20 us and below 1+2 (%s)", p123, p12)
	}
}

// TestNewidleRTAbortAfterStats: with the interrupt taken during the MC
// statistics, 3/3 does not stop the statistics already being gathered nor
// find_busiest_queue() and detach_tasks(): its check comes after
// detach/attach ("Run the realtime task now; load balance later"), before
// the LBF_ALL_PINNED redo, which it skips.
func TestNewidleRTAbortAfterStats(t *testing.T) {
	c := lbCosts{cpu: 2000, group: 100, task: 1000}
	p12 := rtLatency(t, newidleRTConfig(t, c, NewidleFromFinishSwitch, NewidleIRQOnUnlock))
	p123 := rtLatency(t, newidleRTConfig(t, c, NewidleFromFinishSwitch, NewidleIRQOnUnlock, NewidleRTAbort))
	mcStats := Time(18*2000 + 18*100) // 18 CPUs, 18 one-core groups
	fbq := Time(2000)                 // find_busiest_queue() over CPU 5's group
	if want := mcStats + fbq - 5*Microsecond; p123 != want {
		t.Errorf("1+2+3: %s, want the rest of the MC statistics pass and find_busiest_queue() (%s)", p123, want)
	}
	// 1+2: the statistics, find_busiest_queue(), nothing movable, the
	// LBF_ALL_PINNED redo of the statistics over the 17 CPUs left in
	// env->cpus (balanced now), then the check after the domain.
	if want := 2*mcStats + fbq - 2000 - 5*Microsecond; p12 != want {
		t.Errorf("1+2: %s, want %s", p12, want)
	}
}

// TestNewidleCostCutoff: sched_balance_newidle()'s per-domain cut-off
// (avg_idle < curr_cost + sd->max_newidle_lb_cost), the cost tracking, the
// avg_idle cap and the decay, driven on a built run.
func TestNewidleCostCutoff(t *testing.T) {
	for _, kernel := range []string{"v5.8", "v6.6"} {
		t.Run(kernel, func(t *testing.T) {
			cfg := newidleRTConfig(t, lbCosts{cpu: 1000})
			p, err := ProfileByName(kernel)
			if err != nil {
				t.Fatal(err)
			}
			p.Preempt = cfg.Profile.Preempt
			cfg.Profile = p
			cfg.Sysctls = p.DefaultSysctls(cfg.Machine.NumCPUs())
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rq := &s.rqs[0]
			mc, numa := s.topo[0].sd, s.topo[0].sd.parent
			if numa == nil || numa.parent != nil || len(mc.cpus) != 18 || len(numa.cpus) != 72 {
				t.Fatalf("want MC(18) and NUMA(72), got %s(%d) %v", mc.name, len(mc.cpus), numa)
			}
			mcCost, numaCost := int64(18*1000), int64(72*1000) // statistics only: no busiest group
			walk := func(avgIdle int64) int64 {
				s.rdOf(0).overload = true // no task has started: nothing to pull anywhere
				rq.avgIdle = avgIdle
				s.newidleBalance(rq)
				return s.takeLBSpan(rq)
			}
			// Full walk; the measured costs become the domains' maxima.
			if got := walk(2_000_000); got < mcCost || got > mcCost+numaCost {
				t.Fatalf("first walk: span %d, want MC at least (%d) and at most both (%d)", got, mcCost, mcCost+numaCost)
			}
			if mc.maxNewidleLBCost == 0 || numa.maxNewidleLBCost == 0 {
				t.Fatalf("max_newidle_lb_cost not recorded: MC %d NUMA %d", mc.maxNewidleLBCost, numa.maxNewidleLBCost)
			}
			if rq.maxIdleBalanceCost < mc.maxNewidleLBCost+numa.maxNewidleLBCost {
				t.Errorf("max_idle_balance_cost %d below the walk's cost", rq.maxIdleBalanceCost)
			}
			// avg_idle just below MC + NUMA maxima: the NUMA level is cut off.
			cut := mc.maxNewidleLBCost + numa.maxNewidleLBCost - 1
			if cut < 500_000 { // stay above v5.8's sysctl_sched_migration_cost gate
				numa.maxNewidleLBCost += 500_000
				cut += 500_000
			}
			if got := walk(cut); got != mc.maxNewidleLBCost {
				t.Errorf("avg_idle %d: span %d, want only MC (%d)", cut, got, mc.maxNewidleLBCost)
			}
			// avg_idle below MC's own maximum: v5.16+ skips the whole
			// balance on the first domain's cost; v5.8 stops at MC's cut-off
			// inside the loop. Either way nothing is walked.
			mc.maxNewidleLBCost = 900_000
			if got := walk(800_000); got != 0 {
				t.Errorf("avg_idle below the first domain's cost: span %d, want 0", got)
			}
			// Decay: ~1% per second, once a second.
			before := numa.maxNewidleLBCost
			s.now += 2 * Second
			s.decayNewidleCost(rq)
			if numa.maxNewidleLBCost != before*253/256 {
				t.Errorf("decay: %d -> %d, want x253/256", before, numa.maxNewidleLBCost)
			}
			s.decayNewidleCost(rq) // the same second: no second decay
			if numa.maxNewidleLBCost != before*253/256 {
				t.Errorf("decayed twice within a second: %d", numa.maxNewidleLBCost)
			}
			if want := max(s.sys.MigrationCostNs, mc.maxNewidleLBCost+numa.maxNewidleLBCost); rq.maxIdleBalanceCost != want {
				t.Errorf("max_idle_balance_cost %d after the decay, want %d", rq.maxIdleBalanceCost, want)
			}
		})
	}
}
