package replay

import (
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// ownTimer: a task (pid 700) on CPU 0 of two works work, blocks into idle
// and is woken by its own CPU's timer interrupt each period (sched_waking
// and sched_wakeup printed there by the idle task in hardirq context), the
// switch from idle lat after the wakeup; n periods; CPU 1 stays idle. With
// silent, CPU 0's switches from idle are not printed (the 6.18 guest's
// CPU 1): the task's first line is its switch out.
func ownTimer(n int, work, period, lat sched.Time, silent bool) string {
	s := newSynth(2)
	s.comm[700] = "tim"
	us := sched.Microsecond
	t := sched.Time(1000 * us)
	s.sw(t, 0, 0, "R", 700)
	for i := 0; i < n; i++ {
		s.sw(t+work, 0, 700, "S", 0)
		t += period
		s.line(0, 0, "d.h2.", t, "sched_waking", "comm=tim pid=700 prio=120 target_cpu=000")
		s.line(0, 0, "dNh2.", t, "sched_wakeup", "comm=tim pid=700 prio=120 target_cpu=000")
		if !silent {
			s.sw(t+lat, 0, 0, "R", 700)
		}
	}
	return s.String()
}

// TestOwnIdleTimerCost: a periodic task woken by its own idle CPU's timer,
// sched_wakeup to switch-in lat in the trace, has no remote wakeup to fit
// the idle path from; the own CPU's timer wakeups fit hw.idle_exit_ns, so
// the replay's wakeup latency on vm-2vcpu is the trace's within 1 us (the
// preset's idle path gives 12.4 us whatever the trace says), and a trace
// faster than the model's path without the idle exit gives it 0.
func TestOwnIdleTimerCost(t *testing.T) {
	us := sched.Microsecond
	for _, lat := range []sched.Time{20 * us, 45 * us} {
		tr := importText(t, ownTimer(200, 300*us, 2*sched.Millisecond, lat, false), ftraceimport.Options{})
		w, err := Infer(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w.OwnIdleWakes != 200 || w.OwnIdleWakeP50 != lat || w.OwnIdleGapP50 != 1700*us || w.RemoteIdleWakes != 0 {
			t.Fatalf("lat %s: %d own-idle wakeups, median %s after %s idle, %d remote: want 200 at lat after 1.7 ms",
				lat, w.OwnIdleWakes, w.OwnIdleWakeP50, w.OwnIdleGapP50, w.RemoteIdleWakes)
		}
		sc, err := w.Scenario(ScenarioOptions{Topology: "vm-2vcpu", Kernel: "v6.18", Pin: PinSeen})
		if err != nil {
			t.Fatal(err)
		}
		if sc.HW["idle_exit_ns"] == "" {
			t.Errorf("lat %s: hw %v: want the idle exit fitted", lat, sc.HW)
		}
		_, rep := replayWith(t, tr, Options{}, ScenarioOptions{Topology: "vm-2vcpu", Kernel: "v6.18", Pin: PinSeen})
		got := taskByPID(t, &rep, 700).WakeupLatencyNs
		if got.Count < 190 || got.P50-int64(lat) > int64(us) || int64(lat)-got.P50 > int64(us) {
			t.Errorf("lat %s: the replay's %d wakeups, p50 %d ns: want the trace's (hw %v)", lat, got.Count, got.P50, sc.HW)
		}
	}
	tr := importText(t, ownTimer(200, 300*us, 2*sched.Millisecond, 2*us, false), ftraceimport.Options{})
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "vm-2vcpu", Kernel: "v6.18", Pin: PinSeen})
	if err != nil {
		t.Fatal(err)
	}
	if sc.HW["idle_exit_ns"] != "0" {
		t.Errorf("2 us: hw %v: want idle_exit_ns 0 (the model's path alone is longer)", sc.HW)
	}
}

// TestOwnIdleTimerCostNeedsSamples: fewer than MinCostSamples own-idle
// timer wakeups, or wakeups whose switch-in the importer added, keep the
// preset's idle exit.
func TestOwnIdleTimerCostNeedsSamples(t *testing.T) {
	us := sched.Microsecond
	for _, c := range []struct {
		n      int
		silent bool
	}{{MinCostSamples - 1, false}, {200, true}} {
		tr := importText(t, ownTimer(c.n, 300*us, 2*sched.Millisecond, 30*us, c.silent), ftraceimport.Options{})
		w, err := Infer(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sc, err := w.Scenario(ScenarioOptions{Topology: "vm-2vcpu", Kernel: "v6.18", Pin: PinSeen})
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := sc.HW["idle_exit_ns"]; ok {
			t.Errorf("%+v: %d samples (%d added), idle_exit_ns %s: want the preset's", c, w.OwnIdleWakes, w.CostSamplesAdded, v)
		}
		if c.silent && w.CostSamplesAdded < c.n-1 {
			t.Errorf("%+v: %d samples left out, want one per period (%d added)", c, w.CostSamplesAdded, len(tr.Added))
		}
	}
}
