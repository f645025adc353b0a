// Package topology describes the machines schedplay simulates: CPUs with their
// place in the hardware hierarchy (SMT core, cluster, last-level cache, package,
// NUMA node), their compute capacity, their ITMT/asym-packing priority, and the
// machine's NUMA node distance table.
//
// It mirrors what the kernel learns from arch code before building sched
// domains (arch/x86/kernel/smpboot.c set_cpu_sibling_map(), drivers/base/
// arch_topology.c, arch_scale_cpu_capacity(), arch/x86/kernel/itmt.c, the ACPI
// SLIT behind node_distance()). The sched domain tree itself is built from
// these ids by core/sched (domain_build.go); this package only holds the facts.
//
// CPU numbering follows Linux on the modelled machine: on Intel and AMD
// servers (and AMD client parts) the SMT siblings of CPUs 0..N-1 are
// N..2N-1; on Alder Lake client parts the P-core siblings are adjacent pairs
// (0/1, 2/3, ...) followed by the E-cores.
package topology

import (
	"fmt"
	"strings"

	"schedplay/core/quote"
)

// CapacityScale is SCHED_CAPACITY_SCALE: the capacity of the biggest CPU.
const CapacityScale = 1024

// LocalDistance and RemoteDistance are the kernel's default node distances
// (LOCAL_DISTANCE, REMOTE_DISTANCE in include/linux/topology.h), used when a
// machine has no distance table.
const (
	LocalDistance  = 10
	RemoteDistance = 20
)

// CPU is one logical CPU (a hardware thread).
type CPU struct {
	ID      int // logical CPU number as Linux numbers it
	Core    int // physical core id, unique in the machine (SMT siblings share it)
	Cluster int // cluster id (CPUs sharing an L2 on hybrid/Arm parts); == Core if none
	LLC     int // last-level cache id
	Package int // socket
	Node    int // NUMA node
	// Capacity is the CPU's speed relative to the fastest CPU of the machine
	// (1..CapacityScale): the engine runs work at Capacity/1024 per ns.
	Capacity int
	// ArchCapacity is arch_scale_cpu_capacity() as the kernel sees it, when
	// that differs from the hardware speed (x86 hybrid parts with SMT report
	// 1024 for every CPU and rely on ITMT priorities instead). 0 = Capacity.
	ArchCapacity int
	// Prio is the ITMT core priority (sched_core_priority, set by
	// intel_pstate from the core's highest performance level), shared by the
	// SMT siblings of a core. 0 = the machine has no ITMT priorities.
	Prio int
}

// KernelCapacity is arch_scale_cpu_capacity(): ArchCapacity when set,
// otherwise Capacity.
func (c *CPU) KernelCapacity() int {
	if c.ArchCapacity != 0 {
		return c.ArchCapacity
	}
	return c.Capacity
}

// Machine is a named set of CPUs.
type Machine struct {
	Name    string
	Summary string
	CPUs    []CPU
	// NodeDistance is node_distance(i, j) (the ACPI SLIT), one row per node.
	// nil = LocalDistance on the diagonal and RemoteDistance elsewhere.
	NodeDistance [][]int
	// ITMT is sysctl_sched_itmt_enabled: x86 asym packing by Prio.
	ITMT bool
	// Hybrid is X86_FEATURE_HYBRID_CPU (P-cores and E-cores).
	Hybrid bool
	// ReclaimDistance is node_reclaim_distance: NUMA levels farther than this
	// lose SD_BALANCE_EXEC/FORK and SD_WAKE_AFFINE. 0 = RECLAIM_DISTANCE (30).
	ReclaimDistance int
	// Source says where the numbers come from (or that they are approximate).
	Source string
	// Idle is the cpuidle driver's state table (cstates.go).
	Idle IdleTable
}

// NumCPUs returns the number of logical CPUs.
func (m *Machine) NumCPUs() int { return len(m.CPUs) }

// NumNodes returns the number of NUMA nodes (highest node id + 1).
func (m *Machine) NumNodes() int {
	n := 0
	for _, c := range m.CPUs {
		n = max(n, c.Node+1)
	}
	return n
}

// Distance is node_distance(a, b).
func (m *Machine) Distance(a, b int) int {
	if m.NodeDistance != nil {
		return m.NodeDistance[a][b]
	}
	if a == b {
		return LocalDistance
	}
	return RemoteDistance
}

// Validate checks the machine description is consistent: CPU ids are 0..n-1 in
// order, capacities are within range, the hierarchy nests (SMT siblings share
// a cluster, a cluster sits in one LLC, an LLC in one package, a package in
// one node), SMT siblings have the same capacity and priority, and the node
// distance table is square, symmetric, LocalDistance on the diagonal and
// larger elsewhere.
func (m *Machine) Validate() error {
	if len(m.CPUs) == 0 {
		return quote.Errorf("topology %q: no CPUs", m.Name)
	}
	nest := []struct {
		child, parent string
		get           func(c *CPU) (int, int)
	}{
		{"core", "cluster", func(c *CPU) (int, int) { return c.Core, c.Cluster }},
		{"cluster", "llc", func(c *CPU) (int, int) { return c.Cluster, c.LLC }},
		{"llc", "package", func(c *CPU) (int, int) { return c.LLC, c.Package }},
		{"package", "node", func(c *CPU) (int, int) { return c.Package, c.Node }},
	}
	for _, n := range nest {
		seen := map[int]int{}
		for i := range m.CPUs {
			k, p := n.get(&m.CPUs[i])
			if q, ok := seen[k]; ok && q != p {
				return quote.Errorf("topology %q: cpu %d: %s %d spans %ss %d and %d", m.Name, i, n.child, k, n.parent, q, p)
			}
			seen[k] = p
		}
	}
	core := map[int]CPU{}
	for i, c := range m.CPUs {
		if c.ID != i {
			return quote.Errorf("topology %q: cpus[%d] has id %d, want %d", m.Name, i, c.ID, i)
		}
		if c.Capacity < 1 || c.Capacity > CapacityScale {
			return quote.Errorf("topology %q: cpu %d capacity %d outside 1..%d", m.Name, i, c.Capacity, CapacityScale)
		}
		if c.ArchCapacity < 0 || c.ArchCapacity > CapacityScale {
			return quote.Errorf("topology %q: cpu %d arch capacity %d outside 0..%d", m.Name, i, c.ArchCapacity, CapacityScale)
		}
		if c.Node < 0 || c.Core < 0 || c.Package < 0 || c.LLC < 0 || c.Cluster < 0 {
			return quote.Errorf("topology %q: cpu %d has a negative id", m.Name, i)
		}
		if c.Prio < 0 || (m.ITMT && c.Prio == 0) {
			return quote.Errorf("topology %q: cpu %d ITMT priority %d (ITMT %v)", m.Name, i, c.Prio, m.ITMT)
		}
		if s, ok := core[c.Core]; ok && (s.Capacity != c.Capacity || s.KernelCapacity() != c.KernelCapacity() || s.Prio != c.Prio) {
			return quote.Errorf("topology %q: cpu %d differs from its SMT sibling cpu %d in capacity or priority", m.Name, i, s.ID)
		}
		core[c.Core] = c
	}
	nodes := m.NumNodes()
	has := make([]bool, nodes)
	for _, c := range m.CPUs {
		has[c.Node] = true
	}
	for n, ok := range has {
		if !ok {
			return quote.Errorf("topology %q: node %d has no CPUs", m.Name, n)
		}
	}
	if m.NodeDistance == nil {
		return nil
	}
	if len(m.NodeDistance) != nodes {
		return quote.Errorf("topology %q: node distance table has %d rows for %d nodes", m.Name, len(m.NodeDistance), nodes)
	}
	for a, row := range m.NodeDistance {
		if len(row) != nodes {
			return quote.Errorf("topology %q: node distance row %d has %d entries for %d nodes", m.Name, a, len(row), nodes)
		}
		for b, d := range row {
			switch {
			case a == b && d != LocalDistance:
				return quote.Errorf("topology %q: node_distance(%d,%d) = %d, want %d", m.Name, a, b, d, LocalDistance)
			case a != b && d <= LocalDistance:
				return quote.Errorf("topology %q: node_distance(%d,%d) = %d, want > %d", m.Name, a, b, d, LocalDistance)
			case d != m.NodeDistance[b][a]:
				return quote.Errorf("topology %q: node distance table not symmetric at (%d,%d)", m.Name, a, b)
			case d > 254:
				return quote.Errorf("topology %q: node_distance(%d,%d) = %d, want <= 254", m.Name, a, b, d)
			}
		}
	}
	return nil
}

// Describe renders the machine as stable text, one CPU per line. Fields a
// machine does not use (arch capacity equal to capacity, no ITMT priority,
// a single node) are left out, so the text of the smp-N machines never
// changes.
func (m *Machine) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d CPUs", m.Name, len(m.CPUs))
	if m.Summary != "" {
		fmt.Fprintf(&b, " (%s)", m.Summary)
	}
	b.WriteByte('\n')
	for _, c := range m.CPUs {
		fmt.Fprintf(&b, "cpu%d core=%d cluster=%d llc=%d package=%d node=%d capacity=%d",
			c.ID, c.Core, c.Cluster, c.LLC, c.Package, c.Node, c.Capacity)
		if c.ArchCapacity != 0 && c.ArchCapacity != c.Capacity {
			fmt.Fprintf(&b, " arch_capacity=%d", c.ArchCapacity)
		}
		if c.Prio != 0 {
			fmt.Fprintf(&b, " itmt_prio=%d", c.Prio)
		}
		b.WriteByte('\n')
	}
	if n := m.NumNodes(); n > 1 {
		b.WriteString("node distances:\n")
		for a := 0; a < n; a++ {
			fmt.Fprintf(&b, "  %d:", a)
			for c := 0; c < n; c++ {
				fmt.Fprintf(&b, " %d", m.Distance(a, c))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// presets lists the built-in machines. It is a function, not a package
// variable, so that callers can never share and mutate one machine. The
// smp-N machines come first (the rt-app importer picks the smallest).
// presetDefs names every preset beside its builder, in a stable order, so
// that Preset and Names build nothing they do not return (the 256-CPU
// machines take milliseconds to build, in the browser tens of them).
// TestPresetNamesMatch checks each name against the machine it builds.
func presetDefs() []presetDef {
	return []presetDef{
		{"smp-1", func() Machine { return smp(1) }}, {"smp-2", func() Machine { return smp(2) }},
		{"smp-4", func() Machine { return smp(4) }}, {"smp-8", func() Machine { return smp(8) }},
		{"smp-64", func() Machine { return smp(64) }},
		{"alderlake-6p8e", alderlake6p8e}, {"icelake-2s32c", icelake2s32c},
		{"epyc-milan-2s64c", epycMilan2s64c}, {"xeon-4s18c", xeon4s18c},
		{"sapphirerapids-2s56c", sapphireRapids2s56c}, {"zen4-16c", zen4x16c},
		{"xeon-2s8c-2013", xeon2s8c2013}, {"bigLITTLE-rk3399", rk3399},
		{"vm-2vcpu", vm2vcpu},
	}
}

type presetDef struct {
	name  string
	build func() Machine
}

func presets() []Machine {
	defs := presetDefs()
	out := make([]Machine, len(defs))
	for i, d := range defs {
		out[i] = d.build()
	}
	return out
}

// Preset returns a fresh copy of the named machine.
func Preset(name string) (Machine, error) {
	for _, d := range presetDefs() {
		if d.name == name {
			return d.build(), nil
		}
	}
	return Machine{}, quote.Errorf("unknown topology %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the preset names in a stable order.
func Names() []string {
	defs := presetDefs()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.name
	}
	return names
}

// List returns all presets, in a stable order.
func List() []Machine { return presets() }
