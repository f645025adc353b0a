package replay

// Running a replay scenario, optionally on a machine no preset names (a
// platform description or topology file read by the caller), and
// reading the machine's capacities for the inference.

import (
	"fmt"
	"maps"
	"slices"

	"schedplay/core/metrics"
	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// Capacities lists the capacity of each CPU of m.
func Capacities(m *topology.Machine) []int {
	out := make([]int, len(m.CPUs))
	for i, c := range m.CPUs {
		out[i] = c.Capacity
	}
	return out
}

// Config builds the run configuration of sc; a non-nil machine replaces
// the scenario's topology (a stand-in preset when no preset describes the
// machine: every CPU the tasks name must exist on the machine), and the
// sysctls the kernel scales by the CPU count are computed for it
// (sched_latency_ns and the granularities: update_sysctl()). The costs
// and idle states stay the stand-in's when the machine has none.
func Config(sc *scenario.Scenario, machine *topology.Machine) (sched.Config, error) {
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return cfg, err
	}
	if machine == nil {
		return cfg, nil
	}
	if err := machine.Validate(); err != nil {
		return cfg, err
	}
	for _, ts := range cfg.Tasks {
		for _, c := range ts.CPUs {
			if c >= machine.NumCPUs() {
				return cfg, quote.Errorf("task group %s: cpu %d: machine %q has %d CPUs", quote.Clip(ts.Name), c, machine.Name, machine.NumCPUs())
			}
		}
	}
	idle := cfg.Machine.Idle
	cfg.Machine = *machine
	if len(cfg.Machine.Idle.States) == 0 {
		cfg.Machine.Idle = idle
	}
	sys := cfg.Profile.DefaultSysctls(machine.NumCPUs())
	for _, name := range slices.Sorted(maps.Keys(sc.Sysctl)) {
		if err := sys.Set(name, sc.Sysctl[name]); err != nil {
			return cfg, fmt.Errorf("sysctl.%s: %v", name, err)
		}
	}
	cfg.Sysctls = sys
	return cfg, nil
}

// Run runs a configuration to its end and returns its metrics.
func Run(cfg sched.Config, name string) (metrics.Report, error) {
	rep, err := metrics.Run(cfg, name)
	if err != nil {
		return metrics.Report{}, fmt.Errorf("run stopped: %v", err)
	}
	return rep, nil
}

// SMP is a machine of n identical CPUs sharing one last-level cache, the
// smp-N presets' shape, for a trace whose CPU count no preset has.
func SMP(n int) (topology.Machine, error) {
	if n < 1 || n > MaxPlatformCPUs {
		return topology.Machine{}, fmt.Errorf("smp machine of %d CPUs: want 1..%d", n, MaxPlatformCPUs)
	}
	ref, err := topology.Preset("smp-1")
	if err != nil {
		return topology.Machine{}, err
	}
	m := topology.Machine{Name: fmt.Sprintf("smp-%d", n), Summary: fmt.Sprintf("%d identical cores, one LLC, no SMT", n), Idle: ref.Idle}
	for i := 0; i < n; i++ {
		m.CPUs = append(m.CPUs, topology.CPU{ID: i, Core: i, Cluster: i, Capacity: topology.CapacityScale})
	}
	return m, nil
}

// StandIn names the preset a scenario of a machine no preset describes
// carries: the smallest with at least n CPUs (the largest if none has).
func StandIn(n int) string {
	best, bestN := "", 0
	for _, m := range topology.List() {
		c := m.NumCPUs()
		if (c >= n && (bestN < n || c < bestN)) || (bestN < n && c > bestN) {
			best, bestN = m.Name, c
		}
	}
	return best
}
