package sched

import (
	"math"
	"math/rand/v2"
	"testing"

	"schedplay/core/topology"
)

var peltY = math.Pow(0.5, 1.0/32)

func TestPELTDecayLoadTable(t *testing.T) {
	for n := uint64(0); n < 32*64; n += 7 {
		for _, v := range []uint64{1024, 47742, 1 << 20, 123456789} {
			got := float64(decayLoad(v, n))
			want := float64(v) * math.Pow(peltY, float64(n))
			if math.Abs(got-want) > want*1e-6+2 {
				t.Fatalf("decay_load(%d, %d) = %v, want %v", v, n, got, want)
			}
		}
	}
	if decayLoad(1<<40, 32*63+1) != 0 {
		t.Errorf("decay_load beyond 63 half-lives must be 0")
	}
}

// TestPELTLoadAvgMax: the series 1024*sum(y^n) the kernel's constant
// LOAD_AVG_MAX stands for, as accumulate_sum() builds it period by period.
func TestPELTLoadAvgMax(t *testing.T) {
	var sa schedAvg
	for p := 0; p < 2000; p++ {
		accumulateSum(1024, &sa, 1, 1, true)
	}
	// The sum saturates at LOAD_AVG_MAX - 1024 + period_contrib, i.e. the
	// divider: util_avg == 1024 minus truncation.
	if sa.loadSum < loadAvgMax-1024-40 || sa.loadSum > loadAvgMax {
		t.Errorf("saturated load_sum %d, want about %d", sa.loadSum, loadAvgMax-1024)
	}
	updateLoadAvgSums(&sa, 1024)
	if sa.utilAvg < 1000 || sa.utilAvg > 1024 || sa.loadAvg < 1000 || sa.loadAvg > 1024 {
		t.Errorf("saturated util_avg %d load_avg %d, want ~1024", sa.utilAvg, sa.loadAvg)
	}
	var sum float64
	for n := 0; n < 345; n++ {
		sum += 1024 * math.Pow(peltY, float64(n))
	}
	if math.Abs(sum-loadAvgMax) > 50 {
		t.Errorf("1024*sum(y^n, n<345) = %.0f, LOAD_AVG_MAX %d", sum, loadAvgMax)
	}
}

// TestPELTAgainstFloatReference runs random running/runnable/blocked
// segments with updates at random instants through the kernel arithmetic
// and through a float model of the same definition: each 1024 ns unit in
// which the entity ran contributes 1024 * y^(periods since that unit's
// period), periods being aligned to clock_pelt multiples of 1024*1024 ns.
func TestPELTAgainstFloatReference(t *testing.T) {
	seed := uint64(42)
	r := rand.New(rand.NewPCG(seed, 7))
	var sa schedAvg
	var refUtil, refLoad float64 // per-unit sums, decayed per period
	var now uint64               // ns
	unit := uint64(0)            // units accounted by the reference
	for step := 0; step < 4000; step++ {
		state := r.IntN(3) // 0 blocked, 1 runnable, 2 running
		d := uint64(r.IntN(3_000_000)) + 1
		load, running := uint64(0), false
		if state > 0 {
			load = 1
		}
		if state == 2 {
			running = true
		}
		now += d
		// Kernel side: one update at now with the state that held since
		// the previous update.
		if updateLoadSum(now, &sa, load, load, running) {
			updateLoadAvgSums(&sa, 1)
		}
		// Reference: advance unit by unit to sa.lastUpdateTime.
		for ; unit < sa.lastUpdateTime>>10; unit++ {
			if unit%1024 == 0 && unit > 0 {
				refUtil *= peltY
				refLoad *= peltY
			}
			if running {
				refUtil += 1024
			}
			if load != 0 {
				refLoad++
			}
		}
		if step%50 == 0 {
			gotU := float64(sa.utilSum)
			if math.Abs(gotU-refUtil) > refUtil*0.002+2048 {
				t.Fatalf("seed %d step %d: util_sum %v, float reference %v", seed, step, gotU, refUtil)
			}
			if gotL := float64(sa.loadSum); math.Abs(gotL-refLoad) > refLoad*0.002+2 {
				t.Fatalf("seed %d step %d: load_sum %v, float reference %v", seed, step, gotL, refLoad)
			}
		}
	}
}

// peltSim runs a scenario and returns the Sim.
func peltSim(t *testing.T, machine, kernel string, dur Time, tasks ...TaskSpec) *Sim {
	t.Helper()
	m, err := topology.Preset(machine)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := ProfileByName(kernel)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tasks {
		tasks[i].Parent = -1
		if tasks[i].Instances == 0 {
			tasks[i].Instances = 1
		}
	}
	s, err := New(Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()), Tasks: tasks, Duration: dur, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPELTNewTaskUtil(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-1", "v6.18", Second,
		TaskSpec{Name: "a", Instances: 4, Loop: -1, Program: hog})
	s.RunUntil(0)
	want := []uint64{512, 256, 128, 64}
	for i, w := range want {
		p := s.TaskPELT(TaskID(i))
		if p.UtilAvg != w || p.RunnableAvg != w || p.LoadAvg != 1024 {
			t.Errorf("fork %d: util %d runnable %d load %d, want util=runnable=%d load=1024", i, p.UtilAvg, p.RunnableAvg, p.LoadAvg, w)
		}
	}
	if c := s.CPUPELT(0); c.UtilAvg != 960 || c.LoadAvg != 4096 {
		t.Errorf("cpu0 after 4 forks: util %d load %d, want 960 and 4096", c.UtilAvg, c.LoadAvg)
	}
}

func TestPELTSteadyStates(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	half := []Op{{Kind: OpRun, Dur: 8 * Millisecond}, {Kind: OpSleep, Dur: 8 * Millisecond}}
	for _, kernel := range []string{"v5.8", "v6.6", "v6.18"} {
		s := peltSim(t, "smp-2", kernel, 2*Second,
			TaskSpec{Name: "h", Instances: 2, Loop: -1, Program: hog, CPUs: []int{0}},
			TaskSpec{Name: "half", Loop: -1, Program: half, CPUs: []int{1}, Slack: 1})
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			p := s.TaskPELT(TaskID(i))
			// Two hogs share CPU 0: each runs half the time, is always runnable.
			if p.UtilAvg < 440 || p.UtilAvg > 580 || p.RunnableAvg < 1000 || p.LoadAvg < 1000 {
				t.Errorf("%s hog %d: util %d runnable %d load %d; want util ~512, runnable and load ~1024", kernel, i, p.UtilAvg, p.RunnableAvg, p.LoadAvg)
			}
		}
		if c := s.CPUPELT(0); c.UtilAvg < 1000 || c.RunnableAvg < 2000 || c.LoadAvg < 2000 {
			t.Errorf("%s cpu0: util %d runnable %d load %d; want ~1024, ~2048, ~2048", kernel, c.UtilAvg, c.RunnableAvg, c.LoadAvg)
		}
		// 50% duty cycle with 8 ms phases: util oscillates around 512.
		if p := s.TaskPELT(2); p.UtilAvg < 350 || p.UtilAvg > 680 {
			t.Errorf("%s half-duty task: util %d, want 512 +- 170", kernel, p.UtilAvg)
		}
	}
}

// TestPELTConvergence: a task running from an empty CPU follows
// util(t) = u0*y^n + 1024*(1-y^n) per the definition.
func TestPELTConvergence(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-1", "v6.18", Second, TaskSpec{Name: "h", Loop: -1, Program: hog})
	for _, ms := range []int{4, 16, 32, 64, 200} {
		at := Time(ms) * Millisecond
		s.RunUntil(at)
		// Ticks update the average every 4 ms (HZ=250); compare at a tick.
		p := s.TaskPELT(0)
		n := float64(p.LastUpdate) / (1024 * 1024)
		want := 512*math.Pow(peltY, n) + 1024*(1-math.Pow(peltY, n))
		if math.Abs(float64(p.UtilAvg)-want) > 14 {
			t.Errorf("t=%dms: util %d, want %.0f (u0=512 converging to 1024)", ms, p.UtilAvg, want)
		}
	}
}

// TestPELTBlockedDecayAndExit: a sleeping task's contribution stays in the
// CPU's signal and decays with it; when the task exits it is removed.
func TestPELTBlockedDecayAndExit(t *testing.T) {
	prog := []Op{{Kind: OpRun, Dur: 100 * Millisecond}, {Kind: OpSleep, Dur: 64 * Millisecond}, {Kind: OpRun, Dur: 1 * Millisecond}}
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-2", "v6.18", Second,
		TaskSpec{Name: "p", Loop: 1, Program: prog, CPUs: []int{0}},
		TaskSpec{Name: "tick", Loop: -1, Program: hog, CPUs: []int{1}})
	s.RunUntil(100 * Millisecond)
	before := s.TaskPELT(0).UtilAvg
	s.RunUntil(164*Millisecond - 1)
	// While blocked, CPU 0's signal only decays: load balancing's
	// stand-in for the nohz blocked-load update may refresh it, never raise it.
	if got := s.CPUPELT(0).UtilAvg; got > before+30 {
		t.Errorf("idle CPU's util grew while idle: %d -> %d", before, got)
	}
	s.RunUntil(164*Millisecond + 10)
	// The wakeup enqueue aged the task over 64 ms = 2 half-lives.
	after := s.TaskPELT(0).UtilAvg
	if want := float64(before) / 4; math.Abs(float64(after)-want) > 0.05*want+8 {
		t.Errorf("util after 64 ms blocked: %d, want ~%.0f (before %d / 4)", after, want, before)
	}
	s.RunUntil(300 * Millisecond)
	if tsk := s.task(0); tsk.state != stateDead {
		t.Fatalf("task should have exited")
	}
	// The CPU is idle after the exit; the removal is applied at the next
	// update of its cfs_rq. Force one as the blocked-load update would.
	rq := &s.rqs[0]
	s.updateRqClockPelt(rq)
	s.updateCfsRqLoadAvg(rq.clockPeltNow(), &rq.cfs)
	if c := s.CPUPELT(0); c.UtilAvg != 0 || c.LoadAvg != 0 || c.RunnableAvg != 0 {
		t.Errorf("cpu0 after exit: %+v, want zero averages", c)
	}
}

// TestPELTAttachDetach: detaching a task from one cfs_rq and attaching it
// to another moves exactly its contribution.
func TestPELTAttachDetach(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-2", "v6.18", Second,
		TaskSpec{Name: "a", Instances: 2, Loop: -1, Program: hog, CPUs: []int{0}})
	s.RunUntil(100 * Millisecond)
	rq0, rq1 := &s.rqs[0], &s.rqs[1]
	tk := s.task(1)
	s.updateLoadAvg(rq0, tk, 0)
	c0 := rq0.cfs.avg
	se := tk.se.avg
	s.detachEntityLoadAvg(&rq0.cfs, tk)
	if rq0.cfs.avg.utilAvg != c0.utilAvg-se.utilAvg || rq0.cfs.avg.loadAvg != c0.loadAvg-se.loadAvg {
		t.Errorf("detach: cfs util %d load %d, want %d %d", rq0.cfs.avg.utilAvg, rq0.cfs.avg.loadAvg, c0.utilAvg-se.utilAvg, c0.loadAvg-se.loadAvg)
	}
	s.updateRqClockPelt(rq1)
	s.updateCfsRqLoadAvg(rq1.clockPeltNow(), &rq1.cfs)
	s.attachEntityLoadAvg(&rq1.cfs, tk)
	if rq1.cfs.avg.utilAvg != se.utilAvg || rq1.cfs.avg.loadAvg != se.loadAvg || !tk.se.avg.attached {
		t.Errorf("attach: cfs util %d load %d, want the task's %d %d", rq1.cfs.avg.utilAvg, rq1.cfs.avg.loadAvg, se.utilAvg, se.loadAvg)
	}
}
