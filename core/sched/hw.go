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
//   - hw.timer_irq_ns: a sleeper's hrtimer interrupt on a CPU running a
//     task, stolen from that task (timer_irq.go);
//   - hw.timer_irq_latency_ns: from a sleeper's hrtimer hard expiry to its
//     interrupt (the local APIC timer's delivery; timer_irq.go);
//   - hw.ipi_latency_ns: from the sender's APIC write to the target
//     running the interrupt handler;
//   - hw.ipi_send_ns: the sender's side of smp_call_function_single()
//     (csd_lock, llist_add, set_nr_if_polling() or the ICR write) until the
//     target can see the request (csd.go);
//   - hw.csd_func_ns: the target running its call_single_queue
//     (flush_smp_call_function_queue() or the IPI handler entry, the
//     function, csd_unlock) until the spinning sender sees the unlock;
//   - hw.lb_cpu_ns, hw.lb_group_ns, hw.lb_task_ns, hw.lb_blocked_ns: the
//     load balancer's own time (lbcost.go): update_sd_lb_stats() per CPU
//     and per group visited, detach_task()+attach_task() per task moved,
//     update_blocked_averages() per CPU updated.
//
// A key has one generic default and, where machines differ, a per-machine
// value with its own source (hw_machines.go); docs/costs.md lists both.
//
// The zero HW value is an ideal machine: no costs, no idle-state latency,
// no cpuidle driver (the engine's behaviour before these mechanisms). The
// scenario layer always fills it from DefaultHW.

import (
	"fmt"

	"schedplay/core/quote"
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
	IPISendNs    int64
	CSDFuncNs    int64
	CtxSwitchNs  int64
	PickNs       int64
	IdleEnterNs  int64
	IdleExitNs   int64
	SchedIdleNs  int64
	TickStopNs   int64
	TickRestart  int64
	ClockEventNs int64
	TimerIRQNs   int64 // hw.timer_irq_ns (timer_irq.go)
	TimerIRQLat  int64 // hw.timer_irq_latency_ns (timer_irq.go)
	// Contention (contention.go), percent.
	SMTSlowdownPct  int64
	L2ContentionPct int64
	// Load-balancing costs (lbcost.go), ns.
	LBCPUNs, LBGroupNs, LBTaskNs, LBBlockedNs int64
}

// HWKey documents one hw.* key.
type HWKey struct {
	Name, Unit, Help, Source string
	field                    func(*HW) *int64
	def                      int64
	hi                       int64 // maximum (0 = 1 s in ns)
}

var hwKeys = []HWKey{
	{Name: "ipi_latency_ns", Unit: "ns", Help: "IPI delivery: sender's ICR write to the handler on the target",
		Source: "[estimate] ~1 us for an x86 IPI between cores of one socket (no authoritative number found: kernel-sched.md section 9); the S1 and S4 machines have calibrated rows",
		field:  func(h *HW) *int64 { return &h.IPILatencyNs }, def: 1000},
	{Name: "ipi_send_ns", Unit: "ns", Help: "smp_call_function_single() sender side: csd_lock, llist_add, set_nr_if_polling()/ICR write, until the target can see it",
		Source: "[estimate] a few atomics and one cross-core cache-line transfer (~100-200 ns intra-socket on 2012-2024 x86, e.g. core-to-core latency measurements with c2clat); per machine in hw_machines.go",
		field:  func(h *HW) *int64 { return &h.IPISendNs }, def: 200},
	{Name: "csd_func_ns", Unit: "ns", Help: "running a call_single_queue entry: flush_smp_call_function_queue()/IPI handler, the function, csd_unlock seen by the sender",
		Source: "[estimate] llist_del_all + an empty function + csd_unlock, and the unlock's cache-line transfer back to the spinning sender (~100-200 ns); per machine in hw_machines.go",
		field:  func(h *HW) *int64 { return &h.CSDFuncNs }, def: 200},
	{Name: "ctx_switch_ns", Unit: "ns", Help: "context_switch() + finish_task_switch(), sys time of the incoming task",
		Source: "[estimate] lmbench lat_ctx / perf bench sched pipe order of magnitude (1-2 us per switch incl. the syscalls on 2013-2024 x86); the S4 machine (xeon-2s8c-2013) has its own row",
		field:  func(h *HW) *int64 { return &h.CtxSwitchNs }, def: 700},
	{Name: "pick_ns", Unit: "ns", Help: "pick_next_task(): what SM_IDLE saves on an idle re-entry",
		Source: "[estimate] a few hundred instructions; calibrated per machine to docs/VALIDATION.md S1 (Ice Lake, EPYC rows)",
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
		Source: "[estimate] tick_nohz_next_event() + hrtimer bookkeeping ~1 us; the 2013 thread (S4 in docs/VALIDATION.md) attributes seconds per 1M round trips to stop/restart",
		field:  func(h *HW) *int64 { return &h.TickStopNs }, def: 1000},
	{Name: "tick_restart_ns", Unit: "ns", Help: "tick_nohz_restart_sched_tick() without clock-event programming (hrtimer_cancel/forward/start)",
		Source: "[estimate] ~1 us; ftrace docs wakeup_rt example (3.8-era): tick restart appears 16-17 us into a 29 us traced wakeup (tracer-inflated)",
		field:  func(h *HW) *int64 { return &h.TickRestart }, def: 1000},
	{Name: "clockevent_program_ns", Unit: "ns", Help: "one clock-event reprogram (tick_program_event / hrtimer_force_reprogram: LAPIC timer write); a tick stop and a restart write twice each, none within a jiffy with HRTIMER_NO_REPROGRAM_ON_REMOVE (tick_nohz.go)",
		Source: "[estimate] ~1 us for a LAPIC timer MSR/MMIO write path",
		field:  func(h *HW) *int64 { return &h.ClockEventNs }, def: 1000},
	{Name: "timer_irq_ns", Unit: "ns", Help: "hrtimer interrupt that wakes a sleeper on a CPU running a task: hrtimer_interrupt() (hrtimer_wakeup() -> try_to_wake_up(), tick_program_event()) to its return, stolen from the running task; a preemption it causes happens at its end (timer_irq.go); 0 = not modelled",
		Source: "default 0 (off: the model before this mechanism, which the calibrations of docs/VALIDATION.md assume); the trace replay sets it from the trace (core/replay/costs.go), a machine's cost set may give its own",
		field:  func(h *HW) *int64 { return &h.TimerIRQNs }, def: 0},
	{Name: "timer_irq_latency_ns", Unit: "ns", Help: "a sleeper's hrtimer interrupt comes this long after the timer's hard expiry (the clock event's delivery: local APIC timer, on a VM the TSC-deadline exit and injection); its wakeup and sched_waking are stamped at the interrupt; the tick is not delayed (timer_irq.go); 0 = at the expiry",
		Source: "default 0 (the interrupt at the hard expiry: the model before this key); a machine's cost set may give its own (hw_machines.go)",
		field:  func(h *HW) *int64 { return &h.TimerIRQLat }, def: 0},
	{Name: "smt_slowdown_pct", Unit: "%", Help: "SMT throughput: while another SMT sibling is busy, each busy thread runs this much slower than alone (0 = none; contention.go)",
		Source: "the kernel's own pre-v5.0 SMT model: smt_gain 1178 per two-thread core = 589/1024 = 58% of a lone thread each, i.e. 42% slower; calibration target S3",
		field:  func(h *HW) *int64 { return &h.SMTSlowdownPct }, def: 42, hi: 90},
	{Name: "l2_contention_pct", Unit: "%", Help: "shared-L2 contention: each other busy core of a multi-core L2 cluster (hybrid x86 E-core clusters) slows a CPU by this much, floor 10% speed (0 = none; contention.go)",
		Source: "[estimate] 5% per other busy core of the cluster: a build-like load on Gracemont E-cores sharing a 2 MB L2 (the cluster series' Jacobsville mcf_r gained 19-25% from spreading 6-12 copies over 4-core L2 clusters, a memory-bound extreme); only machines with multi-core L2 clusters (alderlake-6p8e) are affected; 15% for a full 4-core cluster, the top of the single-digit to ~15% slowdowns reported for Gracemont clusters; not fitted to S3: spreading over both clusters can only make a build faster through this cost (with the settled placement a throughput-bound build gains 0.8/2.8/0.6% for 8/10/12 jobs), while the thread's builds were 1.6/2.1/1.4% slower with cluster scheduling (docs/placement.md)",
		field:  func(h *HW) *int64 { return &h.L2ContentionPct }, def: 5, hi: 30},
	{Name: "lb_cpu_ns", Unit: "ns", Help: "load balancer statistics: update_sg_lb_stats() per CPU of the domain (remote rq and PELT reads, idle_cpu()), also per CPU of the busiest group in find_busiest_queue() (lbcost.go)",
		Source: "[estimate] 2-4 cache lines of a remote rq per CPU: ~100 ns on one socket; calibrated per machine where a thread measures it (hw_machines.go)",
		field:  func(h *HW) *int64 { return &h.LBCPUNs }, def: 100},
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

// Default is the key's default value on machine m: the machine's own
// value (hw_machines.go) or the generic one (m nil: always the generic).
func (k HWKey) Default(m *topology.Machine) int64 {
	if m != nil {
		if v, ok := machineCost(m.Name, k.Name); ok {
			return v.Value
		}
	}
	return k.def
}

// MachineDefaults lists the per-machine values of the key, in table order.
func (k HWKey) MachineDefaults() []MachineCost {
	var out []MachineCost
	for _, mc := range machineCosts {
		if mc.Key == k.Name {
			out = append(out, mc)
		}
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

// DisableStates removes the named idle states from the usable ones, as
// writing 1 to /sys/devices/system/cpu/cpuN/cpuidle/stateK/disable on
// every CPU does (hw.idle_disable). Apply it after SetCStates.
func (h *HW) DisableStates(names []string) error {
	for _, n := range names {
		found := false
		for i, st := range h.IdleStates {
			if st.Name == n {
				h.IdleStates = append(h.IdleStates[:i:i], h.IdleStates[i+1:]...)
				found = true
				break
			}
		}
		if !found {
			var have []string
			for _, st := range h.IdleStates {
				have = append(have, st.Name)
			}
			return quote.Errorf("no usable idle state %q (have %v)", n, have)
		}
	}
	if len(names) > 0 && len(h.IdleStates) == 0 {
		return fmt.Errorf("every idle state disabled: keep at least one")
	}
	return nil
}

// Set sets the numeric key name.
func (h *HW) Set(name string, v int64) error {
	for _, k := range hwKeys {
		if k.Name == name {
			hi := k.hi
			if hi == 0 {
				hi = int64(Second)
			}
			if v < 0 || v > hi {
				return fmt.Errorf("%d: want 0..%d %s", v, hi, k.Unit)
			}
			*k.field(h) = v
			return nil
		}
	}
	return fmt.Errorf("unknown machine knob (see `schedplay keys`)")
}
