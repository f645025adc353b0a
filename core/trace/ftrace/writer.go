package ftrace

// The writer: event kinds to trace lines.
//
// Mirrors what `cat /sys/kernel/tracing/trace` prints with the nop tracer
// and the sched events enabled: s_show() and trace_default_header() of
// kernel/trace/trace.c for the header, and for each entry
// trace_print_context() and trace_print_lat_fmt() of
// kernel/trace/trace_output.c followed by the event's TP_printk() from
// include/trace/events/sched.h (power.h for cpu_idle).
//
// A wakeup is printed as sched_waking then sched_wakeup, each where the
// kernel fires it (the engine's EvWaking and EvWakeup, core/sched
// wake_event.go): sched_waking on the CPU running try_to_wake_up() (the
// waker's, or the CPU whose timer or interrupt did the wakeup, by whatever
// task was current there), with target_cpu the task's CPU before the
// wakeup chose one; sched_wakeup on the same CPU, or on the target CPU
// when the wakeup went through its wake list (TTWU_QUEUE). A line written
// in interrupt context (no waker task, or the target's wake-list handler)
// carries the hardirq flag 'h', so readers do not take the interrupted
// task for the waker. Perfetto's systrace importer derives thread states
// from sched_waking. wake_up_new_task() emits sched_wakeup_new alone, on
// the parent's CPU (else the target's). rt_mutex_setprio() emits
// sched_pi_setprio; the prio fields print p->prio, the boosted prio
// (TaskInfo.EffectivePrio), as include/trace/events/sched.h does.
//
// The task column shows the task running on the line's CPU at that moment,
// as the kernel records current->pid: the writer tracks each CPU's current
// task from sched_switch.

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"schedplay/core/sched"
)

// Options select optional lines.
type Options struct {
	// IncludeResched prints each resched_curr() request as
	// "sched_resched: cpu=N reason=R [by=COMM-PID]". The kernel has no such
	// tracepoint; the line shows when and why a reschedule was asked for.
	IncludeResched bool
	// IncludeIPI prints the ipi_raise / ipi_entry / ipi_exit and
	// sched_wake_idle_without_ipi lines of the modelled wake delivery
	// (off by default: older consumers of the text do not expect them).
	IncludeIPI bool
	// IncludeSoftirq prints "softirq_entry: vec=7 [action=SCHED]" at each
	// SCHED_SOFTIRQ run (the periodic and nohz idle load balance), as the
	// kernel's irq:softirq_entry event filtered to vec 7 does (off by
	// default).
	IncludeSoftirq bool
	// Provenance, when not empty, is written after the header as the
	// comment line "# schedplay-provenance: " + Provenance (one line: the
	// export's provenance object as compact JSON, docs/cli.md). Tools
	// skip '#' lines, as they skip the header's.
	Provenance string
}

// Writer writes ftrace text. It implements [sched.Sink].
type Writer struct {
	bw   *bufio.Writer
	info func(sched.TaskID) sched.TaskInfo
	opts Options
	curr []sched.TaskID // per CPU: the running task, NoTask for idle
	line []byte         // reused line buffer
	done bool
	err  error
}

// Flag fields (irqs-off, need-resched, hardirq/softirq, preempt-depth,
// migrate-disable), fixed per event kind as a real trace typically shows them.
const (
	flagsSched   = "d..2." // __schedule(), try_to_wake_up(): irqs off, rq lock held
	flagsHardirq = "d.h2." // try_to_wake_up() from a timer or the wake-list IPI: hardirq context
	flagsIdle    = "d..1." // cpuidle_idle_call(): irqs off
	flagsTask    = "....." // fork and exit paths: preemptible process context
	flagsSoftirq = "..s.." // __do_softirq() on irq exit: serving a softirq
)

// headerTop and headerLegend are the nop tracer's header, around #P, with the irq-info legend of v5.17+
// (print_event_info() and print_func_help_header_irq()). The entry counts
// are not known when a streamed trace starts, so they read 0/0; #P, which
// tools such as idlestat read, is the run's CPU count.
const (
	headerTop    = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:"
	headerLegend = `
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
`
)

// NewWriter returns a Writer of the events of an ncpu-CPU run to w. info
// describes a task (normally [sched.Sim.TaskInfo]); it is called while
// events are written, so tasks must be known by the time they appear. The
// header is written at once (buffered: write errors surface in Close).
func NewWriter(w io.Writer, info func(sched.TaskID) sched.TaskInfo, ncpu int) *Writer {
	return NewWriterOptions(w, info, ncpu, Options{})
}

// provenancePrefix starts the provenance comment line.
const provenancePrefix = "# schedplay-provenance: "

// NewWriterOptions is [NewWriter] with options.
func NewWriterOptions(w io.Writer, info func(sched.TaskID) sched.TaskInfo, ncpu int, opts Options) *Writer {
	if ncpu <= 0 {
		panic(fmt.Sprintf("ftrace: NewWriter with %d CPUs", ncpu))
	}
	fw := &Writer{
		bw:   bufio.NewWriterSize(w, 64<<10),
		info: info,
		opts: opts,
		curr: make([]sched.TaskID, ncpu),
		line: make([]byte, 0, 512),
	}
	for i := range fw.curr {
		fw.curr[i] = sched.NoTask
	}
	fw.bw.WriteString(headerTop)
	fw.bw.Write(appendInt(fw.line, int64(ncpu)))
	fw.bw.WriteString(headerLegend)
	if p := opts.Provenance; p != "" {
		if strings.ContainsAny(p, "\n\r") {
			panic("ftrace: Provenance spans lines")
		}
		fw.bw.WriteString(provenancePrefix + p + "\n")
	}
	return fw
}

// Event writes the line of e, if its kind has one. Ticks and the end of the
// run have none; resched requests only with [Options.IncludeResched]. It
// does not retain e.
func (w *Writer) Event(e *sched.Event) {
	if w.done {
		return
	}
	switch e.Kind {
	case sched.EvSwitch:
		w.switchLine(e)
	case sched.EvWaking:
		w.wakingLine(e)
	case sched.EvWakeup:
		w.wakeupLine(e)
	case sched.EvWakeupNew:
		w.wakeupNewLine(e)
	case sched.EvPISetprio:
		w.piSetprioLine(e)
	case sched.EvMigrate:
		w.migrateLine(e)
	case sched.EvFork:
		w.forkLine(e)
	case sched.EvExit:
		w.exitLine(e)
	case sched.EvIdleEnter:
		w.idleLine(e, uint64(e.Arg))
	case sched.EvIdleExit:
		w.idleLine(e, 4294967295) // PWR_EVENT_EXIT as the u32 the kernel prints
	case sched.EvIPIRaise:
		if w.opts.IncludeIPI {
			w.ipiLine(e, "ipi_raise")
		}
	case sched.EvIPIEntry:
		if w.opts.IncludeIPI {
			w.ipiLine(e, "ipi_entry")
			w.ipiLine(e, "ipi_exit")
		}
	case sched.EvWakeIdleNoIPI:
		if !w.opts.IncludeIPI {
			return
		}
		w.checkCPU(e.CPU)
		b := w.context(w.line, e.CPU, e.Time, flagsSched, "sched_wake_idle_without_ipi")
		b = append(b, "cpu="...)
		b = appendInt(b, int64(e.CPU))
		w.flush(b)
	case sched.EvSoftirq:
		if w.opts.IncludeSoftirq {
			w.softirqLine(e)
		}
	case sched.EvResched:
		if w.opts.IncludeResched {
			w.reschedLine(e)
		}
	}
}

// Close flushes the output and reports the first write error. It does not
// close the underlying writer. Later calls return the same result; events
// after Close are ignored.
func (w *Writer) Close() error {
	if !w.done {
		w.done = true
		w.err = w.bw.Flush()
	}
	return w.err
}

// flush hands the finished line to the buffered writer; bufio keeps the
// first error and reports it again at Flush.
func (w *Writer) flush(b []byte) {
	b = append(b, '\n')
	w.line = b[:0]
	w.bw.Write(b)
}

// checkCPU panics on a CPU outside the machine: the stream is broken.
func (w *Writer) checkCPU(c sched.CPUID) {
	if c < 0 || int(c) >= len(w.curr) {
		panic(fmt.Sprintf("ftrace: event on cpu %d of a %d-CPU run", c, len(w.curr)))
	}
}

func (w *Writer) switchLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsSched, "sched_switch")
	b = append(b, "prev_comm="...)
	b = w.appendSwitchComm(b, e.Prev, e.CPU)
	b = append(b, " prev_pid="...)
	b = w.appendPID(b, e.Prev)
	b = append(b, " prev_prio="...)
	b = w.appendPrio(b, e.Prev)
	b = append(b, " prev_state="...)
	st := e.PrevState
	if st == 0 {
		st = 'R' // the idle task is TASK_RUNNING
	}
	b = append(b, st)
	b = append(b, " ==> next_comm="...)
	b = w.appendSwitchComm(b, e.Next, e.CPU)
	b = append(b, " next_pid="...)
	b = w.appendPID(b, e.Next)
	b = append(b, " next_prio="...)
	b = w.appendPrio(b, e.Next)
	b = append(b, " reason="...)
	b = appendReason(b, e.Reason)
	b = append(b, " pick="...)
	b = appendPick(b, e.Pick)
	if e.Arg >= 0 && isPreemption(e.Reason) {
		b = append(b, " by="...)
		b = w.appendTask(b, sched.TaskID(e.Arg))
	}
	w.curr[e.CPU] = e.Next
	w.flush(b)
}

// wakingLine prints sched_waking on the CPU running try_to_wake_up();
// target_cpu is task_cpu(p) before the wakeup picks a CPU (Arg).
func (w *Writer) wakingLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	target := e.CPU
	if e.Arg >= 0 && int(e.Arg) < len(w.curr) {
		target = sched.CPUID(e.Arg)
	}
	w.wakeLine(e, "sched_waking", e.CPU, target, e.Prev == sched.NoTask)
}

// wakeupLine prints sched_wakeup on the CPU of Arg (the waker's, or the
// target's for a wake-list wakeup, whose handler runs in interrupt
// context there).
func (w *Writer) wakeupLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	at := e.CPU
	if e.Arg >= 0 && int(e.Arg) < len(w.curr) {
		at = sched.CPUID(e.Arg)
	}
	w.wakeLine(e, "sched_wakeup", at, e.CPU, e.Prev == sched.NoTask || w.curr[at] != e.Prev)
}

func (w *Writer) wakeupNewLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	w.wakeLine(e, "sched_wakeup_new", w.wakerCPU(e), e.CPU, false)
}

// wakeLine prints a wakeup tracepoint of e.Next on cpu, in interrupt
// context (hardirq) or not.
func (w *Writer) wakeLine(e *sched.Event, name string, cpu, target sched.CPUID, hardirq bool) {
	flags := flagsSched
	if hardirq {
		flags = flagsHardirq
	}
	b := w.context(w.line, cpu, e.Time, flags, name)
	b = w.appendCommPidPrio(b, e.Next)
	b = append(b, " target_cpu="...)
	b = appendPad(b, int64(target), 3, '0')
	b = append(b, " reason="...)
	b = appendReason(b, e.Reason)
	w.flush(b)
}

// piSetprioLine prints sched_pi_setprio: "comm=%s pid=%d oldprio=%d
// newprio=%d".
func (w *Writer) piSetprioLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	oldprio, newprio := e.PIPrios()
	b := w.context(w.line, e.CPU, e.Time, flagsSched, "sched_pi_setprio")
	b = append(b, "comm="...)
	b = w.appendComm(b, e.Next)
	b = append(b, " pid="...)
	b = w.appendPID(b, e.Next)
	b = append(b, " oldprio="...)
	b = appendInt(b, int64(oldprio))
	b = append(b, " newprio="...)
	b = appendInt(b, int64(newprio))
	w.flush(b)
}

// wakerCPU is the CPU a sched_wakeup_new line is printed on: the parent's
// (Arg), when known and running, else the target's.
func (w *Writer) wakerCPU(e *sched.Event) sched.CPUID {
	if e.Arg >= 0 {
		for c, t := range w.curr {
			if t == sched.TaskID(e.Arg) {
				return sched.CPUID(c)
			}
		}
	}
	return e.CPU
}

func (w *Writer) migrateLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsSched, "sched_migrate_task")
	b = w.appendCommPidPrio(b, e.Next)
	b = append(b, " orig_cpu="...)
	b = appendInt(b, e.Arg)
	b = append(b, " dest_cpu="...)
	b = appendInt(b, int64(e.CPU))
	if e.Reason != sched.ReasonNone {
		b = append(b, " reason="...)
		b = appendReason(b, e.Reason)
	}
	w.flush(b)
}

func (w *Writer) forkLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsTask, "sched_process_fork")
	b = append(b, "comm="...)
	b = w.appendComm(b, e.Prev)
	b = append(b, " pid="...)
	b = w.appendPID(b, e.Prev)
	b = append(b, " child_comm="...)
	b = w.appendComm(b, e.Next)
	b = append(b, " child_pid="...)
	b = w.appendPID(b, e.Next)
	w.flush(b)
}

func (w *Writer) exitLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsTask, "sched_process_exit")
	b = w.appendCommPidPrio(b, e.Prev)
	w.flush(b)
}

func (w *Writer) idleLine(e *sched.Event, state uint64) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsIdle, "cpu_idle")
	b = append(b, "state="...)
	b = appendUint(b, state)
	b = append(b, " cpu_id="...)
	b = appendInt(b, int64(e.CPU))
	w.flush(b)
}

func (w *Writer) reschedLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsSched, "sched_resched")
	b = append(b, "cpu="...)
	b = appendInt(b, int64(e.CPU))
	b = append(b, " reason="...)
	b = appendReason(b, e.Reason)
	if e.Next != sched.NoTask {
		b = append(b, " by="...)
		b = w.appendTask(b, e.Next)
	}
	w.flush(b)
}

// ipiLine prints the ipi tracepoints (include/trace/events/ipi.h):
// ipi_raise "target_mask=%s (%s)" with the mask as %*pb prints a cpumask
// (32-bit hex words, most significant first), ipi_entry/ipi_exit "(%s)",
// with the reason strings of arm64's ipi_types.
func (w *Writer) ipiLine(e *sched.Event, name string) {
	w.checkCPU(e.CPU)
	reason := "Rescheduling interrupts"
	if e.PrevState == 'F' {
		reason = "Single function call interrupts"
	}
	cpu := e.CPU
	if name == "ipi_raise" && e.Arg >= 0 && int(e.Arg) < len(w.curr) {
		cpu = sched.CPUID(e.Arg) // printed by the sender
	}
	b := w.context(w.line, cpu, e.Time, flagsSched, name)
	if name == "ipi_raise" {
		b = append(b, "target_mask="...)
		words := (len(w.curr) + 31) / 32
		for i := words - 1; i >= 0; i-- {
			var v uint32
			if int(e.CPU)/32 == i {
				v = 1 << (uint(e.CPU) % 32)
			}
			b = fmt.Appendf(b, "%08x", v)
			if i > 0 {
				b = append(b, ',')
			}
		}
		b = append(b, ' ')
	}
	b = append(b, '(')
	b = append(b, reason...)
	b = append(b, ')')
	w.flush(b)
}

// softirqLine writes the irq:softirq_entry line of the SCHED softirq
// (include/trace/events/irq.h: "vec=%u [action=%s]").
func (w *Writer) softirqLine(e *sched.Event) {
	w.checkCPU(e.CPU)
	b := w.context(w.line, e.CPU, e.Time, flagsSoftirq, "softirq_entry")
	b = append(b, "vec="...)
	b = appendInt(b, e.Arg)
	if e.Arg == sched.SoftirqSched {
		b = append(b, " [action=SCHED]"...)
	}
	w.flush(b)
}
