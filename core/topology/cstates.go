package topology

// Idle states (C-states) of each machine, as the cpuidle driver registers
// them: drivers/idle/intel_idle.c state tables for the Intel parts,
// drivers/acpi/processor_idle.c (acpi_idle, from the firmware's _CST) for
// AMD, and drivers/cpuidle/poll_state.c for the POLL state 0 that x86
// cpuidle drivers put first (cpuidle_poll_state_init()).
//
// Exit latency and target residency are the driver's numbers (µs in the
// kernel, ns here). Each table names its source; values not read in the
// kernel source are marked [M] (memory) or [uncertain].

// IdleState is one cpuidle state (struct cpuidle_state).
type IdleState struct {
	Name string // as in /sys/devices/system/cpu/cpuN/cpuidle/stateK/name
	Desc string
	// ExitLatencyNs is exit_latency: the time from the wakeup event to the
	// first instruction the CPU executes.
	ExitLatencyNs int64
	// TargetResidencyNs is target_residency: the shortest idle period for
	// which the state saves energy; the governor does not pick it for less.
	TargetResidencyNs int64
	// Polling is CPUIDLE_FLAG_POLLING: a software busy loop (POLL).
	Polling bool
	// MWAIT marks a state entered with MONITOR/MWAIT on the thread flags.
	MWAIT bool
}

// IdleTable is a machine's cpuidle driver and its states, shallowest first.
type IdleTable struct {
	Driver string // intel_idle, acpi_idle, psci_idle
	States []IdleState
	// Source says where the numbers come from.
	Source string
	// BIOSOff, when set, are the states left with C-states disabled in the
	// BIOS where that is not just POLL and the driver's C1 (Usable).
	BIOSOff []IdleState
}

const us = 1000

var pollState = IdleState{Name: "POLL", Desc: "CPUIDLE CORE POLL IDLE", Polling: true}

func mwait(name, hint string, exitUs, targetUs int64) IdleState {
	return IdleState{Name: name, Desc: "MWAIT " + hint, ExitLatencyNs: exitUs * us, TargetResidencyNs: targetUs * us, MWAIT: true}
}

// Each function returns a fresh table (callers may filter it).

func icxIdle() IdleTable {
	return IdleTable{Driver: "intel_idle", States: []IdleState{pollState,
		mwait("C1", "0x00", 1, 1), mwait("C1E", "0x01", 4, 4), mwait("C6", "0x20", 170, 600)},
		Source: "intel_idle.c icx_cstates (read: C1 1/1, C1E 4/4; C6 170/600 from \"intel_idle: update ICX C6 data\", applied for v5.13, which replaced 128/384)"}
}

func sprIdle() IdleTable {
	return IdleTable{Driver: "intel_idle", States: []IdleState{pollState,
		mwait("C1", "0x00", 1, 1), mwait("C6", "0x20", 290, 800)},
		Source: "intel_idle.c spr_cstates: C1 1/1 (read), C1E 2/4 marked CPUIDLE_FLAG_UNUSABLE by default (read, so absent here), C6 290/800 (kernel-sched.md [R]; the first SPR patch had 128/384)"}
}

func hswIdle() IdleTable {
	return IdleTable{Driver: "intel_idle", States: []IdleState{pollState,
		mwait("C1", "0x00", 2, 2), mwait("C1E", "0x01", 10, 20), mwait("C3", "0x10", 33, 100), mwait("C6", "0x20", 133, 400)},
		Source: "intel_idle.c hsw_cstates as used for Haswell-EX [M: from memory, not read]; the package C7s-C10 rows of the client table are left out"}
}

func snbIdle() IdleTable {
	return IdleTable{Driver: "intel_idle", States: []IdleState{pollState,
		mwait("C1", "0x00", 2, 2), mwait("C1E", "0x01", 10, 20), mwait("C3", "0x10", 80, 211), mwait("C6", "0x20", 104, 345)},
		Source:  "intel_idle.c snb_cstates [M: from memory, not read]; C-states off in the BIOS: the firmware hides the MWAIT sub-states (CPUID leaf 5), intel_idle does not register and acpi_idle falls back to C1 = HLT with the default latency 0 (processor_idle.c acpi_processor_get_power_info_default() [M])",
		BIOSOff: []IdleState{pollState, {Name: "C1", Desc: "ACPI HLT", ExitLatencyNs: 0, TargetResidencyNs: 0}}}
}

func adlIdle() IdleTable {
	return IdleTable{Driver: "intel_idle", States: []IdleState{pollState,
		mwait("C1E", "0x01", 2, 4), mwait("C6", "0x20", 220, 600), mwait("C8", "0x40", 280, 800), mwait("C10", "0x60", 680, 2000)},
		Source: "intel_idle.c adl_cstates: C1 1/1 is CPUIDLE_FLAG_UNUSABLE by default (read); C1E 2/4, C6 220/600, C8 280/800, C10 680/2000 [M: from memory]"}
}

// acpiEPYC: acpi_idle from _CST. target_residency = latency * latency_factor (2).
func acpiEPYC() IdleTable {
	return IdleTable{Driver: "acpi_idle", States: []IdleState{pollState,
		{Name: "C1", Desc: "ACPI FFH MWAIT 0x0", ExitLatencyNs: 1 * us, TargetResidencyNs: 2 * us, MWAIT: true},
		{Name: "C2", Desc: "ACPI IOPORT 0x814", ExitLatencyNs: 400 * us, TargetResidencyNs: 800 * us}},
		Source: "[uncertain] acpi_idle from firmware _CST: C1 FFH MWAIT ~1 us, C2 IO-port; C2 400 us per a FreeBSD review (D47444, EPYC 7502P); target residency = latency x latency_factor 2 (processor_idle.c [M]); measure on the target"}
}

func genericIdle() IdleTable {
	return IdleTable{Driver: "intel_idle", States: []IdleState{pollState, mwait("C1", "0x00", 1, 1)},
		Source: "idealised machine: POLL and an MWAIT C1 of 1/1 us as intel_idle's icx/spr C1 (no deeper states)"}
}

// haltpollIdle is cpuidle-haltpoll of a KVM guest: POLL and the "haltpoll"
// state (default_idle(), HLT; the driver declares 1/1 us). The exit
// latency here is the one measured on the guest of docs/real-kernel.md: an
// IPI reaches a halted vCPU 6.5 us later than a running one (median of
// scripts/realkernel -vmcosts, docs/costs.md). HLT does not poll, so a
// wakeup needs an IPI.
func haltpollIdle() IdleTable {
	return IdleTable{Driver: "haltpoll", States: []IdleState{pollState,
		{Name: "haltpoll", Desc: "default architecture idle", ExitLatencyNs: 11900, TargetResidencyNs: 1 * us}},
		Source: "/sys/devices/system/cpu/cpu0/cpuidle on the guest (POLL, haltpoll 1/1 us declared); exit latency measured (halted vs running vCPU, docs/costs.md); booted cpuidle_haltpoll.force=1 haltpoll.guest_halt_poll_ns=0, so the haltpoll governor never polls (the simulator's governor is menu)"}
}

func armIdle() IdleTable {
	return IdleTable{Driver: "psci_idle", States: []IdleState{
		{Name: "WFI", Desc: "ARM WFI", ExitLatencyNs: 1 * us, TargetResidencyNs: 1 * us}},
		Source: "[uncertain] arm64 has no TIF_POLLING_NRFLAG and no POLL state; WFI 1/1 us as cpuidle-arm's state 0; the DT cluster-sleep states are not listed"}
}

// Usable returns the states left with C-states on or off. Off models
// C-states disabled in the BIOS: only POLL and C1 (the first hardware
// state) remain.
func (t IdleTable) Usable(cstates bool) []IdleState {
	if cstates {
		return append([]IdleState(nil), t.States...)
	}
	if t.BIOSOff != nil {
		return append([]IdleState(nil), t.BIOSOff...)
	}
	var out []IdleState
	hw := 0
	for _, s := range t.States {
		if s.Polling {
			out = append(out, s)
			continue
		}
		if hw == 0 {
			out = append(out, s)
		}
		hw++
	}
	return out
}
