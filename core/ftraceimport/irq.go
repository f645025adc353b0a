package ftraceimport

// Interrupt entries: the events that mark the CPU entering an interrupt,
// an IPI or a softirq (include/trace/events/irq.h, timer.h, ipi.h and
// arch/x86/include/asm/trace/irq_vectors.h). The importer keeps only when
// and where each one started, which is what tells a preemption the tick,
// an IPI or an interrupt's wakeup could have caused from one a task caused
// itself (core/replay selfpoll.go). Their fields are not read, so such a
// line is never an error: a line whose prefix cannot be read is skipped
// as any unrecognized line is.

import (
	"strings"

	"schedplay/core/sched"
)

// IRQKind says what an interrupt entry is.
type IRQKind uint8

// Interrupt entry kinds.
const (
	// IRQTimer is the timer interrupt or an expiring hrtimer
	// (local_timer_entry, hrtimer_expire_entry): the scheduler tick runs
	// from one (tick_sched_timer()).
	IRQTimer IRQKind = iota + 1
	// IRQOther is any other interrupt, IPI or softirq entry.
	IRQOther
)

// IRQEntry is one interrupt entry: its time (relative to Trace.Offset)
// and CPU.
type IRQEntry struct {
	Time sched.Time
	CPU  int
	Kind IRQKind
}

// irqEvents are the entry events read, by name; the x86 irq_vectors
// family is matched by irqKind too ("*_apic_entry" and the rest).
var irqEvents = map[string]IRQKind{
	"local_timer_entry":          IRQTimer,
	"hrtimer_expire_entry":       IRQTimer,
	"reschedule_entry":           IRQOther,
	"call_function_entry":        IRQOther,
	"call_function_single_entry": IRQOther,
	"irq_work_entry":             IRQOther,
	"irq_handler_entry":          IRQOther,
	"softirq_entry":              IRQOther,
	"ipi_entry":                  IRQOther, // arm64, riscv (ipi.h)
	"x86_platform_ipi_entry":     IRQOther,
	"external_interrupt_entry":   IRQOther,
}

// irqKind is the kind of an event name, 0 when it is no interrupt entry.
func irqKind(event string) IRQKind {
	if k, ok := irqEvents[event]; ok {
		return k
	}
	if strings.HasSuffix(event, "_apic_entry") { // irq_vectors: error_apic_entry, thermal_apic_entry, ...
		return IRQOther
	}
	return 0
}
