package sched_test

import (
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// vm-2vcpu's idle state is HLT (cpuidle-haltpoll's "haltpoll"), which does
// not poll: a call-function request onto its idle CPU raises an IPI that
// arrives hw.ipi_latency_ns later, where smp-2's MWAIT C1 polls and takes
// none (docs/costs.md, "The 2-vCPU VM").
func TestVMHaltpollWakeupNeedsIPI(t *testing.T) {
	for _, tc := range []struct {
		machine string
		ipi     bool
	}{{"vm-2vcpu", true}, {"smp-2", false}} {
		cfg := hwConfig(t, tc.machine, "v6.18", false, []sched.TaskSpec{sleeper(0, sched.Millisecond)}, 20*sched.Millisecond)
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		k := &evSink{}
		s.Attach(k)
		s.RunUntil(5 * sched.Millisecond)
		s.SendCallFunctionIPI(0, 1)
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		var raised, entered sched.Time = -1, -1
		noIPI := 0
		for _, e := range k.evs {
			if e.CPU != 1 || e.Time < 5*sched.Millisecond {
				continue
			}
			switch {
			case e.Kind == sched.EvIPIRaise && raised < 0:
				raised = e.Time
			case e.Kind == sched.EvIPIEntry && entered < 0:
				entered = e.Time
			case e.Kind == sched.EvWakeIdleNoIPI:
				noIPI++
			}
		}
		if tc.ipi != (raised >= 0) || tc.ipi == (noIPI > 0) {
			t.Errorf("%s: IPI raised at %d, %d wakeups without IPI; want IPI=%v", tc.machine, raised, noIPI, tc.ipi)
			continue
		}
		if tc.ipi && entered-raised != sched.Time(cfg.HW.IPILatencyNs) {
			t.Errorf("%s: IPI entered %s after it was raised, want hw.ipi_latency_ns %d ns", tc.machine, entered-raised, cfg.HW.IPILatencyNs)
		}
	}
}

// A timer wakeup on an idle vm-2vcpu CPU pays the haltpoll state's
// measured exit latency (11.9 us) between the wakeup and the switch-in when
// every other cost is 0.
func TestVMHaltpollExitLatency(t *testing.T) {
	cfg := hwConfig(t, "vm-2vcpu", "v6.18", true, []sched.TaskSpec{sleeper(0, 2*sched.Millisecond)}, 20*sched.Millisecond)
	wakes := idleWakes(t, cfg)
	for _, w := range wakes {
		if w.state != "haltpoll" {
			t.Fatalf("idled in %s, want haltpoll", w.state)
		}
		if w.delay != 11900*sched.Nanosecond {
			t.Errorf("a wakeup from haltpoll switched in after %s, want the 11.9us exit latency", w.delay)
		}
	}
	if len(wakes) < 3 {
		t.Fatalf("only %d wakeups from idle", len(wakes))
	}
}

// The measured rows change vm-2vcpu only: smp-2, the same shape, keeps
// the generic defaults, and the keys the method does not isolate keep
// them on vm-2vcpu too.
func TestVMCostsOnlyOnVM(t *testing.T) {
	vm, err := topology.Preset("vm-2vcpu")
	if err != nil {
		t.Fatal(err)
	}
	smp, err := topology.Preset("smp-2")
	if err != nil {
		t.Fatal(err)
	}
	measured := map[string]int64{"clockevent_program_ns": 7100, "ipi_send_ns": 12000, "ipi_latency_ns": 7700,
		"tick_stop_ns": 1500, "tick_restart_ns": 0, "timer_irq_latency_ns": 12400, "timer_irq_ns": 10500}
	for _, k := range sched.HWKeys() {
		if got, want := k.Default(&smp), k.Default(nil); got != want {
			t.Errorf("smp-2 %s = %d, want the generic %d", k.Name, got, want)
		}
		want, ok := measured[k.Name]
		if !ok {
			want = k.Default(nil)
		}
		if got := k.Default(&vm); got != want {
			t.Errorf("vm-2vcpu %s = %d, want %d", k.Name, got, want)
		}
	}
	if vm.NumCPUs() != 2 || vm.Idle.Driver != "haltpoll" {
		t.Errorf("vm-2vcpu: %d CPUs, driver %q", vm.NumCPUs(), vm.Idle.Driver)
	}
}
