package ftraceimport

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestIRQEntries: interrupt entries are kept with their time and CPU, the
// timer's apart; other irq events are not, and bodies are never read.
func TestIRQEntries(t *testing.T) {
	const in = `          <idle>-0       [001] d.h1. 100.000005: local_timer_entry: vector=236
           bash-7        [000] d.h1. 100.000001: hrtimer_expire_entry: hrtimer=000000001 function=tick_nohz_handler now=1
           bash-7        [000] d.h1. 100.000002: reschedule_entry: vector=253
           bash-7        [000] d.h1. 100.000003: thermal_apic_entry: garbled !!
           bash-7        [000] d.h1. 100.000004: irq_handler_exit: irq=24 ret=handled
           bash-7        [000] d..2. 100.000000: sched_switch: prev_comm=bash prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [003] d.h1. 100.000006: irq_handler_entry: irq=24 name=eth0
          <idle>-0       [003] d.h1. 100.000009: irq_handler_entry: irq=24 name=eth0
          <idle>-0       [003] d..2. 100.000008: sched_switch: prev_comm=swapper/3 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=7 next_prio=120
`
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	us := sched.Microsecond
	want := []IRQEntry{{1 * us, 0, IRQTimer}, {2 * us, 0, IRQOther}, {3 * us, 0, IRQOther}, {5 * us, 1, IRQTimer}, {6 * us, 3, IRQOther}}
	if len(tr.IRQs) != len(want) {
		t.Fatalf("irqs %+v, want %+v", tr.IRQs, want)
	}
	for i := range want {
		if tr.IRQs[i] != want[i] {
			t.Errorf("irq %d: %+v, want %+v", i, tr.IRQs[i], want[i])
		}
	}
	if tr.Stats.Other["irq_handler_exit"] != 1 || tr.Stats.Other["local_timer_entry"] != 1 {
		t.Errorf("other %v", tr.Stats.Other)
	}
}
