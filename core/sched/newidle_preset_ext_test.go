package sched_test

// seed/newidle-rt-latency (S2 in docs/VALIDATION.md) in a short version: HT off,
// the preset's 1 s, both configurations, the AMean of the maxima of seeds
// 1..3 as S2's cells take it (one seed's maximum is a single tail sample).
// The "after" maximum is what
// hw.lb_cpu_ns of xeon-4s18c is calibrated on (160 us +/-30%); the
// "before" maximum is emergent: the LBF_ALL_PINNED redos of the NUMA
// statistics pass, with rteval's loads bound per node (docs/kernel-rules.md
// §14.3). The test asserts the thread's "over 500 us" within the
// tolerance and a reduction of at least 2.5x (the thread: 3.1x).

import (
	"fmt"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func newidlePresetMax(t *testing.T, patches bool, seed int) float64 {
	t.Helper()
	sc, err := scenario.Preset("seed/newidle-rt-latency")
	if err != nil {
		t.Fatal(err)
	}
	set := []string{"hw.smt=off", fmt.Sprintf("seed=%d", seed)} // the preset's 1 s: the maxima are tail samples
	for _, f := range []string{"NEWIDLE_FROM_FINISH_SWITCH", "NEWIDLE_IRQ_ON_UNLOCK", "NEWIDLE_RT_ABORT"} {
		if patches {
			set = append(set, "features."+f+"=on")
		} else {
			set = append(set, "features."+f+"=off")
		}
	}
	for _, kv := range set {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if n := cfg.Machine.NumCPUs(); n != 72 {
		t.Fatalf("hw.smt=off: %d CPUs, want 72", n)
	}
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	col := metrics.New(s.NumCPUs())
	rec := &metrics.Samples{}
	s.Attach(col)
	s.Attach(rec)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	var mx int64
	rep := col.Build(s, sc.Name)
	for i, tk := range rep.Tasks {
		if s.TaskInfo(sched.TaskID(i)).Group != "cyclictest" {
			continue
		}
		if tk.TimerLatencyNs.Count < 900 {
			t.Fatalf("%s: %d timer wakeups in 1 s, want ~1000", tk.Name, tk.TimerLatencyNs.Count)
		}
		mx = max(mx, tk.TimerLatencyNs.Max)
	}
	return float64(mx) / 1e3
}

func TestNewidlePresetCalibration(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("72-CPU runs of 1 s")
	}
	var before, after float64
	for seed := 1; seed <= 3; seed++ {
		b, a := newidlePresetMax(t, false, seed), newidlePresetMax(t, true, seed)
		t.Logf("HT off, 1 s, seed %d: max timer latency %.1f us -> %.1f us", seed, b, a)
		before, after = before+b/3, after+a/3
	}
	t.Logf("HT off, 1 s, AMean of seeds 1..3: max timer latency %.1f us -> %.1f us (thread: >500 -> ~160)", before, after)
	if after < 160*0.7 || after > 160*1.3 {
		t.Errorf("with the patches: %.1f us, want 160 us +/-30%% (the calibration target)", after)
	}
	if before < 500*0.7 {
		t.Errorf("without the patches: %.1f us, want the thread's over 500 us (-30%%)", before)
	}
	if before < 2.5*after {
		t.Errorf("without the patches: %.1f us, want at least 2.5x the patched %.1f us (thread: 3.1x)", before, after)
	}
}
