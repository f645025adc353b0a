// Package topology describes the machines schedplay simulates: CPUs with their
// place in the hardware hierarchy (SMT core, cluster, last-level cache, package,
// NUMA node) and their compute capacity.
//
// It mirrors what the kernel learns from arch code before building sched
// domains (arch/x86/kernel/smpboot.c set_cpu_sibling_map(), drivers/base/
// arch_topology.c, arch_scale_cpu_capacity()). The sched domain tree itself is
// built from these ids by a later stage; this package only holds the facts.
//
// CPU numbering follows Linux on the modelled machine: on Intel servers the SMT
// siblings of CPUs 0..N-1 are N..2N-1.
package topology

import (
	"fmt"
	"strings"
)

// CapacityScale is SCHED_CAPACITY_SCALE: the capacity of the biggest CPU.
const CapacityScale = 1024

// CPU is one logical CPU (a hardware thread).
type CPU struct {
	ID       int // logical CPU number as Linux numbers it
	Core     int // physical core id (SMT siblings share it)
	Cluster  int // cluster id (CPUs sharing an L2 on hybrid parts); == Core if none
	LLC      int // last-level cache id
	Package  int // socket
	Node     int // NUMA node
	Capacity int // arch_scale_cpu_capacity(), 1..CapacityScale
}

// Machine is a named set of CPUs.
type Machine struct {
	Name    string
	Summary string
	CPUs    []CPU
}

// NumCPUs returns the number of logical CPUs.
func (m *Machine) NumCPUs() int { return len(m.CPUs) }

// Validate checks the machine description is consistent: CPU ids are 0..n-1 in
// order and capacities are within range.
func (m *Machine) Validate() error {
	if len(m.CPUs) == 0 {
		return fmt.Errorf("topology %q: no CPUs", m.Name)
	}
	for i, c := range m.CPUs {
		if c.ID != i {
			return fmt.Errorf("topology %q: cpus[%d] has id %d, want %d", m.Name, i, c.ID, i)
		}
		if c.Capacity < 1 || c.Capacity > CapacityScale {
			return fmt.Errorf("topology %q: cpu %d capacity %d outside 1..%d", m.Name, i, c.Capacity, CapacityScale)
		}
	}
	return nil
}

// Describe renders the machine as stable text, one CPU per line.
func (m *Machine) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d CPUs", m.Name, len(m.CPUs))
	if m.Summary != "" {
		fmt.Fprintf(&b, " (%s)", m.Summary)
	}
	b.WriteByte('\n')
	for _, c := range m.CPUs {
		fmt.Fprintf(&b, "cpu%d core=%d cluster=%d llc=%d package=%d node=%d capacity=%d\n",
			c.ID, c.Core, c.Cluster, c.LLC, c.Package, c.Node, c.Capacity)
	}
	return b.String()
}

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
	return m
}

// presets lists the built-in machines. It is a function, not a package
// variable, so that callers can never share and mutate one machine.
func presets() []Machine {
	return []Machine{smp(1), smp(2), smp(4), smp(8), smp(64)}
}

// Preset returns a fresh copy of the named machine.
func Preset(name string) (Machine, error) {
	for _, m := range presets() {
		if m.Name == name {
			return m, nil
		}
	}
	return Machine{}, fmt.Errorf("unknown topology %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the preset names in a stable order.
func Names() []string {
	ps := presets()
	names := make([]string, len(ps))
	for i, m := range ps {
		names[i] = m.Name
	}
	return names
}

// List returns all presets, in a stable order.
func List() []Machine { return presets() }
