package replay

import (
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// TestWakeupCostFromTrace: a cross-CPU ping-pong traced on a machine whose
// remote wakeups of an idle CPU take lat replays with that latency
// (within the target's factor of 2), for a slow and a fast machine alike:
// the estimate follows the trace, not the preset.
func TestWakeupCostFromTrace(t *testing.T) {
	us := sched.Microsecond
	for _, lat := range []sched.Time{3 * us, 8 * us, 40 * us} {
		tr, err := ftraceimport.Import(strings.NewReader(pingPong(300, 50*us, 50*us, lat)), ftraceimport.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := Infer(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2", Pin: PinSeen})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := Config(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(cfg, "replay")
		if err != nil {
			t.Fatal(err)
		}
		if w.RemoteIdleWakes < 500 || w.RemoteIdleWakeP50 != lat {
			t.Errorf("lat %s: %d samples, median %s: want about 600 at %s", lat, w.RemoteIdleWakes, w.RemoteIdleWakeP50, lat)
		}
		trep := tr.Metrics("trace")
		f := Compare(w, &trep, &rep)
		for _, r := range f.Rows {
			if r.LatencyOK == nil || !*r.LatencyOK || !r.SwitchOK {
				t.Errorf("lat %s: %s: trace p50 %d ns, replay %d ns; switches %d|%d\n%s", lat, r.Group,
					r.Trace.LatP50Ns, r.Replay.LatP50Ns, r.Trace.Switches, r.Replay.Switches, f.Text())
			}
		}
	}
}

// TestNoCostEstimateWithoutSamples: a trace without remote wakeups of
// idle CPUs keeps the preset's idle exit cost; the switch costs are the
// trace's own in every replay.
func TestNoCostEstimateWithoutSamples(t *testing.T) {
	tr, err := ftraceimport.Import(strings.NewReader(periodicHog(20)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sc.HW["idle_exit_ns"]; ok || w.RemoteIdleWakes != 0 {
		t.Errorf("%d samples, hw %v: want no idle-exit estimate", w.RemoteIdleWakes, sc.HW)
	}
	if sc.HW["ctx_switch_ns"] != "0" || sc.HW["pick_ns"] != "0" {
		t.Errorf("hw %v: want the switch and pick costs 0 (in the trace's CPU time)", sc.HW)
	}
}
