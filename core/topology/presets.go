package topology

// The built-in machines. Each one lists where its numbers come from; numbers
// that could not be checked against a real machine's sysfs are marked
// approximate.

import "fmt"

// smp returns n identical CPUs on one package sharing one LLC, no SMT.
func smp(n int) Machine {
	m := Machine{
		Name:    fmt.Sprintf("smp-%d", n),
		Summary: fmt.Sprintf("%d identical cores, one LLC, no SMT", n),
		CPUs:    make([]CPU, n),
	}
	for i := range m.CPUs {
		m.CPUs[i] = CPU{ID: i, Core: i, Cluster: i, Capacity: CapacityScale}
	}
	m.Idle = genericIdle()
	return m
}

// vm2vcpu is the 2-vCPU KVM guest the real-kernel comparison runs on
// (docs/real-kernel.md): smp-2's shape, the haltpoll cpuidle driver, and
// its own measured costs (core/sched/hw_machines.go, docs/costs.md).
func vm2vcpu() Machine {
	m := smp(2)
	m.Name = "vm-2vcpu"
	m.Summary = "the 2-vCPU KVM guest of docs/real-kernel.md: 2 vCPUs, one LLC, no SMT, haltpoll cpuidle"
	m.Source = "lscpu and sysfs of the guest (2 vCPUs, 1 socket, L3 shared); costs measured with scripts/realkernel -vmcosts (docs/costs.md)"
	m.Idle = haltpollIdle()
	return m
}

// server builds a symmetric x86 server: sockets x cores, one NUMA node per
// socket, coresPerLLC cores sharing each last-level cache, and (with smt)
// two threads per core numbered the Linux way: the first threads of every
// core are CPUs 0..N-1 (socket by socket), their siblings N..2N-1.
func server(name, summary string, sockets, coresPerSocket, coresPerLLC int, smt bool, dist [][]int) Machine {
	cores := sockets * coresPerSocket
	threads := 1
	if smt {
		threads = 2
	}
	m := Machine{Name: name, Summary: summary, CPUs: make([]CPU, cores*threads), NodeDistance: dist}
	for t := 0; t < threads; t++ {
		for core := 0; core < cores; core++ {
			id := t*cores + core
			sock := core / coresPerSocket
			m.CPUs[id] = CPU{ID: id, Core: core, Cluster: core, LLC: core / coresPerLLC,
				Package: sock, Node: sock, Capacity: CapacityScale}
		}
	}
	return m
}

// fullMesh is a distance table where every remote node is d away.
func fullMesh(nodes, d int) [][]int {
	t := make([][]int, nodes)
	for a := range t {
		t[a] = make([]int, nodes)
		for b := range t[a] {
			t[a][b] = d
			if a == b {
				t[a][b] = LocalDistance
			}
		}
	}
	return t
}

func icelake2s32c() Machine {
	m := server("icelake-2s32c", "2 x Xeon Ice Lake-SP 32C/64T, one LLC and NUMA node per socket",
		2, 32, 32, true, fullMesh(2, 20))
	m.Source = "Xeon Platinum 8358-class 2-socket: one 48 MB L3 per socket, SNC off; SLIT 10/20 typical of 2-socket Intel firmware (approximate)"
	m.Idle = icxIdle()
	return m
}

func epycMilan2s64c() Machine {
	m := server("epyc-milan-2s64c", "2 x EPYC 7763 64C/128T, 8-core CCX per 32 MB L3, NPS1",
		2, 64, 8, true, fullMesh(2, 32))
	m.ReclaimDistance = 32
	m.Source = "EPYC 7003 (Zen 3): one 32 MB L3 per 8-core CCD; NPS1 gives one node per socket; SLIT 10/32 as AMD firmware reports for 2P NPS1 (approximate); node_reclaim_distance 32 as arch/x86 sets it for Zen (v5.4+)"
	m.Idle = acpiEPYC()
	return m
}

func xeon4s18c() Machine {
	m := server("xeon-4s18c", "4 x Xeon E7-8890 v3 18C/36T (Haswell-EX), fully connected QPI",
		4, 18, 18, true, fullMesh(4, 21))
	m.Source = "Haswell-EX 4-socket: one 45 MB L3 per socket, every socket one QPI hop away; SLIT 10/21 (approximate)"
	m.Idle = hswIdle()
	return m
}

func sapphireRapids2s56c() Machine {
	m := server("sapphirerapids-2s56c", "2 x Xeon Platinum 8480+ 56C/112T (Sapphire Rapids), SNC off",
		2, 56, 56, true, fullMesh(2, 21))
	m.Source = "Sapphire Rapids 2-socket, SNC disabled: one 105 MB L3 per socket; SLIT 10/21 (approximate)"
	m.Idle = sprIdle()
	return m
}

func zen4x16c() Machine {
	m := server("zen4-16c", "Ryzen 9 7950X: 16C/32T in 2 CCDs of 8 cores, one 32 MB L3 per CCD",
		1, 16, 8, true, nil)
	m.Source = "Zen 4 desktop: thread siblings are N apart (cpu0 and cpu16); amd-pstate preferred-core ITMT (v6.9+) not modelled"
	m.Idle = acpiEPYC()
	return m
}

func xeon2s8c2013() Machine {
	m := server("xeon-2s8c-2013", "2 x Xeon E5-2670 8C/16T (Sandy Bridge-EP, 2012-2013)",
		2, 8, 8, true, fullMesh(2, 20))
	m.Source = "Sandy Bridge-EP 2-socket: one 20 MB L3 per socket; SLIT 10/20 (approximate)"
	m.Idle = snbIdle()
	return m
}

// alderlake6p8e is a 6P+8E Alder Lake (i7-12700H class): P-cores with SMT
// numbered as adjacent pairs, E-cores after them in two clusters of four
// sharing an L2, one L3 for all.
func alderlake6p8e() Machine {
	const (
		eSpeed = 595 // E-core speed relative to a P-core (approximate, see Source)
		pPrio  = 60  // HWP highest perf of a P-core: 4.7 GHz / 78 MHz per unit
		pFav   = 62  // the two favoured P-cores (Turbo Boost Max 3.0), illustrative
		ePrio  = 35  // HWP highest perf of an E-core: 3.5 GHz / 100 MHz per unit
	)
	m := Machine{
		Name:    "alderlake-6p8e",
		Summary: "Core i7-12700H class: 6 P-cores SMT2 (CPUs 0-11) + 8 E-cores in 2 clusters of 4 (CPUs 12-19), ITMT",
		ITMT:    true,
		Hybrid:  true,
		Source: "approximate: P/E speed ratio and ITMT priorities from HWP highest-performance levels " +
			"(4.7 GHz P-core at 78 MHz/unit = 60, 3.5 GHz E-core at 100 MHz/unit = 35, E/P speed 35/60); " +
			"which two P-cores are favoured varies per chip; with SMT on, x86 reports arch capacity 1024 for every CPU",
	}
	for core := 0; core < 6; core++ {
		prio := pPrio
		if core == 2 || core == 3 {
			prio = pFav
		}
		for t := 0; t < 2; t++ {
			id := 2*core + t
			m.CPUs = append(m.CPUs, CPU{ID: id, Core: core, Cluster: core, Capacity: CapacityScale,
				ArchCapacity: CapacityScale, Prio: prio})
		}
	}
	for e := 0; e < 8; e++ {
		id := 12 + e
		m.CPUs = append(m.CPUs, CPU{ID: id, Core: 6 + e, Cluster: 6 + e/4*4, Capacity: eSpeed,
			ArchCapacity: CapacityScale, Prio: ePrio})
	}
	m.Idle = adlIdle()
	return m
}

// rk3399 is the Rockchip RK3399: 4 Cortex-A53 (CPUs 0-3) and 2 Cortex-A72
// (CPUs 4-5), each cluster with its own L2 (the last-level cache). The
// L2 clusters are the LLCs; Cluster stays per core because arm64's
// cpu_clustergroup_mask() collapses a cluster that spans the whole
// coregroup to the SMT mask, so no CLS level survives on this part.
func rk3399() Machine {
	// drivers/base/arch_topology.c topology_normalize_cpu_scale():
	// capacity = dmips * max_freq, scaled so the biggest is 1024.
	// rk3399.dtsi: capacity-dmips-mhz 485 (A53) and 1024 (A72); maximum OPPs
	// 1416 MHz (A53) and 1800 MHz (A72): 485*1416/1800 = 381.
	const little = 485 * 1416 / 1800
	m := Machine{
		Name:    "bigLITTLE-rk3399",
		Summary: "Rockchip RK3399: 4 x Cortex-A53 (CPUs 0-3) + 2 x Cortex-A72 (CPUs 4-5), L2 per cluster",
		Source:  "rk3399.dtsi capacity-dmips-mhz 485/1024 normalised by the 1416/1800 MHz top OPPs (the OPP values are from memory)",
	}
	for i := 0; i < 6; i++ {
		c := CPU{ID: i, Core: i, Cluster: i, Capacity: little}
		if i >= 4 {
			c.LLC, c.Capacity = 1, CapacityScale
		}
		m.CPUs = append(m.CPUs, c)
	}
	m.Idle = armIdle()
	return m
}
