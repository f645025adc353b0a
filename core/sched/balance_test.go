package sched

import "testing"

// shareSink accumulates per-task CPU time from sched_switch and counts
// sched_migrate_task events by reason.
type shareSink struct {
	running map[CPUID]TaskID
	since   map[CPUID]Time
	runtime map[TaskID]Time
	migr    map[Reason]int
	nmigr   int
}

func newShareSink() *shareSink {
	return &shareSink{running: map[CPUID]TaskID{}, since: map[CPUID]Time{}, runtime: map[TaskID]Time{}, migr: map[Reason]int{}}
}

func (k *shareSink) Event(e *Event) {
	switch e.Kind {
	case EvSwitch:
		if p, ok := k.running[e.CPU]; ok && p != NoTask {
			k.runtime[p] += e.Time - k.since[e.CPU]
		}
		k.running[e.CPU], k.since[e.CPU] = e.Next, e.Time
	case EvMigrate:
		k.nmigr++
		k.migr[e.Reason]++
	case EvEnd:
		for c, p := range k.running {
			if p != NoTask {
				k.runtime[p] += e.Time - k.since[c]
			}
		}
	}
}

// TestThreeHogsTwoCPUsShareFairly: sched_balance_rq() (periodic load
// balance, migrate_load with the nr_balance_failed shift of detach_tasks())
// rotates three nice-0 hogs over two CPUs so each gets ~2/3 of a CPU.
func TestThreeHogsTwoCPUsShareFairly(t *testing.T) {
	for _, kernel := range []string{"v6.18", "v6.12", "v6.6"} { // v5.8: see docs/kernel-rules.md §9 (open: 74/76/50 %)
		t.Run(kernel, func(t *testing.T) {
			hog := []Op{{Kind: OpRun, Dur: Forever}}
			s := peltSim(t, "smp-2", kernel, 10*Second, TaskSpec{Name: "hog", Instances: 3, Loop: -1, Program: hog})
			k := newShareSink()
			s.Attach(k)
			if err := s.Run(); err != nil {
				t.Fatal(err)
			}
			for id := TaskID(0); id < 3; id++ {
				pct := float64(k.runtime[id]) / float64(10*Second) * 100
				if pct < 66.7-4 || pct > 66.7+4 {
					t.Errorf("hog %d got %.1f%% of a CPU, want 66.7 ± 4", id, pct)
				}
			}
			if k.nmigr == 0 || k.migr[ReasonPeriodicBalance] == 0 {
				t.Errorf("migrations %v, want periodic-balance migrations", k.migr)
			}
		})
	}
}

// TestPeriodicWakerAndHogTwoCPUs: fork placement (find_idlest_group())
// puts the periodic task and the hog on different CPUs; every timer wakeup
// finds its previous CPU idle (select_idle_sibling(): target idle), so the
// periodic task gets its full 10 % with no wait and never migrates, and
// the hog keeps a CPU to itself.
func TestPeriodicWakerAndHogTwoCPUs(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	per := []Op{{Kind: OpRun, Dur: Millisecond}, {Kind: OpTimer, Dur: 10 * Millisecond}}
	s := peltSim(t, "smp-2", "v6.18", 10*Second,
		TaskSpec{Name: "hog", Loop: -1, Program: hog},
		TaskSpec{Name: "periodic", Loop: -1, Program: per, Timers: 1, Slack: 50 * Microsecond})
	k := newShareSink()
	s.Attach(k)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	hogPct := float64(k.runtime[0]) / float64(10*Second) * 100
	perPct := float64(k.runtime[1]) / float64(10*Second) * 100
	if hogPct < 99.5 {
		t.Errorf("hog got %.2f%%, want ~100%% of its own CPU", hogPct)
	}
	if perPct < 9.9 || perPct > 10.1 {
		t.Errorf("periodic got %.2f%%, want 10%%", perPct)
	}
	if k.nmigr != 0 {
		t.Errorf("migrations %v, want none", k.migr)
	}
}

// TestWakeWide mirrors wake_wide(): wide when the smaller flip count reaches
// the LLC size and the larger is at least that many times larger.
func TestWakeWide(t *testing.T) {
	s := peltSim(t, "smp-8", "v6.18", Second, TaskSpec{Name: "x", Loop: 1, Program: []Op{{Kind: OpRun, Dur: Millisecond}}})
	llc := uint32(s.topo[0].sdLLCSize)
	cases := []struct {
		waker, wakee uint32
		want         bool
	}{
		{0, 0, false}, {llc * llc, llc, true}, {llc*llc - 1, llc, false}, {llc * llc, llc - 1, false}, {llc, llc * llc, true},
	}
	for _, c := range cases {
		w, p := &Task{wakeeFlips: c.waker}, &Task{wakeeFlips: c.wakee}
		if got := s.wakeWide(w, p, 0); got != c.want {
			t.Errorf("wake_wide(waker %d, wakee %d, llc %d) = %v, want %v", c.waker, c.wakee, llc, got, c.want)
		}
	}
}

// TestGroupClassify mirrors group_classify() / group_is_overloaded() /
// group_has_capacity() on one-CPU groups (imbalance_pct 117).
func TestGroupClassify(t *testing.T) {
	g := &schedGroup{sgc: &sgCapacity{}}
	cases := []struct {
		nr             int
		util, runnable int64
		want           int
	}{
		{0, 0, 0, groupHasSpare},
		{1, 100, 100, groupFullyBusy}, // nr == weight, runnable fine, util low: has capacity? no: nr<weight fails, util*117 < cap*100 -> has capacity
		{1, 1000, 1000, groupFullyBusy},
		{2, 1000, 2000, groupOverloaded},
		{2, 100, 100, groupHasSpare},
	}
	cases[1].want = groupHasSpare
	for _, c := range cases {
		st := &sgStats{nrRunning: c.nr, weight: 1, capacity: 1024, util: c.util, runnable: c.runnable}
		if got := groupClassify(117, g, st); got != c.want {
			t.Errorf("group_classify(nr %d util %d runnable %d) = %d, want %d", c.nr, c.util, c.runnable, got, c.want)
		}
	}
}

// TestBalanceInterval mirrors get_sd_balance_interval(): ms * busy_factor,
// to jiffies, minus one when busy (v5.10+), clamped to
// [1, HZ*ncpus/10].
func TestBalanceInterval(t *testing.T) {
	s := peltSim(t, "smp-2", "v6.18", Second, TaskSpec{Name: "x", Loop: 1, Program: []Op{{Kind: OpRun, Dur: Millisecond}}})
	sd := s.topo[0].sd
	sd.balanceInterval = 2
	if got := s.balanceInterval(sd, false); got != 1 { // 2 ms at HZ=250 rounds up to 1 jiffy
		t.Errorf("idle interval %d, want 1", got)
	}
	if got := s.balanceInterval(sd, true); got != 7 { // 32 ms = 8 jiffies, -1
		t.Errorf("busy interval %d, want 7", got)
	}
}
