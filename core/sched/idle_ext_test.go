package sched_test

import (
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

type evSink struct{ evs []sched.Event }

func (k *evSink) Event(e *sched.Event) { k.evs = append(k.evs, *e) }

func hwConfig(t *testing.T, machine, kernel string, zeroCosts bool, tasks []sched.TaskSpec, dur sched.Time) sched.Config {
	t.Helper()
	m, err := topology.Preset(machine)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := sched.ProfileByName(kernel)
	if err != nil {
		t.Fatal(err)
	}
	hw := sched.DefaultHW(&m)
	if zeroCosts {
		for _, k := range sched.HWKeys() {
			if err := hw.Set(k.Name, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	return sched.Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()), HW: hw,
		Tasks: tasks, Duration: dur, Seed: 1}
}

func sleeper(cpu int, sleep sched.Time) sched.TaskSpec {
	return sched.TaskSpec{Name: "sleeper", Instances: 1, Policy: sched.SchedOther, CPUs: []int{cpu}, Parent: -1,
		Program: []sched.Op{{Kind: sched.OpRun, Dur: 100 * sched.Microsecond}, {Kind: sched.OpSleep, Dur: sleep}}, Loop: -1}
}

// idleWake is one wakeup of CPU 0 from an idle state: the state it left
// and the time from the wakeup to the switch-in.
type idleWake struct {
	state string
	delay sched.Time
}

// idleWakes runs cfg and returns CPU 0's wakeups from idle.
func idleWakes(t *testing.T, cfg sched.Config) []idleWake {
	t.Helper()
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k := &evSink{}
	s.Attach(k)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	names := s.IdleStateNames()
	var out []idleWake
	var woke sched.Time = -1
	state := int64(-1)
	for _, e := range k.evs {
		if e.CPU != 0 {
			continue
		}
		switch e.Kind {
		case sched.EvIdleEnter:
			state = e.Arg
		case sched.EvWakeup:
			woke = e.Time
		case sched.EvSwitch:
			if woke >= 0 && e.Next != sched.NoTask && state >= 0 {
				out = append(out, idleWake{names[state], e.Time - woke})
			}
			woke = -1
		}
	}
	return out
}

// A CPU idle in C6 (10 ms sleeps: menu predicts 10 ms > C6's 600 us target
// residency) pays C6's 170 us exit latency between the wakeup and the
// switch-in when every other cost is 0.
func TestC6WakeupPaysExitLatency(t *testing.T) {
	cfg := hwConfig(t, "icelake-2s32c", "v6.18", true, []sched.TaskSpec{sleeper(0, 10*sched.Millisecond)}, 50*sched.Millisecond)
	checked := 0
	for _, w := range idleWakes(t, cfg) {
		if w.state != "C6" {
			continue
		}
		if w.delay != 170*sched.Microsecond {
			t.Errorf("a wakeup from C6 switched in after %s, want the 170us C6 exit latency", w.delay)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d wakeups from C6", checked)
	}
}

// A polling idle CPU (POLL, or an MWAIT state: mwait_idle_with_hints()
// sets TIF_POLLING_NRFLAG before MONITOR since f8e617f45829, 2014) is woken
// by setting need_resched: no IPI. 3.11's idle loop cleared the polling bit
// before intel_idle's MWAIT, so there the wakeup needs an IPI.
func TestPollingIdleWakeupSendsNoIPI(t *testing.T) {
	for _, tc := range []struct {
		kernel string
		ipi    bool
	}{{"v6.18", false}, {"v6.6", false}, {"v5.8", false}, {"v3.11", true}} {
		cfg := hwConfig(t, "icelake-2s32c", tc.kernel, false, []sched.TaskSpec{sleeper(0, sched.Millisecond)}, 20*sched.Millisecond)
		s, _ := sched.New(cfg)
		k := &evSink{}
		s.Attach(k)
		s.RunUntil(5 * sched.Millisecond)
		s.SendCallFunctionIPI(0, 5)
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		var raised, noIPI int
		for _, e := range k.evs {
			if e.CPU == 5 && e.Kind == sched.EvIPIRaise {
				raised++
			}
			if e.CPU == 5 && e.Kind == sched.EvWakeIdleNoIPI {
				noIPI++
			}
		}
		if tc.ipi != (raised == 1) || tc.ipi == (noIPI == 1) {
			t.Errorf("%s: %d IPIs and %d wakeups without IPI; want IPI=%v", tc.kernel, raised, noIPI, tc.ipi)
		}
	}
}

// idleReentry is the time from a polling wake of idle CPU 5 with nothing
// queued to its next cpu_idle entry.
func idleReentry(t *testing.T, smIdle bool) (sched.Time, sched.HW) {
	cfg := hwConfig(t, "icelake-2s32c", "v6.18", false, []sched.TaskSpec{sleeper(0, sched.Millisecond)}, 20*sched.Millisecond)
	cfg.Profile.Features = cfg.Profile.Features.With(sched.SMIdle, smIdle)
	s, _ := sched.New(cfg)
	k := &evSink{}
	s.Attach(k)
	s.RunUntil(5 * sched.Millisecond)
	at := s.Now()
	s.SendCallFunctionIPI(0, 5)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	for _, e := range k.evs {
		if e.CPU == 5 && e.Kind == sched.EvIdleEnter && e.Time > at {
			return e.Time - at, cfg.HW
		}
	}
	t.Fatal("CPU 5 did not re-enter idle")
	return 0, cfg.HW
}

// SM_IDLE skips pick_next_task() when nothing is queued: the re-entry is
// shorter by exactly hw.pick_ns.
func TestSMIdleSkipsPick(t *testing.T) {
	with, hw := idleReentry(t, true)
	without, _ := idleReentry(t, false)
	if without-with != sched.Time(hw.PickNs) || hw.PickNs == 0 {
		t.Errorf("re-entry %s with SM_IDLE, %s without; want a difference of pick_ns %d", with, without, hw.PickNs)
	}
}

// Every CPU's time is user + sys + time in idle states.
func TestTimeConservationWithCosts(t *testing.T) {
	tasks := []sched.TaskSpec{sleeper(0, 3*sched.Millisecond), sleeper(1, 200*sched.Microsecond),
		{Name: "hog", Instances: 2, Policy: sched.SchedOther, CPUs: []int{1}, Parent: -1,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: 5 * sched.Millisecond}, {Kind: sched.OpSleep, Dur: sched.Millisecond}}, Loop: -1}}
	for _, machine := range []string{"smp-2", "icelake-2s32c", "epyc-milan-2s64c"} {
		cfg := hwConfig(t, machine, "v6.18", false, tasks, 100*sched.Millisecond)
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := metrics.New(s.NumCPUs())
		s.Attach(c)
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		r := c.Build(s, "conservation")
		for _, cpu := range r.CPUs {
			sum := cpu.UserNs + cpu.SysNs
			for _, ns := range cpu.IdleStateNs {
				sum += ns
			}
			if sum != r.DurationNs || cpu.BusyNs+cpu.IdleNs != r.DurationNs || cpu.SysNs < 0 || cpu.UserNs < 0 {
				t.Fatalf("%s cpu %d: user %d + sys %d + states %v = %d, want %d", machine, cpu.ID, cpu.UserNs, cpu.SysNs, cpu.IdleStateNs, sum, r.DurationNs)
			}
		}
		if r.CPUs[1].SysNs == 0 {
			t.Errorf("%s: no sys time on a busy CPU", machine)
		}
	}
}

func TestCStatesOffRemovesDeepStates(t *testing.T) {
	m, _ := topology.Preset("icelake-2s32c")
	hw := sched.DefaultHW(&m)
	hw.SetCStates(&m, false)
	var names []string
	for _, st := range hw.IdleStates {
		names = append(names, st.Name)
	}
	if len(names) != 2 || names[0] != "POLL" || names[1] != "C1" {
		t.Errorf("hw.cstates=off states %v, want [POLL C1]", names)
	}
}
