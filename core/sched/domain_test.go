package sched

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/core/topology"
)

func domainSim(t *testing.T, machine, kernel string, feats ...Feature) *Sim {
	t.Helper()
	m, err := topology.Preset(machine)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := ProfileByName(kernel)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range feats {
		prof.Features = prof.Features.With(f, true)
	}
	s, err := New(Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()), Duration: Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// levelsOf renders cpu's domains as "NAME{span} ..." with the span in
// %*pbl form.
func levelsOf(s *Sim, cpu int) string {
	var parts []string
	for sd := s.topo[cpu].sd; sd != nil; sd = sd.parent {
		parts = append(parts, fmt.Sprintf("%s{%s}", sd.name, sd.span.format(len(s.rqs))))
	}
	return strings.Join(parts, " ")
}

func TestDomainLevels(t *testing.T) {
	for _, tc := range []struct {
		machine, kernel string
		feats           []Feature
		cpu             int
		want            string
	}{
		{"smp-1", "v6.18", nil, 0, ""},
		{"smp-2", "v6.18", nil, 1, "MC{0-1}"},
		{"smp-64", "v6.18", nil, 5, "MC{0-63}"},
		{"smp-8", "v5.8", nil, 0, "MC{0-7}"},
		{"icelake-2s32c", "v6.18", nil, 0, "SMT{0,64} MC{0-31,64-95} NUMA{0-127}"},
		{"icelake-2s32c", "v6.18", nil, 100, "SMT{36,100} MC{32-63,96-127} NUMA{0-127}"},
		{"epyc-milan-2s64c", "v6.18", nil, 0, "SMT{0,128} MC{0-7,128-135} PKG{0-63,128-191} NUMA{0-255}"},
		{"epyc-milan-2s64c", "v6.6", nil, 200, "SMT{72,200} MC{72-79,200-207} DIE{64-127,192-255} NUMA{0-255}"},
		{"xeon-4s18c", "v6.18", nil, 18, "SMT{18,90} MC{18-35,90-107} NUMA{0-143}"},
		{"sapphirerapids-2s56c", "v6.18", nil, 0, "SMT{0,112} MC{0-55,112-167} NUMA{0-223}"},
		{"zen4-16c", "v6.18", nil, 9, "SMT{9,25} MC{8-15,24-31} PKG{0-31}"},
		{"xeon-2s8c-2013", "v3.11", nil, 0, "SIBLING{0,16} MC{0-7,16-23} NUMA{0-31}"},
		{"alderlake-6p8e", "v6.18", nil, 0, "SMT{0-1} MC{0-19}"},
		{"alderlake-6p8e", "v6.18", nil, 12, "MC{0-19}"},
		{"alderlake-6p8e", "v6.18", []Feature{SchedCluster}, 12, "CLS{12-15} MC{0-19}"},
		{"alderlake-6p8e", "v6.18", []Feature{SchedCluster}, 3, "SMT{2-3} MC{0-19}"},
		{"bigLITTLE-rk3399", "v6.18", nil, 4, "MC{4-5} PKG{0-5}"},
	} {
		s := domainSim(t, tc.machine, tc.kernel, tc.feats...)
		if got := levelsOf(s, tc.cpu); got != tc.want {
			t.Errorf("%s %s %v cpu%d: domains %q, want %q", tc.machine, tc.kernel, tc.feats, tc.cpu, got, tc.want)
		}
	}
}

// TestDomainSpansFromTopology checks every preset against spans derived
// directly from the topology ids: each surviving level's span is the set of
// CPUs sharing the id the level is named after, and levels strictly grow.
func TestDomainSpansFromTopology(t *testing.T) {
	for _, name := range topology.Names() {
		s := domainSim(t, name, "v6.18", SchedCluster)
		m := &s.cfg.Machine
		for cpu := range m.CPUs {
			me := m.CPUs[cpu]
			var prev cpuMask
			for sd := s.topo[cpu].sd; sd != nil; sd = sd.parent {
				want := newCPUMask(len(m.CPUs))
				for j, o := range m.CPUs {
					var same bool
					switch sd.name {
					case "SMT":
						same = o.Core == me.Core
					case "CLS":
						same = o.Cluster == me.Cluster
					case "MC":
						same = o.LLC == me.LLC
					case "PKG":
						same = o.Node == me.Node
					case "NUMA":
						same = m.Distance(me.Node, o.Node) <= s.cfg.Machine.Distance(me.Node, o.Node) // all reachable
					}
					if same {
						want.set(j)
					}
				}
				if !sd.span.equal(want) {
					t.Errorf("%s cpu%d %s: span %s, want %s", name, cpu, sd.name, sd.span.format(len(m.CPUs)), want.format(len(m.CPUs)))
				}
				if !sd.span.has(CPUID(cpu)) || !sd.groups[0].span.has(CPUID(cpu)) {
					t.Errorf("%s cpu%d %s: span or first group misses the CPU", name, cpu, sd.name)
				}
				if prev != nil && (prev.equal(sd.span) || !prev.subset(sd.span)) {
					t.Errorf("%s cpu%d %s: span does not strictly contain the child's", name, cpu, sd.name)
				}
				// Groups partition the span (no overlap at these presets).
				cover := newCPUMask(len(m.CPUs))
				for _, g := range sd.groups {
					if cover.intersects(g.span) {
						t.Errorf("%s cpu%d %s: groups overlap", name, cpu, sd.name)
					}
					cover.or(g.span)
				}
				if !cover.equal(sd.span) {
					t.Errorf("%s cpu%d %s: groups cover %s, span %s", name, cpu, sd.name, cover.format(len(m.CPUs)), sd.span.format(len(m.CPUs)))
				}
				if len(sd.groups) < 2 {
					t.Errorf("%s cpu%d %s: a surviving domain has %d group", name, cpu, sd.name, len(sd.groups))
				}
				prev = sd.span
			}
		}
	}
}

func TestDomainFlagsAndTunables(t *testing.T) {
	type lv struct {
		flags              string
		imb, busy, cnt, mn int
	}
	for _, tc := range []struct {
		machine, kernel string
		cpu             int
		want            []lv
	}{
		{"icelake-2s32c", "v6.18", 0, []lv{
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_CPUCAPACITY SD_SHARE_LLC SD_PREFER_SIBLING", 110, 16, 0, 2},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC SD_PREFER_SIBLING", 117, 16, 1, 64},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SERIALIZE SD_OVERLAP SD_NUMA", 117, 16, 2, 128},
		}},
		{"icelake-2s32c", "v5.8", 0, []lv{
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_CPUCAPACITY SD_SHARE_PKG_RESOURCES SD_PREFER_SIBLING", 110, 32, 0, 2},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_PKG_RESOURCES SD_PREFER_SIBLING", 117, 32, 1, 64},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SERIALIZE SD_OVERLAP SD_NUMA", 125, 32, 2, 128},
		}},
		// Distance 32 > RECLAIM_DISTANCE would drop EXEC/FORK/WAKE_AFFINE,
		// but Zen sets node_reclaim_distance to 32.
		{"epyc-milan-2s64c", "v6.18", 0, []lv{
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_CPUCAPACITY SD_SHARE_LLC SD_PREFER_SIBLING", 110, 16, 0, 2},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC SD_PREFER_SIBLING", 117, 16, 1, 16},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_PREFER_SIBLING", 117, 16, 1, 128},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SERIALIZE SD_OVERLAP SD_NUMA", 117, 16, 2, 256},
		}},
		{"alderlake-6p8e", "v6.18", 0, []lv{
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_CPUCAPACITY SD_SHARE_LLC SD_PREFER_SIBLING", 110, 16, 0, 2},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC SD_ASYM_PACKING SD_PREFER_SIBLING", 117, 16, 1, 20},
		}},
		{"alderlake-6p8e", "v5.8", 0, []lv{ // SMT had SD_ASYM_PACKING before v6.5
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_CPUCAPACITY SD_SHARE_PKG_RESOURCES SD_ASYM_PACKING SD_PREFER_SIBLING", 110, 32, 0, 2},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_PKG_RESOURCES SD_ASYM_PACKING SD_PREFER_SIBLING", 117, 32, 1, 20},
		}},
		{"bigLITTLE-rk3399", "v6.18", 0, []lv{
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC", 117, 16, 1, 4},
			{"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_ASYM_CPUCAPACITY SD_ASYM_CPUCAPACITY_FULL SD_PREFER_SIBLING", 117, 16, 1, 6},
		}},
	} {
		s := domainSim(t, tc.machine, tc.kernel)
		i := 0
		for sd := s.topo[tc.cpu].sd; sd != nil; sd, i = sd.parent, i+1 {
			if i >= len(tc.want) {
				t.Errorf("%s %s: more levels than expected", tc.machine, tc.kernel)
				break
			}
			got := lv{strings.Join(sd.flags.Names(s.version), " "), sd.imbalancePct, sd.busyFactor, sd.cacheNiceTries, sd.minInterval}
			if got != tc.want[i] {
				t.Errorf("%s %s cpu%d %s:\n got %+v\nwant %+v", tc.machine, tc.kernel, tc.cpu, sd.name, got, tc.want[i])
			}
		}
	}
}

func TestDomainPerCPUPointers(t *testing.T) {
	s := domainSim(t, "icelake-2s32c", "v6.18")
	id, size, share := s.LLC(70)
	if id != 0 || size != 64 || share != 0 {
		t.Errorf("icelake cpu70 sd_llc_id/size/share_id = %d/%d/%d, want 0/64/0", id, size, share)
	}
	if s.topo[70].sdNUMA == nil || s.topo[70].sdNUMA.name != "NUMA" {
		t.Errorf("icelake cpu70: sd_numa not the NUMA level")
	}
	if sh := s.topo[70].sdLLCShared; sh == nil || sh != s.topo[5].sdLLCShared || sh.nrBusyCPUs != 64 {
		t.Errorf("icelake: LLC-shared state not shared within the LLC or nr_busy_cpus wrong")
	}
	if s.topo[70].sdLLCShared == s.topo[40].sdLLCShared {
		t.Errorf("icelake: two LLCs share a sched_domain_shared")
	}
	a := domainSim(t, "alderlake-6p8e", "v6.18", SchedCluster)
	if _, _, share := a.LLC(14); share != 12 {
		t.Errorf("alderlake cpu14 sd_share_id = %d, want 12 (its cluster)", share)
	}
	if a.topo[14].sdAsymPacking == nil || a.topo[14].sdAsymPacking.name != "MC" {
		t.Errorf("alderlake cpu14: sd_asym_packing should be MC")
	}
	if !a.schedAsymPrefer(4, 12) || a.schedAsymPrefer(0, 4) || a.topo[4].asymPrio != a.topo[5].asymPrio {
		t.Errorf("alderlake priorities: favoured P-core > P-core > E-core, siblings equal")
	}
	old := domainSim(t, "alderlake-6p8e", "v5.8")
	if p0, p1 := old.topo[0].asymPrio, old.topo[1].asymPrio; p0 != 60*2/1 || p1 != 60*2/2 {
		t.Errorf("v5.8 (prio*nsiblings/i) sibling priorities %d/%d", p0, p1)
	}
	r := domainSim(t, "bigLITTLE-rk3399", "v6.18")
	if r.topo[0].sdAsymCPUCap == nil || r.topo[0].sdAsymCPUCap.name != "PKG" {
		t.Errorf("rk3399: sd_asym_cpucapacity should be PKG")
	}
}

func TestDescribeDomainsFormat(t *testing.T) {
	s := domainSim(t, "icelake-2s32c", "v6.18")
	out := s.DescribeDomains()
	want := "CPU0 attaching sched-domain(s):\n domain-0: span=0,64 level=SMT\n  groups: 0:{ span=0 }, 64:{ span=64 }\n  domain-1: span=0-31,64-95 level=MC\n   groups: 0:{ span=0,64 cap=2048 }, 1:{ span=1,65 cap=2048 },"
	if !strings.HasPrefix(out, want) {
		t.Errorf("debug output starts\n%s\nwant\n%s", out[:min(len(out), len(want)+40)], want)
	}
	if !strings.Contains(out, "   domain-2: span=0-127 level=NUMA\n    groups: 0:{ span=0-31,64-95 cap=65536 }, 32:{ span=32-63,96-127 cap=65536 }\n") {
		t.Errorf("NUMA level missing or misformatted")
	}
	if got := domainSim(t, "smp-1", "v6.18").DescribeDomains(); got != "CPU0 attaching NULL sched-domain.\n" {
		t.Errorf("smp-1: %q", got)
	}
}
