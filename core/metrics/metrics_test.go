package metrics

import (
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// run builds a small run on smp-1: a hog and a task that sleeps 3 ms after
// each 1 ms of work, for 100 ms, v5.8 CFS at HZ=1000 (ticks at 1 ms).
func run(t *testing.T) (*sched.Sim, Report) {
	t.Helper()
	m, _ := topology.Preset("smp-1")
	prof, _ := sched.ProfileByName("v5.8")
	prof.HZ = 1000
	s, err := sched.New(sched.Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(1),
		Duration: 100 * sched.Millisecond, Seed: 1,
		Tasks: []sched.TaskSpec{
			{Name: "hog", Instances: 1, Parent: -1, Loop: -1, Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
			{Name: "sleeper", Instances: 1, Parent: -1, Loop: -1, Slack: 0,
				Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Millisecond}, {Kind: sched.OpSleep, Dur: 3 * sched.Millisecond}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	c := New(s.NumCPUs())
	s.Attach(c)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	return s, c.Build(s, "test")
}

// TestTimeIsConserved: every task's runtime + wait + sleep is the whole run
// (both exist from t=0), and the CPU's busy time is the sum of runtimes.
func TestTimeIsConserved(t *testing.T) {
	_, r := run(t)
	var busy int64
	for _, tk := range r.Tasks {
		if got := tk.RuntimeNs + tk.WaitNs + tk.SleepNs; got != r.DurationNs {
			t.Errorf("%s: runtime %d + wait %d + sleep %d = %d, want %d", tk.Name, tk.RuntimeNs, tk.WaitNs, tk.SleepNs, got, r.DurationNs)
		}
		busy += tk.RuntimeNs
	}
	if c := r.CPUs[0]; c.BusyNs != busy || c.BusyNs+c.IdleNs != r.DurationNs {
		t.Errorf("cpu0 busy %d idle %d; want busy %d and busy+idle %d", c.BusyNs, c.IdleNs, busy, r.DurationNs)
	}
}

// TestCountsFollowTheEvents: the sleeper blocks once per 4 ms period or
// so, each block is a voluntary switch and each wakeup is counted once; a
// task's switches split into voluntary and involuntary like nr_switches.
func TestCountsFollowTheEvents(t *testing.T) {
	_, r := run(t)
	hog, sl := r.Tasks[0], r.Tasks[1]
	if hog.Wakeups != 0 || hog.InvoluntarySwitches != hog.Switches {
		t.Errorf("hog: wakeups %d, switches %d, involuntary %d; a hog never sleeps", hog.Wakeups, hog.Switches, hog.InvoluntarySwitches)
	}
	voluntary := sl.Switches - sl.InvoluntarySwitches
	if sl.Wakeups < 15 || sl.Wakeups > 25 {
		t.Errorf("sleeper woke %d times in 100 ms, want about 100/(1+3+wait) ms", sl.Wakeups)
	}
	if voluntary != sl.Wakeups && voluntary != sl.Wakeups+1 {
		t.Errorf("sleeper: %d voluntary switches for %d wakeups", voluntary, sl.Wakeups)
	}
	if sl.WakeupLatencyNs.Count != sl.Wakeups && sl.WakeupLatencyNs.Count != sl.Wakeups-1 {
		t.Errorf("latency samples %d for %d wakeups", sl.WakeupLatencyNs.Count, sl.Wakeups)
	}
	l := sl.WakeupLatencyNs
	if !(l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) || l.Mean > l.Max {
		t.Errorf("latency summary out of order: %+v", l)
	}
}

// TestSummarizeNearestRank checks the percentile definition on known data.
func TestSummarizeNearestRank(t *testing.T) {
	var v []int64
	for i := int64(100); i >= 1; i-- { // 100..1, unsorted on purpose
		v = append(v, i)
	}
	l := histOf(v).Summary()
	want := Latency{Count: 100, Mean: 50, P50: 50, P90: 90, P99: 99, Max: 100}
	if l != want {
		t.Errorf("Summary(1..100) = %+v, want %+v", l, want)
	}
	if l := histOf([]int64{7}).Summary(); l.P50 != 7 || l.P99 != 7 || l.Max != 7 || l.Count != 1 {
		t.Errorf("Summary([7]) = %+v", l)
	}
	if l := histOf(nil).Summary(); l != (Latency{}) {
		t.Errorf("Summary(nil) = %+v, want zero", l)
	}
}

// The report's rt_priority is sched_param.sched_priority: 1..99 for RT
// tasks, 0 for fair ones.
func TestRTPriorityReported(t *testing.T) {
	m, _ := topology.Preset("smp-1")
	prof, _ := sched.ProfileByName("v6.18")
	s, err := sched.New(sched.Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(1),
		Duration: 10 * sched.Millisecond, Seed: 1,
		Tasks: []sched.TaskSpec{
			{Name: "fair", Instances: 1, Parent: -1, Loop: -1, Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
			{Name: "rt", Instances: 1, Parent: -1, Loop: -1, Policy: sched.SchedRR, RTPriority: 42,
				Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Millisecond}, {Kind: sched.OpSleep, Dur: sched.Millisecond}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	c := New(s.NumCPUs())
	s.Attach(c)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	r := c.Build(s, "rt")
	got := map[string][2]any{}
	for _, tk := range r.Tasks {
		got[tk.Name] = [2]any{tk.Policy, tk.RTPriority}
	}
	if got["fair-0"] != [2]any{"SCHED_OTHER", 0} || got["rt-1"] != [2]any{"SCHED_RR", 42} {
		t.Fatalf("policies/rt_priority %v", got)
	}
}

// cputime_adjust(): the modelled sys:total ratio scaled to sum_exec_runtime,
// exact when nothing was added, clamped rather than overflowing.
func TestCputimeAdjust(t *testing.T) {
	for _, c := range []struct{ sys, total, rtime, want int64 }{
		{700, 750, 750, 700},
		{700, 750, 7500, 7000},
		{1 << 40, 1 << 41, 1 << 62, 1 << 61},
		{900, 750, 1500, 1500},
		{0, 0, 100, 0},
	} {
		if got := cputimeAdjust(c.sys, c.total, c.rtime); got != c.want {
			t.Errorf("cputimeAdjust(%d, %d, %d) = %d, want %d", c.sys, c.total, c.rtime, got, c.want)
		}
	}
}
