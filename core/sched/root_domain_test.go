package sched

import "testing"

// TestRootDomainOverloadGate: rd->overload is per root domain
// (root_domain.go). With CPUs 36-71 a "root" cpuset partition of the
// 72-CPU machine, an overloaded root domain of CPUs 0-35 does not open
// sched_balance_newidle()'s gate (this_rq->rd->overload) for a CPU of the
// partition, whose own domain walk runs only once its root domain is
// overloaded; CPU 0's walk follows CPU 0's root domain.
func TestRootDomainOverloadGate(t *testing.T) {
	cfg := newidleRTConfig(t, lbCosts{cpu: 1000})
	part := make([]int, 0, 36)
	for c := 36; c < 72; c++ {
		part = append(part, c)
	}
	cfg.Cgroups = []CgroupSpec{{Path: "/P", Shares: 1024, CPUs: part, Partition: "root"}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	root, p := s.rdOf(0), s.rdOf(40)
	if root == p || root.weight != 36 || p.weight != 36 || s.rdOf(71) != p {
		t.Fatalf("root domains: cpu0's weight %d, cpu40's %d, shared %v", root.weight, p.weight, root == p)
	}
	walk := func(cpu CPUID) int64 {
		rq := &s.rqs[cpu]
		rq.avgIdle = 2_000_000
		s.newidleBalance(rq)
		return s.takeLBSpan(rq)
	}
	root.overload, p.overload = true, false
	if got := walk(40); got != 0 {
		t.Errorf("cpu40 with only the other root domain overloaded: newidle walk of %d ns, want none (gated)", got)
	}
	if got := walk(0); got == 0 {
		t.Errorf("cpu0 in the overloaded root domain: no newidle walk")
	}
	root.overload, p.overload = false, true
	if got := walk(40); got == 0 {
		t.Errorf("cpu40 with its own root domain overloaded: no newidle walk")
	}
	if got := walk(0); got != 0 {
		t.Errorf("cpu0 with only the partition overloaded: newidle walk of %d ns, want none", got)
	}
}
