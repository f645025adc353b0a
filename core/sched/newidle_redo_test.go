package sched

// The LBF_ALL_PINNED redo inside the newidle walk (balance.go, lbcost.go,
// irqoff.go): a newly idle CPU whose busiest queue elsewhere holds only
// tasks bound away from it (rteval binds its loads per NUMA node) gathers
// the domain's statistics again without that queue, once per such queue,
// all with interrupts off; RFC 3/3 stops at the next check once the RT
// task is runnable, including the redo's should_we_balance().

import (
	"fmt"
	"testing"

	"schedplay/core/topology"
)

// redoConfig: xeon-4s18c without SMT (MC of 18, NUMA of 72), v5.8. CPU 0
// runs a fair task for 2 ms, then idles and walks; node 1 (CPUs 18-35)
// runs one task pinned to each CPU and a second one on each of its first
// k CPUs, all bound to their CPU. The RT thread on CPU 0 expires at
// 2 ms + rtAfter, inside the walk. Only load-balancing costs: lb_cpu_ns
// 2000, lb_group_ns 100.
func redoConfig(t *testing.T, k int, rtAfter Time, feats ...Feature) (Config, TaskID) {
	t.Helper()
	b := newRun(t).topology("xeon-4s18c").kernel("v5.8").preempt("full").duration(5 * Millisecond)
	for _, f := range feats {
		b.feature(f, true)
	}
	b.task("w").cpus(0).run(2000 * Microsecond).sleep(10 * Millisecond)
	n := 1
	for c := 18; c < 36; c++ {
		b.task(fmt.Sprintf("f%d", c)).cpus(c).run(Forever)
		n++
	}
	for c := 18; c < 18+k; c++ {
		b.task(fmt.Sprintf("x%d", c)).cpus(c).run(Forever)
		n++
	}
	b.task("rt").policy(SchedFIFO).cpus(0).start(1000*Microsecond+rtAfter).timer("t", Millisecond, TimerAbsolute).run(4 * Microsecond)
	cfg := b.config()
	cfg.Tasks[len(cfg.Tasks)-1].RTPriority = 95
	m, err := topology.Preset("xeon-4s18c")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Machine = m.WithoutSMT()
	cfg.Sysctls = cfg.Profile.DefaultSysctls(cfg.Machine.NumCPUs())
	cfg.HW = HW{LBCPUNs: 2000, LBGroupNs: 100}
	return cfg, TaskID(n)
}

// redoLatency is the RT thread's latency at its expiry inside the walk.
func redoLatency(t *testing.T, k int, rtAfter Time, feats ...Feature) Time {
	t.Helper()
	cfg, rt := redoConfig(t, k, rtAfter, feats...)
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sink := &spanSink{rt: rt}
	s.Attach(sink)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if len(sink.lat) < 2 {
		t.Fatalf("rt ran %d times", len(sink.lat))
	}
	return sink.lat[0]
}

// TestNewidleRedoGrowsWithPinnedQueues: with no queue of two tasks the
// root domain is not overloaded and there is no walk; each busiest queue
// whose tasks are all pinned away adds, without the RFC, one NUMA
// statistics pass (72 CPUs x 2 us, one CPU fewer per redo) and
// find_busiest_queue() over node 1.
func TestNewidleRedoGrowsWithPinnedQueues(t *testing.T) {
	pass, fbq := Time(72*2000+4*100), Time(18*2000)
	var lats []Time
	for k := 0; k <= 3; k++ {
		lats = append(lats, redoLatency(t, k, 5*Microsecond))
	}
	t.Logf("latency by pinned busiest queues 0..3: %v", lats)
	if lats[0] > 5*Microsecond || lats[1] < 2*pass {
		t.Errorf("no pinned queue: %s (want no walk); one: %s (want MC + two NUMA passes)", lats[0], lats[1])
	}
	for k := 2; k < len(lats); k++ {
		if d := lats[k] - lats[k-1]; d < pass-10*Microsecond || d > pass+fbq {
			t.Errorf("%d -> %d pinned queues: span grew by %s, want one more pass and find_busiest_queue() (%s..%s)", k-1, k, d, pass-10*Microsecond, pass+fbq)
		}
	}
}

// TestNewidleRedoRTAbort: with all three patches the RT task, runnable
// while the second statistics pass (the first redo) is gathered, stops the
// walk after that pass's detach attempt, before the next redo; with 1+2
// only the redos go on to the end of the domain.
func TestNewidleRedoRTAbort(t *testing.T) {
	const k = 3
	pass := Time(72*2000 + 4*100)
	mc, fbq := Time(18*2000+18*100), Time(18*2000)
	at := mc + pass + fbq + 50*Microsecond // inside the first redo's statistics
	p12 := redoLatency(t, k, at, NewidleFromFinishSwitch, NewidleIRQOnUnlock)
	p123 := redoLatency(t, k, at, NewidleFromFinishSwitch, NewidleIRQOnUnlock, NewidleRTAbort)
	t.Logf("RT runnable during the first redo: 1+2 %s, 1+2+3 %s", p12, p123)
	if p123 > pass {
		t.Errorf("1+2+3: %s, want at most the rest of one pass (%s)", p123, pass)
	}
	if p12 < p123+pass {
		t.Errorf("1+2: %s, want the remaining redos (at least one more pass than 1+2+3's %s)", p12, p123)
	}
}
