package sched

import "testing"

// Tests of features.HYBRID_CLUSTER_SERIES (series.go): with it off the
// balance decisions follow v6.5's rules, with it on the series' rules.

// groupOf returns the group of sd that contains c.
func groupOf(t *testing.T, sd *schedDomain, c CPUID) *schedGroup {
	t.Helper()
	for _, g := range sd.groups {
		if g.span.has(c) {
			return g
		}
	}
	t.Fatalf("no group of %v holds CPU %d", sd.cpus, c)
	return nil
}

// TestHybridSeriesSiblingImbalance: alderlake with the CLS level, an idle
// E-core of a cluster running 2 tasks looks at a P-core with both SMT
// threads busy. v6.5 counts tasks (2 - 2 = 0: balanced); the series counts
// tasks per core ((2*(4*2 - 1*2) + 5) / 5 = 3: force the balance and move
// one task, 3 >> 1).
func TestHybridSeriesSiblingImbalance(t *testing.T) {
	for _, on := range []bool{false, true} {
		s := domainSim(t, "alderlake-6p8e", "v6.6", SchedCluster)
		s.feat = s.feat.With(HybridClusterSeries, on)
		sd := s.topo[12].sd.parent // MC above CLS{12-15}
		env := &lbEnv{sd: sd, dst: 12, idle: cpuIdle, local: groupOf(t, sd, 12), busy: groupOf(t, sd, 0)}
		if env.local.cores != 4 || env.busy.cores != 1 {
			t.Fatalf("cores: local %d busiest %d, want 4 and 1", env.local.cores, env.busy.cores)
		}
		got := s.siblingImbalance(env, &sgStats{nrRunning: 2}, &sgStats{nrRunning: 2})
		want := int64(0)
		if on {
			want = 3
		}
		if got != want {
			t.Errorf("series %v: sibling_imbalance = %d, want %d", on, got, want)
		}
		// v6.5 has no CPU_NOT_IDLE exception: the difference counts.
		env.idle = cpuNotIdle
		got = s.siblingImbalance(env, &sgStats{nrRunning: 3}, &sgStats{nrRunning: 1})
		want = 2
		if on {
			want = 0
		}
		if got != want {
			t.Errorf("series %v, busy dst: sibling_imbalance = %d, want %d", on, got, want)
		}
	}
}

// TestHybridSeriesShouldWeBalance: above the SMT level, the first idle CPU
// of the local group (a CCD at the PKG level) has a busy sibling. v6.5 lets it balance; the series
// (patch 4) gives the turn to the first CPU of an idle core.
func TestHybridSeriesShouldWeBalance(t *testing.T) {
	for _, on := range []bool{false, true} {
		s := domainSim(t, "zen4-16c", "v6.6")
		s.feat = s.feat.With(HybridClusterSeries, on)
		sd := s.topo[0].sd
		for sd != nil && len(sd.groups[0].cpus) <= 2 {
			sd = sd.parent // PKG: the groups are the two CCDs
		}
		if sd == nil {
			t.Fatal("zen4-16c: no domain whose groups span several cores")
		}
		g := sd.groups[0]
		first := g.cpus[0]
		var sib, other CPUID = -1, -1
		for _, x := range s.topo[first].smt {
			if x != first {
				sib = x
			}
		}
		for _, c := range g.cpus {
			if c != first && c != sib && s.topo[c].smt[0] != first {
				other = c
				break
			}
		}
		if sib < 0 || other < 0 {
			t.Fatalf("zen4 MC local group %v: no SMT sibling of %d or other core", g.cpus, first)
		}
		setBusy(s, sib)
		env := &lbEnv{sd: sd, idle: cpuIdle, cpus: newCPUMask(len(s.rqs))}
		for _, c := range sd.cpus {
			env.cpus.set(int(c))
		}
		env.dst = first
		if got := s.shouldWeBalance(env); got != !on {
			t.Errorf("series %v: idle CPU %d with busy sibling %d balances = %v, want %v", on, first, sib, got, !on)
		}
		// The first CPU of a fully idle core in the group's order.
		idleCore := CPUID(-1)
		for _, c := range g.cpus {
			if c != first && c != sib && g.balanceMask.has(c) {
				idleCore = c
				break
			}
		}
		env.dst = idleCore
		if got := s.shouldWeBalance(env); got != on {
			t.Errorf("series %v: CPU %d on an idle core balances = %v, want %v", on, idleCore, got, on)
		}
	}
}

// TestHybridSeriesOffKeepsFullyBusySMT: v6.5 already prefers a fully busy
// SMT group as busiest on equal avg_load (5fd6d7f43958, Ricardo Neri's
// series, before the cluster series): an idle E-core of alderlake without
// the CLS level that has seen a fully busy single E-core group first picks
// a fully busy P-core (both threads busy) over it, with the series' rules
// off as on, and keeps the P-core when the E-core comes second.
func TestHybridSeriesOffKeepsFullyBusySMT(t *testing.T) {
	for _, on := range []bool{false, true} {
		s := domainSim(t, "alderlake-6p8e", "v6.6")
		s.feat = s.feat.With(HybridClusterSeries, on)
		sd := s.topo[12].sd // MC: P-cores and single E-cores
		pcore, ecore := groupOf(t, sd, 0), groupOf(t, sd, 13)
		if pcore.flags&SDShareCPUCapacity == 0 || ecore.flags&SDShareCPUCapacity != 0 {
			t.Fatalf("group flags: P-core %v, E-core %v", pcore.flags.Names(s.version), ecore.flags.Names(s.version))
		}
		smt := sgStats{groupType: groupFullyBusy, hNrRunning: 2, nrRunning: 2, weight: 2}
		single := sgStats{groupType: groupFullyBusy, hNrRunning: 1, nrRunning: 1, weight: 1}
		env := &lbEnv{sd: sd, dst: 12, idle: cpuIdle, local: groupOf(t, sd, 12), busy: ecore}
		if !s.pickBusiest(env, pcore, &smt, &single) {
			t.Errorf("series %v: fully busy P-core not picked over a fully busy E-core", on)
		}
		env.busy = pcore
		if s.pickBusiest(env, ecore, &single, &smt) {
			t.Errorf("series %v: fully busy E-core replaced a fully busy P-core as busiest", on)
		}
	}
}

// TestHybridClusterMCGroups: alderlake with the CLS level (v6.6). The CLS
// level of a P-core spans its SMT pair and is removed as degenerate; the MC
// group of each P-core then carries the SMT flags (bf2dc42d6beb,
// "Propagate SMT flags when removing degenerate domain", v6.5), an E
// cluster the CLS flags (x86_cluster_flags(): no SD_SHARE_CPUCAPACITY).
// sg->cores is 1 and 4 (d24cb0d9113f). Seen from a P-CPU and an E-CPU.
func TestHybridClusterMCGroups(t *testing.T) {
	s := domainSim(t, "alderlake-6p8e", "v6.6", SchedCluster)
	for _, cpu := range []CPUID{0, 12} {
		sd := s.topo[cpu].sd
		for sd != nil && sd.name != "MC" {
			sd = sd.parent
		}
		if sd == nil || sd.flags&SDAsymPacking == 0 || sd.flags&SDPreferSibling == 0 {
			t.Fatalf("cpu %d: no MC level with SD_ASYM_PACKING and SD_PREFER_SIBLING", cpu)
		}
		if len(sd.groups) != 8 {
			t.Fatalf("cpu %d: MC has %d groups, want 6 P-cores + 2 E clusters", cpu, len(sd.groups))
		}
		for _, g := range sd.groups {
			smt := g.flags&SDShareCPUCapacity != 0
			pcore := g.cpus[0] < 12
			wantCores := 4
			if pcore {
				wantCores = 1
			}
			if smt != pcore || g.cores != wantCores || g.flags&SDPreferSibling == 0 {
				t.Errorf("cpu %d: MC group %v: SMT flags %v, cores %d, flags %v", cpu, g.cpus, smt, g.cores, g.flags.Names(s.version))
			}
		}
	}
}
