package ftrace

// Line formatting: the fixed-width context columns of
// kernel/trace/trace_output.c and the field values of the sched events,
// appended into a reused buffer with strconv (no fmt, no allocation).
//
// trace_print_context() prints "%16s-%-7d [%03d] ", trace_print_lat_fmt()
// the five flag characters and a space, and trace_print_time() the
// timestamp as "%5lu.%06lu: " after ns2usecs() rounds nanoseconds to the
// nearest microsecond. trace_raw_output_prep() then prints "NAME: ".

import (
	"strconv"

	"schedplay/core/sched"
)

// context appends the columns before the event's fields, for the task
// running on cpu.
func (w *Writer) context(b []byte, cpu sched.CPUID, t sched.Time, flags, name string) []byte {
	if id := w.curr[cpu]; id == sched.NoTask {
		b = appendSpaces(b, 16-len("<idle>"))
		b = append(b, "<idle>-0      "...)
	} else {
		ti := w.info(id)
		b = appendSpaces(b, 16-len(ti.Name))
		b = appendComm(b, ti.Name)
		b = append(b, '-')
		b = appendPad(b, int64(ti.PID), -7, ' ')
	}
	b = append(b, " ["...)
	b = appendPad(b, int64(cpu), 3, '0')
	b = append(b, "] "...)
	b = append(b, flags...)
	b = append(b, ' ')
	us := (int64(t) + 500) / 1000
	b = appendPad(b, us/1_000_000, 5, ' ')
	b = append(b, '.')
	b = appendPad(b, us%1_000_000, 6, '0')
	b = append(b, ": "...)
	b = append(b, name...)
	return append(b, ": "...)
}

// appendComm appends a task name with control characters replaced, so a
// name can never break a line.
func appendComm(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < ' ' || c == 0x7f {
			c = '?'
		}
		b = append(b, c)
	}
	return b
}

func (w *Writer) appendComm(b []byte, id sched.TaskID) []byte {
	return appendComm(b, w.info(id).Name)
}

// appendSwitchComm names a sched_switch side: the idle task is swapper/N.
func (w *Writer) appendSwitchComm(b []byte, id sched.TaskID, cpu sched.CPUID) []byte {
	if id == sched.NoTask {
		b = append(b, "swapper/"...)
		return appendInt(b, int64(cpu))
	}
	return w.appendComm(b, id)
}

func (w *Writer) appendPID(b []byte, id sched.TaskID) []byte {
	if id == sched.NoTask {
		return append(b, '0')
	}
	return appendInt(b, int64(w.info(id).PID))
}

// appendPrio appends the kernel prio p->prio (boosted by priority
// inheritance where it is); the idle task shows 120 as the kernel's
// swapper does.
func (w *Writer) appendPrio(b []byte, id sched.TaskID) []byte {
	if id == sched.NoTask {
		return append(b, "120"...)
	}
	return appendInt(b, int64(w.info(id).EffectivePrio))
}

// appendCommPidPrio appends "comm=%s pid=%d prio=%d" (prio: p->prio).
func (w *Writer) appendCommPidPrio(b []byte, id sched.TaskID) []byte {
	ti := w.info(id)
	b = append(b, "comm="...)
	b = appendComm(b, ti.Name)
	b = append(b, " pid="...)
	b = appendInt(b, int64(ti.PID))
	b = append(b, " prio="...)
	return appendInt(b, int64(ti.EffectivePrio))
}

// appendTask appends "comm-pid", as the task column names a task.
func (w *Writer) appendTask(b []byte, id sched.TaskID) []byte {
	ti := w.info(id)
	b = appendComm(b, ti.Name)
	b = append(b, '-')
	return appendInt(b, int64(ti.PID))
}

func appendReason(b []byte, r sched.Reason) []byte {
	if r == sched.ReasonNone {
		return append(b, "none"...)
	}
	return append(b, r.String()...)
}

func appendPick(b []byte, p sched.PickRule) []byte {
	if p == sched.PickNone {
		return append(b, "none"...)
	}
	return append(b, p.String()...)
}

// isPreemption reports whether r is a reason for preempting the running
// task, which another task may have caused. It lists the reasons that are
// not preemptions, so that preemption rules added to the core later are
// annotated too.
func isPreemption(r sched.Reason) bool {
	switch r {
	case sched.ReasonNone, sched.ReasonSleep, sched.ReasonTimer, sched.ReasonExit, sched.ReasonYield,
		sched.ReasonSleepDone, sched.ReasonTimerFire, sched.ReasonStart, sched.ReasonForked,
		sched.ReasonWait, sched.ReasonSignal, sched.ReasonLock, sched.ReasonUnlock:
		return false
	}
	return true
}

func appendInt(b []byte, v int64) []byte   { return strconv.AppendInt(b, v, 10) }
func appendUint(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// appendPad appends v padded with pad to width |width|, on the left for a
// positive width ("%5d", "%03d") and on the right for a negative one ("%-7d").
func appendPad(b []byte, v int64, width int, pad byte) []byte {
	start := len(b)
	b = strconv.AppendInt(b, v, 10)
	n := len(b) - start
	if width < 0 {
		for ; n < -width; n++ {
			b = append(b, pad)
		}
		return b
	}
	if n >= width {
		return b
	}
	// Shift the digits right and fill in front.
	k := width - n
	for range k {
		b = append(b, 0)
	}
	copy(b[start+k:], b[start:start+n])
	for i := start; i < start+k; i++ {
		b[i] = pad
	}
	return b
}
