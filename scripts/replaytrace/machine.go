//go:build linux

package main

// The machine a trace is replayed on. The traces are recorded on the
// machine scripts/realkernel describes (docs/real-kernel.json); when that
// is the 2-vCPU KVM guest the vm-2vcpu preset was measured on (a
// hypervisor guest of 2 CPUs), the replay runs on vm-2vcpu: its idle
// states are the guest's (POLL and haltpoll's HLT, whose exit is the
// halted vCPU's measured delay) and its costs the measured ones
// (docs/costs.md "The 2-vCPU VM"), so the fitted costs
// (core/replay/costs.go) are the rest of each path, where the kernel
// spends it. Elsewhere it runs on smp-N, the trace's CPU count; -topology
// names another preset.

import (
	"fmt"

	"schedplay/core/topology"
)

// vmPreset is the preset of the 2-vCPU guest.
const vmPreset = "vm-2vcpu"

// replayTopology returns the preset a trace of cpus CPUs recorded on mi
// replays on (flag: -topology, "" = by the machine) and why, for the
// report.
func replayTopology(flag string, mi machineInfo, cpus int) (string, string, error) {
	name, why := fmt.Sprintf("smp-%d", cpus), "the trace's CPU count"
	switch {
	case flag != "":
		name, why = flag, "-topology"
	case mi.Hypervisor && mi.CPUs == 2 && cpus == 2:
		name, why = vmPreset, "the preset of this 2-vCPU guest: its idle states and measured costs, docs/costs.md"
	}
	m, err := topology.Preset(name)
	if err != nil {
		return "", "", err
	}
	if m.NumCPUs() != cpus {
		return "", "", fmt.Errorf("the trace has %d CPUs, topology %s %d: give -topology smp-%d", cpus, name, m.NumCPUs(), cpus)
	}
	return name, why, nil
}
