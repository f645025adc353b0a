package sched_test

// The ipi op (csd.go): a call-function IPI's round trip is the sum of its
// modelled parts, and the spin and sys steps keep every CPU's time
// conserved.

import (
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// ipiSender sleeps 5 ms (so CPU 5 settles in idle) and sends one IPI to
// CPU 5, then exits.
func ipiSender() sched.TaskSpec {
	return sched.TaskSpec{Name: "ipistorm", Instances: 1, Policy: sched.SchedOther, CPUs: []int{0}, Parent: -1, Loop: 1,
		Program: []sched.Op{{Kind: sched.OpSleep, Dur: 5 * sched.Millisecond}, {Kind: sched.OpIPI, CPU: 5}}}
}

// spin returns the sender's csd_lock_wait(): from the open sys window on
// CPU 0 to its close.
func spin(t *testing.T, cfg sched.Config) sched.Time {
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
	var from sched.Time = -1
	for _, e := range k.evs {
		if e.CPU == 0 && e.Kind == sched.EvKernel && e.Arg == -1 && from < 0 {
			from = e.Time
		}
		if e.CPU == 0 && e.Kind == sched.EvKernel && e.Arg == 0 && from >= 0 {
			return e.Time - from
		}
	}
	t.Fatal("no complete csd_lock_wait() on CPU 0")
	return 0
}

func TestIPIRoundTripIsSumOfParts(t *testing.T) {
	// v6.18, only POLL usable on CPU 5: the request is polled
	// (set_nr_if_polling, no IPI); POLL keeps the tick, so the exit has
	// no tick restart: ipi_send + idle_exit + csd_func.
	cfg := hwConfig(t, "icelake-2s32c", "v6.18", false, []sched.TaskSpec{ipiSender()}, 20*sched.Millisecond)
	m := cfg.Machine
	if err := cfg.HW.DisableStates([]string{"C1", "C1E", "C6"}); err != nil {
		t.Fatal(err)
	}
	hw := cfg.HW
	want := sched.Time(hw.IPISendNs + hw.IdleExitNs + hw.CSDFuncNs)
	if got := spin(t, cfg); got != want || want == 0 {
		t.Errorf("polled round trip %s, want ipi_send %d + idle_exit %d + csd_func %d = %s", got, hw.IPISendNs, hw.IdleExitNs, hw.CSDFuncNs, want)
	}

	// v3.11 (its idle loop clears the polling bit before MWAIT; from
	// 2014 mwait_idle_with_hints() sets it, see initIdle()), only C1
	// usable: a real IPI that wakes C1 and runs the function in the
	// handler (no schedule_idle()): ipi_send + ipi_latency + C1 exit +
	// csd_func.
	cfg = hwConfig(t, "icelake-2s32c", "v3.11", false, []sched.TaskSpec{ipiSender()}, 20*sched.Millisecond)
	cfg.HW.SetCStates(&m, true)
	if err := cfg.HW.DisableStates([]string{"POLL", "C1E", "C6"}); err != nil {
		t.Fatal(err)
	}
	hw = cfg.HW
	exit := hw.IdleStates[0].ExitLatencyNs
	want = sched.Time(hw.IPISendNs + hw.IPILatencyNs + exit + hw.CSDFuncNs)
	if got := spin(t, cfg); got != want || exit == 0 {
		t.Errorf("IPI round trip %s, want ipi_send %d + ipi_latency %d + C1 exit %d + csd_func %d = %s", got, hw.IPISendNs, hw.IPILatencyNs, exit, hw.CSDFuncNs, want)
	}
}

// A storm of IPIs with sys steps between them, on two machines: every
// CPU's user + sys + idle-state time is the run's duration, and the
// sender's spin is sys time.
func TestTimeConservationIPIStorm(t *testing.T) {
	storm := sched.TaskSpec{Name: "ipistorm", Instances: 1, Policy: sched.SchedOther, CPUs: []int{8}, Parent: -1, Loop: -1,
		Program: []sched.Op{{Kind: sched.OpIPI, CPU: 16}, {Kind: sched.OpSys, Dur: 300}, {Kind: sched.OpRun, Dur: 200}}}
	for _, machine := range []string{"icelake-2s32c", "epyc-milan-2s64c"} {
		cfg := hwConfig(t, machine, "v6.12", false, []sched.TaskSpec{storm, sleeper(16, 50*sched.Microsecond)}, 10*sched.Millisecond)
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := metrics.New(s.NumCPUs())
		s.Attach(c)
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		r := c.Build(s, "storm")
		for _, cpu := range r.CPUs {
			sum := cpu.UserNs + cpu.SysNs
			for _, ns := range cpu.IdleStateNs {
				sum += ns
			}
			if sum != r.DurationNs || cpu.SysNs < 0 || cpu.UserNs < 0 {
				t.Fatalf("%s cpu %d: user %d + sys %d + states %v = %d, want %d", machine, cpu.ID, cpu.UserNs, cpu.SysNs, cpu.IdleStateNs, sum, r.DurationNs)
			}
		}
		st := r.Tasks[0]
		if st.SysNs <= 0 || st.UserNs <= 0 || st.SysNs+st.UserNs != st.RuntimeNs {
			t.Errorf("%s: sender user %d sys %d runtime %d", machine, st.UserNs, st.SysNs, st.RuntimeNs)
		}
		// The sender runs 200 ns of user work per IPI and spins the rest.
		if st.SysNs < 2*st.UserNs {
			t.Errorf("%s: sender sys %d not dominated by the spin (user %d)", machine, st.SysNs, st.UserNs)
		}
	}
}
