package sched

import "testing"

// Decision-rule tests for wakeup placement (select.go, idlest.go). Each
// case names the kernel function whose rule it checks; the runqueues are
// set up by hand (busy = a fake running task) on a freshly built Sim.

func placementSim(t *testing.T, machine, kernel string) *Sim {
	t.Helper()
	return peltSim(t, machine, kernel, Second, TaskSpec{Name: "x", Loop: 1, Program: []Op{{Kind: OpRun, Dur: Millisecond}}})
}

func fakeTask(s *Sim, id TaskID) *Task {
	t := &Task{id: id, lastWakee: NoTask, recentUsedCPU: -1, affinity: newCPUMask(len(s.rqs))}
	for c := range s.rqs {
		t.affinity.set(c)
	}
	return t
}

func setBusy(s *Sim, cpus ...CPUID) {
	for _, c := range cpus {
		s.rqs[c].curr = fakeTask(s, TaskID(900+c))
		s.rqs[c].nrRunning = 1
	}
}

func TestSelectIdleSibling(t *testing.T) {
	cases := []struct {
		name       string
		kernel     string
		busy       []CPUID
		prev, tgt  CPUID
		recent     CPUID
		nrIdleScan int
		want       CPUID
		why        Reason
	}{
		{"select_idle_sibling: idle target", "v6.18", nil, 1, 1, -1, 4, 1, ReasonSISTarget},
		{"select_idle_sibling: idle prev sharing the LLC", "v6.18", []CPUID{0}, 2, 0, -1, 4, 2, ReasonSISPrev},
		{"select_idle_sibling: recent_used_cpu", "v6.18", []CPUID{0, 1}, 1, 0, 3, 4, 3, ReasonSISRecent},
		{"select_idle_cpu: scan from target+1", "v6.18", []CPUID{0, 1, 2}, 1, 2, -1, 4, 3, ReasonSISIdleCPU},
		{"select_idle_cpu: wraps around", "v6.18", []CPUID{1, 2, 3}, 2, 3, -1, 4, 0, ReasonSISIdleCPU},
		{"select_idle_cpu: SIS_UTIL nr_idle_scan 0 = overloaded LLC", "v6.18", []CPUID{1, 2, 3}, 2, 3, -1, 0, 3, ReasonSISTarget},
		{"select_idle_cpu: SIS_UTIL budget 1 scans one CPU", "v6.18", []CPUID{0, 2, 3}, 2, 3, -1, 1, 3, ReasonSISTarget},
		{"select_idle_cpu: budget 2 reaches the second", "v6.18", []CPUID{0, 2, 3}, 2, 3, -1, 2, 1, ReasonSISIdleCPU},
		{"v5.8 select_idle_cpu: no SIS_UTIL, whole LLC", "v5.8", []CPUID{0, 2, 3}, 2, 3, -1, 0, 1, ReasonSISIdleCPU},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := placementSim(t, "smp-4", c.kernel)
			setBusy(s, c.busy...)
			s.topo[0].sdLLCShared.nrIdleScan = c.nrIdleScan
			p := fakeTask(s, 50)
			p.recentUsedCPU = c.recent
			got, why := s.selectIdleSibling(p, c.prev, c.tgt, ReasonSISTarget)
			if got != c.want || why != c.why {
				t.Errorf("got cpu %d (%s), want %d (%s)", got, why, c.want, c.why)
			}
			// recent_used_cpu becomes prev once the target and prev
			// shortcuts did not return.
			if c.kernel == "v6.18" && c.why != ReasonSISPrev && c.tgt != c.want && p.recentUsedCPU != c.prev {
				t.Errorf("recent_used_cpu %d, want prev %d", p.recentUsedCPU, c.prev)
			}
		})
	}
}

// TestSelectIdleCore: with has_idle_cores set, select_idle_cpu() looks for
// a core whose SMT siblings are all idle and clears has_idle_cores when it
// finds none (select_idle_core(), set_idle_cores()); without it,
// select_idle_smt() tries prev's sibling first.
func TestSelectIdleCore(t *testing.T) {
	s := placementSim(t, "zen4-16c", "v6.18")
	if !s.smtActive {
		t.Fatal("zen4-16c should have SMT")
	}
	llc := s.topo[0].sdLLC
	sib := s.topo[0].smt
	if len(sib) != 2 {
		t.Fatalf("cpu0 siblings %v", sib)
	}
	// Make every CPU of the LLC busy except one sibling of each of two cores.
	for _, c := range llc.cpus {
		setBusy(s, c)
	}
	a := s.topo[llc.cpus[2]].smt // some core
	s.rqs[a[1]].curr, s.rqs[a[1]].nrRunning = nil, 0
	b := s.topo[llc.cpus[6]].smt
	for _, c := range b {
		s.rqs[c].curr, s.rqs[c].nrRunning = nil, 0
	}
	sh := s.topo[0].sdLLCShared
	sh.nrIdleScan = 16
	sh.hasIdleCores = true
	p := fakeTask(s, 50)
	got, why := s.selectIdleSibling(p, 0, 0, ReasonSISTarget)
	if got != b[0] || why != ReasonSISIdleCore {
		t.Errorf("idle core: got %d (%s), want %d (sis_idle_core)", got, why, b[0])
	}
	// No fully idle core left: the scan clears has_idle_cores and returns
	// an idle CPU it saw.
	for _, c := range b {
		setBusy(s, c)
	}
	got, _ = s.selectIdleSibling(p, 0, 0, ReasonSISTarget)
	if got != a[1] || sh.hasIdleCores {
		t.Errorf("no idle core: got %d has_idle_cores=%v, want %d and false", got, sh.hasIdleCores, a[1])
	}
	// select_idle_smt(): prev's idle sibling, before any scan.
	s.rqs[sib[1]].curr, s.rqs[sib[1]].nrRunning = nil, 0
	got, why = s.selectIdleSibling(p, 0, 0, ReasonSISTarget)
	if got != sib[1] || why != ReasonSISSMT {
		t.Errorf("smt sibling: got %d (%s), want %d", got, why, sib[1])
	}
}

// TestWakeAffine checks wake_affine_idle() and wake_affine_weight().
func TestWakeAffine(t *testing.T) {
	cases := []struct {
		name               string
		busy               []CPUID
		thisLoad, prevLoad uint64
		taskLoad           uint64
		sync               bool
		want               CPUID
	}{
		{"wake_affine_idle: both idle -> prev", nil, 0, 0, 100, false, 1},
		{"wake_affine_idle: this idle, prev busy -> this", []CPUID{1}, 0, 1024, 100, false, 0},
		{"wake_affine_idle: prev idle -> prev", []CPUID{0}, 1024, 0, 100, false, 1},
		{"wake_affine_idle: sync with one task on this -> this", []CPUID{0, 1}, 1024, 1024, 100, true, 0},
		{"wake_affine_weight: this lighter -> this", []CPUID{0, 1}, 100, 2048, 100, false, 0},
		{"wake_affine_weight: equal -> prev", []CPUID{0, 1}, 1024, 1124, 100, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := placementSim(t, "smp-4", "v6.18")
			setBusy(s, c.busy...)
			s.rqs[0].cfs.avg.loadAvg = c.thisLoad
			s.rqs[1].cfs.avg.loadAvg = c.prevLoad
			p := fakeTask(s, 50)
			p.se.avg.loadAvg = c.taskLoad
			waker := fakeTask(s, 51)
			got := s.wakeAffine(s.topo[0].sd, p, waker, 0, 1, c.sync)
			if got != c.want {
				t.Errorf("wake_affine = %d, want %d", got, c.want)
			}
		})
	}
}

// TestForkPlacementSpreads: find_idlest_group()/find_idlest_group_cpu()
// (SD_BALANCE_FORK) put four new hogs forked from CPU 0 on four CPUs of
// smp-4, the first staying local (local group has as many idle CPUs).
func TestForkPlacementSpreads(t *testing.T) {
	hog := []Op{{Kind: OpRun, Dur: Forever}}
	s := peltSim(t, "smp-4", "v6.18", 10*Millisecond, TaskSpec{Name: "hog", Instances: 4, Loop: -1, Program: hog})
	s.RunUntil(0)
	seen := map[CPUID]bool{}
	for id := TaskID(0); id < 4; id++ {
		seen[s.tasks[id].cpu] = true
	}
	if len(seen) != 4 || s.tasks[0].cpu != 0 {
		t.Errorf("cpus %v (task 0 on %d), want 4 distinct starting with 0", seen, s.tasks[0].cpu)
	}
}
