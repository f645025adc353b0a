package replay

// Running a replay scenario, optionally on a machine no preset names (a
// platform description or topology file read by the caller), and
// reading the machine's capacities for the inference.

import (
	"fmt"
	"maps"
	"slices"

	"schedplay/core/metrics"
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
// the scenario's topology, which must have as many CPUs, and the sysctls
// the kernel scales by the CPU count are computed for it
// (sched_latency_ns and the granularities: update_sysctl()).
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
	if machine.NumCPUs() != cfg.Machine.NumCPUs() {
		return cfg, fmt.Errorf("machine %q has %d CPUs, the scenario's topology %q %d", machine.Name, machine.NumCPUs(), sc.Topology, cfg.Machine.NumCPUs())
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
	sim, err := sched.New(cfg)
	if err != nil {
		return metrics.Report{}, err
	}
	col := metrics.New(sim.NumCPUs())
	sim.Attach(col)
	if err := sim.Run(); err != nil {
		return metrics.Report{}, fmt.Errorf("run stopped: %v", err)
	}
	return col.Build(sim, name), nil
}
