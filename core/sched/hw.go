package sched

// The machine model's costs (`hw.*` scenario keys): what the scheduler's own
// code paths and the hardware cost in time. Mirrors no single kernel
// function; each cost names the path it stands for:
//
//   - hw.ctx_switch_ns: context_switch() + finish_task_switch() (mm and
//     register switch), charged as sys time to the incoming task;
//   - hw.pick_ns: pick_next_task() (put_prev + class walk + pick), in every
//     __schedule() that picks, including schedule_idle() without SM_IDLE;
//   - hw.idle_enter_ns: do_idle() entry: cpuidle_idle_call() governor
//     select and cpuidle_enter_state() bookkeeping;
//   - hw.idle_exit_ns: cpuidle_reflect() and the do_idle() exit (polling
//     bit, flush_smp_call_function_queue());
//   - hw.schedule_idle_ns: schedule_idle() -> __schedule(SM_IDLE) apart from
//     the pick (rq lock, clock update, the switch decision);
//   - hw.tick_stop_ns / hw.tick_restart_ns: tick_nohz_stop_tick() and
//     tick_nohz_restart_sched_tick() without the clock-event reprogramming;
//   - hw.clockevent_program_ns: one tick_program_event() /
//     hrtimer_force_reprogram() (the LAPIC timer write);
//   - hw.ipi_latency_ns: from the sender's APIC write to the target
//     running the interrupt handler;
//   - hw.lb_cpu_ns, hw.lb_group_ns, hw.lb_task_ns, hw.lb_blocked_ns: the
//     load balancer's own time (lbcost.go): update_sd_lb_stats() per CPU
//     and per group visited, detach_task()+attach_task() per task moved,
//     update_blocked_averages() per newidle balance.
//
// A key may have a per-machine default (HWKey.perMachine): a cost that
// depends on the memory system (cross-socket cache misses) is calibrated
// once per machine, never per scenario.
//
// The zero HW value is an ideal machine: no costs, no idle-state latency,
// no cpuidle driver (the engine's behaviour before these mechanisms). The
// scenario layer always fills it from DefaultHW.

import (
	"fmt"

	"schedplay/core/topology"
)

// HW is the machine model of a run.
type HW struct {
	// IdleStates are the usable cpuidle states, shallowest first; nil = no
	// cpuidle driver (default_idle_call(), one zero-latency state).
	IdleStates   []topology.IdleState
	IdleDriver   string
	CStates      bool // hw.cstates
	IPILatencyNs int64
	CtxSwitchNs  int64
	PickNs       int64
	IdleEnterNs  int64
	IdleExitNs   int64
	SchedIdleNs  int64
	TickStopNs   int64
	TickRestart  int64
	ClockEventNs int64
	LBCPUNs      int64 // lbcost.go
	LBGroupNs    int64
	LBTaskNs     int64
	LBBlockedNs  int64
}

// HWKey documents one hw.* key.
type HWKey struct {
	Name, Unit, Help, Source string
	field                    func(*HW) *int64
	def                      int64
	perMachine               []machineDefault // overrides of def by machine name
}

// machineDefault is a key's calibrated default on one machine preset.
type machineDefault struct {
	machine string
	value   int64
}

var hwKeys = []HWKey{
	{Name: "ipi_latency_ns", Unit: "ns", Help: "IPI delivery: sender's ICR write to the handler on the target",
		Source: "[estimate] ~1 us for an x86 x2APIC IPI between cores of one socket (no authoritative number found: kernel-sched.md section 9); calibration target S1",
		field:  func(h *HW) *int64 { return &h.IPILatencyNs }, def: 1000},
	{Name: "ctx_switch_ns", Unit: "ns", Help: "context_switch() + finish_task_switch(), sys time of the incoming task",
		Source: "[estimate] lmbench lat_ctx / perf bench sched pipe order of magnitude (1-2 us per switch on 2013-2024 x86); S4 2013 row 4: 3.92 us per round trip of 2 switches + 2 wakeups + pipe syscalls; calibration target S4",
		field:  func(h *HW) *int64 { return &h.CtxSwitchNs }, def: 700},
	{Name: "pick_ns", Unit: "ns", Help: "pick_next_task(): what SM_IDLE saves on an idle re-entry",
		Source: "[estimate] S1: SM_IDLE saved 10-20% of an ipistorm round trip of a few us; calibration target S1",
		field:  func(h *HW) *int64 { return &h.PickNs }, def: 300},
	{Name: "idle_enter_ns", Unit: "ns", Help: "do_idle() entry: governor select + cpuidle_enter_state() bookkeeping",
		Source: "[estimate] menu_select() and the cpuidle entry path, a few hundred ns",
		field:  func(h *HW) *int64 { return &h.IdleEnterNs }, def: 400},
	{Name: "idle_exit_ns", Unit: "ns", Help: "do_idle() exit: cpuidle_reflect(), polling bit, wake-list flush",
		Source: "[estimate] a few hundred ns",
		field:  func(h *HW) *int64 { return &h.IdleExitNs }, def: 300},
	{Name: "schedule_idle_ns", Unit: "ns", Help: "schedule_idle() -> __schedule() without the pick (rq lock, clock update)",
		Source: "[estimate] rq lock + update_rq_clock, ~200 ns",
		field:  func(h *HW) *int64 { return &h.SchedIdleNs }, def: 200},
	{Name: "tick_stop_ns", Unit: "ns", Help: "tick_nohz_stop_tick() without clock-event programming (next-event computation, timer moves)",
		Source: "[estimate] tick_nohz_next_event() + hrtimer bookkeeping ~1 us; the 2013 thread (experiments.md S4) attributes seconds per 1M round trips to stop/restart",
		field:  func(h *HW) *int64 { return &h.TickStopNs }, def: 1000},
	{Name: "tick_restart_ns", Unit: "ns", Help: "tick_nohz_restart_sched_tick() without clock-event programming (hrtimer_cancel/forward/start)",
		Source: "[estimate] ~1 us; ftrace docs wakeup_rt example (3.8-era): tick restart appears 16-17 us into a 29 us traced wakeup (tracer-inflated)",
		field:  func(h *HW) *int64 { return &h.TickRestart }, def: 1000},
	{Name: "clockevent_program_ns", Unit: "ns", Help: "one clock-event reprogram (tick_program_event / hrtimer_force_reprogram: LAPIC timer write)",
		Source: "[estimate] ~1 us for a LAPIC timer MSR/MMIO write path; removed once per stop and restart by HRTIMER_NO_REPROGRAM_ON_REMOVE",
		field:  func(h *HW) *int64 { return &h.ClockEventNs }, def: 1000},
	{Name: "lb_cpu_ns", Unit: "ns", Help: "load balancer statistics: update_sg_lb_stats() per CPU of the domain (remote rq and PELT reads, idle_cpu()), also per CPU of the busiest group in find_busiest_queue() (lbcost.go)",
		Source: "[estimate] 2-4 cache lines of a remote rq per CPU: ~100 ns on one socket (default); [calibrated] xeon-4s18c 2200: experiments.md S2, rteval max latency with the RFC patches and HT off (160 us = one statistics pass over 72 CPUs), about five ~400 ns cross-socket misses per CPU (docs/kernel-rules.md section 12.3)",
		field:  func(h *HW) *int64 { return &h.LBCPUNs }, def: 100,
		perMachine: []machineDefault{{"xeon-4s18c", lbCPUNsXeon4S}}},
	{Name: "lb_group_ns", Unit: "ns", Help: "load balancer statistics: per sched group of the domain (update_sg_lb_stats() setup, group_classify(), update_sd_pick_busiest())",
		Source: "[estimate] a few hundred instructions and the group's sgc cache line, ~100 ns",
		field:  func(h *HW) *int64 { return &h.LBGroupNs }, def: 100},
	{Name: "lb_task_ns", Unit: "ns", Help: "detach_task() + attach_task() per task moved (busiest rq lock, dequeue, set_task_cpu, enqueue, wakeup_preempt)",
		Source: "[estimate] two rq lock round trips and two class (de)queues, ~1 us",
		field:  func(h *HW) *int64 { return &h.LBTaskNs }, def: 1000},
	{Name: "lb_blocked_ns", Unit: "ns", Help: "update_blocked_averages() of one CPU (one leaf cfs_rq per cgroup with load): the balancing CPU at the start of a newidle balance, and each idle CPU of the v4.17-v5.12 newidle blocked-load pass (nohz_stats.go)",
		Source: "[estimate] a handful of leaf cfs_rqs (systemd slices) at ~200 ns each, ~1 us",
		field:  func(h *HW) *int64 { return &h.LBBlockedNs }, def: 1000},
}

// HWKeys lists the numeric hw.* keys (hw.cstates is on|off and separate).
func HWKeys() []HWKey { return hwKeys }

// Default is the key's default value on machine m (nil: the generic
// default).
func (k HWKey) Default(m *topology.Machine) int64 {
	if m != nil {
		for _, d := range k.perMachine {
			if d.machine == m.Name {
				return d.value
			}
		}
	}
	return k.def
}

// MachineDefaults describes the per-machine defaults ("" when none), e.g.
// "xeon-4s18c: 1200".
func (k HWKey) MachineDefaults() string {
	out := ""
	for i, d := range k.perMachine {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s: %d", d.machine, d.value)
	}
	return out
}

// DefaultHW is the machine model of m with C-states on and the documented
// default costs.
func DefaultHW(m *topology.Machine) HW {
	h := HW{CStates: true}
	for _, k := range hwKeys {
		*k.field(&h) = k.Default(m)
	}
	h.SetCStates(m, true)
	return h
}

// SetCStates selects the usable idle states of m: all, or (off, C-states
// disabled in the BIOS) only POLL and C1.
func (h *HW) SetCStates(m *topology.Machine, on bool) {
	h.CStates = on
	h.IdleDriver = m.Idle.Driver
	h.IdleStates = m.Idle.Usable(on)
}

// Set sets the numeric key name.
func (h *HW) Set(name string, v int64) error {
	for _, k := range hwKeys {
		if k.Name == name {
			if v < 0 || v > int64(Second) {
				return fmt.Errorf("%d: want 0..1000000000 %s", v, k.Unit)
			}
			*k.field(h) = v
			return nil
		}
	}
	return fmt.Errorf("unknown machine knob (see `schedplay keys`)")
}
