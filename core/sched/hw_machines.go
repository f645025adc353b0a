package sched

// Per-machine cost defaults: the hw.* values that differ between the
// machine presets (core/topology/presets.go), each with its source. A key
// without a row for a machine takes its generic default (hw.go). Mirrors no
// kernel function: these are the hardware's side of the code paths hw.go
// names. docs/costs.md lists every value.

// MachineCost is one machine's default of one hw.* key.
type MachineCost struct {
	Machine, Key string
	Value        int64
	Source       string
}

var machineCosts = []MachineCost{
	// Ice Lake-SP, 2 sockets (icelake-2s32c), kernel v6.12 era.
	{"icelake-2s32c", "clockevent_program_ns", 200, "[estimate] TSC-deadline mode: one WRMSR to IA32_TSC_DEADLINE in lapic_next_deadline() (~100-300 ns with the fence)"},
	{"icelake-2s32c", "tick_stop_ns", 500, "[estimate] tick_nohz_next_event() + hrtimer bookkeeping on a 2021 core, about half the 2013 figure"},
	{"icelake-2s32c", "tick_restart_ns", 500, "[estimate] hrtimer_cancel/forward/start on a 2021 core, about half the 2013 figure"},
	{"icelake-2s32c", "ipi_send_ns", 150, "[estimate] csd_lock + llist_add + set_nr_if_polling() cmpxchg: atomics and one core-to-core cache-line transfer on the ICX mesh (~50-80 ns published core-to-core latency)"},
	{"icelake-2s32c", "ipi_latency_ns", 300, "[estimate] x2APIC ICR write to handler entry between cores of one socket: mesh delivery + interrupt entry, a few hundred ns (published IPI round trips with the ack ~1 us on 2019-2021 Xeons)"},
	{"icelake-2s32c", "schedule_idle_ns", 800, "[estimate] do_idle() exit after the flush + __schedule(SM_IDLE) without the pick: irq off, rcu_note_context_switch, rq lock (a line last written by other CPUs), update_rq_clock, unlock; ~0.5-1 us on a 2-socket server"},
	{"icelake-2s32c", "pick_ns", 390, "calibrated to docs/VALIDATION.md S1 (B/A 0.80): pick_next_task() from the idle task, put_prev_task_idle, the class walk and sched_balance_newidle()'s early exit"},
	{"icelake-2s32c", "csd_func_ns", 150, "[estimate] llist_del_all, an empty function, csd_unlock and its cache-line transfer back to the sender on the ICX mesh"},
	// Sandy Bridge-EP, 2 sockets (xeon-2s8c-2013), kernel v3.11 era:
	// S4 (docs/VALIDATION.md). With the patch a tick stop and restart write the
	// clock event no more (tick_nohz.go), so rows 2-4 of S4 are software
	// only: the idle exit, schedule, pick and switch estimates below add up
	// to row 4's 3.92 us round trip (docs/costs.md).
	{"xeon-2s8c-2013", "clockevent_program_ns", 505, "calibrated to docs/VALIDATION.md S4 rows 1->2 (2.02 us per round trip = two tick restarts of two LAPIC timer writes each, hrtimer_force_reprogram() on the cancel and hrtimer_reprogram() of the next tick, which the patch removes; tick_program_event() with the TSC-deadline WRMSR and its ktime reads)"},
	{"xeon-2s8c-2013", "ipi_latency_ns", 250, "calibrated to docs/VALIDATION.md S4 rows 3->4 (0.49 us per round trip = two reschedule IPIs to a CPU in HLT); low for an xAPIC IPI, see docs/costs.md"},
	{"xeon-2s8c-2013", "ctx_switch_ns", 600, "[estimate] 3.11 context_switch() + finish_task_switch() with an mm switch: the CR3 write flushes the TLB (no PCID use), refilled on the way back to user space; part of S4 row 4's 3.92 us round trip"},
	{"xeon-2s8c-2013", "pick_ns", 250, "[estimate] 3.11 pick_next_task() from the idle task: the class walk, pick_next_task_fair() and set_next_entity(); part of S4 row 4's round trip"},
	{"xeon-2s8c-2013", "idle_enter_ns", 200, "[estimate] 3.11 cpu_idle_loop() entry and menu_select()"},
	{"xeon-2s8c-2013", "idle_exit_ns", 250, "[estimate] 3.11 idle exit: cpuidle_idle_call()'s tail (menu_reflect), rcu_idle_exit(), and tick_nohz_idle_exit()'s ktime_get() + tick_nohz_stop_idle() (idle time stats, sched_clock_idle_wakeup_event()), which run whether or not the tick was stopped; part of S4 row 4's round trip"},
	{"xeon-2s8c-2013", "schedule_idle_ns", 400, "[estimate] schedule_preempt_disabled() from the idle loop up to the pick: rcu_note_context_switch(), rq->lock (a cache line last written by the waker's remote enqueue), pre_schedule_idle(); part of S4 row 4's round trip"},
	{"xeon-2s8c-2013", "tick_stop_ns", 200, "[estimate] tick_nohz_stop_sched_tick() bookkeeping without the clock-event writes"},
	{"xeon-2s8c-2013", "tick_restart_ns", 100, "[estimate] tick_nohz_restart() hrtimer cancel/forward/start without the clock-event writes"},
	// EPYC 7003 Milan, 2 sockets (epyc-milan-2s64c). CPUs 8 and 16 of
	// S1 (docs/VALIDATION.md) sit in different CCXs of socket 0.
	{"epyc-milan-2s64c", "clockevent_program_ns", 200, "[estimate] TSC-deadline mode (Zen 3 has X86_FEATURE_TSC_DEADLINE_TIMER): one WRMSR, as on Ice Lake"},
	{"epyc-milan-2s64c", "tick_stop_ns", 500, "[estimate] as Ice Lake (same kernel code, similar core speed)"},
	{"epyc-milan-2s64c", "tick_restart_ns", 500, "[estimate] as Ice Lake"},
	{"epyc-milan-2s64c", "ipi_send_ns", 300, "[estimate] as Ice Lake but the cache line crosses CCXs through the I/O die (~100-120 ns published Zen 3 cross-CCX core-to-core latency vs ~20 ns inside a CCX)"},
	{"epyc-milan-2s64c", "ipi_latency_ns", 300, "[estimate] as Ice Lake"},
	{"epyc-milan-2s64c", "schedule_idle_ns", 800, "[estimate] as Ice Lake"},
	{"epyc-milan-2s64c", "pick_ns", 200, "calibrated to docs/VALIDATION.md S1 (B/A 0.90); about half the Ice Lake value: the thread's smaller EPYC gain is attributed to the pick alone (the cross-CCX transfers are already in ipi_send_ns and csd_func_ns), which is a calibration, not a measurement"},
	// Haswell-EX, 4 sockets (xeon-4s18c), 2020 PREEMPT_RT kernels:
	// S2 (docs/VALIDATION.md).
	{"xeon-4s18c", "lb_cpu_ns", lbCPUNsXeon4S, "calibrated to docs/VALIDATION.md S2: rteval max latency with the RFC patches and HT off (160 us = one statistics pass over the 72 CPUs of the NUMA level plus find_busiest_queue() over the busiest node, before RFC 3/3's check after detach); about five ~400 ns cross-socket misses per CPU on a loaded 4-socket QPI machine, at the high end of plausible (docs/kernel-rules.md section 14.3)"},
	{"epyc-milan-2s64c", "csd_func_ns", 300, "[estimate] as Ice Lake with the cross-CCX transfer of the csd flags back to the sender"},
	// The 2-vCPU KVM guest of docs/real-kernel.md (vm-2vcpu), kernel
	// v6.18: medians measured with scripts/realkernel -vmcosts
	// (docs/costs.md, "The 2-vCPU VM"), re-measured on the quiet machine. Its
	// TSC-deadline and x2APIC ICR writes leave the guest, which is
	// what makes them microseconds. The pick, switch and idle-path keys
	// keep the generic estimates: the method bounds them (about 1.3 us
	// from an interrupt's exit to the switch, on idle and busy vCPUs) but
	// does not isolate them.
	{"vm-2vcpu", "clockevent_program_ns", 7100, "measured (quiet): hrtimer event -> write_msr 6e0 (IA32_TSC_DEADLINE) done, median of 31.5k writes (p10-p90 6.2-8.5 us)"},
	{"vm-2vcpu", "ipi_send_ns", 12000, "measured (quiet): ipi_send_cpu -> the sender's write_msr 830 (x2APIC ICR) done, median of 16.6k IPIs (p10-p90 9.6-15.1 us)"},
	{"vm-2vcpu", "ipi_latency_ns", 7700, "measured (quiet): ICR write done -> reschedule/call_function_single entry on a running vCPU, median of 4210 (p10-p90 5.7-9.3 us); a halted vCPU adds the haltpoll state's exit latency"},
	{"vm-2vcpu", "tick_stop_ns", 1500, "measured: tick_stop -> cpu_idle entering the state, median of 221 stops, none of which wrote the clock event (p10-p90 0.2-3.4 us)"},
	{"vm-2vcpu", "timer_irq_latency_ns", 12400, "measured (quiet): a sleeper's hrtimer hard expiry -> now= of its hrtimer_interrupt() on a running vCPU, median of 1365 (p10-p90 10.0-16.2 us); a halted vCPU's 27.0 us (n 9613) adds the haltpoll exit latency, modelled by the idle state"},
	{"vm-2vcpu", "timer_irq_ns", 10500, "measured (quiet): local_timer_entry -> local_timer_exit of an interrupt with one sleeper's wakeup and nothing else on a running vCPU, median of 1337 (p10-p90 8.7-13.9 us); the closing TSC-deadline write (7.1 us) is in it"},
	{"vm-2vcpu", "tick_restart_ns", 0, "measured: a restart (hrtimer_cancel of the tick -> its write_msr 6e0) is 6.4 us with one TSC-deadline write (3 of 3), i.e. the write itself; no bookkeeping left over"},
}

// machineCost finds the row of machine and key.
func machineCost(machine, key string) (MachineCost, bool) {
	for _, mc := range machineCosts {
		if mc.Machine == machine && mc.Key == key {
			return mc, true
		}
	}
	return MachineCost{}, false
}
