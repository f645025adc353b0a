package ftraceimport

// Reading: lines to records (read.go's loop), records sorted by time, then
// resolved into tasks and events (resolve.go).

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"schedplay/core/sched"
)

// Default limits.
const (
	DefaultMaxBytes   = 1 << 30  // 1 GiB of trace text
	DefaultMaxLineLen = 64 << 10 // trace_marker lines are at most 4 KiB in the kernel
	MaxCPUs           = 8192     // CPU numbers above this are refused
)

// Options bound and adjust an import. The zero value is the defaults.
type Options struct {
	// MaxBytes is the largest input accepted (DefaultMaxBytes if 0).
	MaxBytes int64
	// MaxLineLen is the longest line accepted (DefaultMaxLineLen if 0).
	MaxLineLen int
	// End, if non-zero, is the absolute timestamp (ns, the trace's clock) at
	// which the traced interval ends; it must not be before the last event.
	// By default the trace ends at its last event, which is all a kernel
	// trace says.
	End int64
	// Until, if positive, keeps only the trace's first Until ns: the sched
	// events after the first event's time + Until are dropped (counted in
	// Stats.AfterUntil) and the trace ends there. A replay whose trace is
	// too long for its bounds replays such a span. It cannot be combined
	// with End.
	Until sched.Time
	// Lenient skips a sched event line whose fields cannot be read (a
	// truncated last line, a garbled record) with a warning naming it,
	// instead of refusing the input. The zero value refuses (the
	// playground's Open trace relies on that).
	Lenient bool
}

// MaxWarnings bounds Trace.Warnings; later ones are only counted
// (Stats.Skipped, Stats.Lost, ...).
const MaxWarnings = 100

// MaxOtherNames bounds Stats.Other: the event names are the input's, so a
// hostile trace could name a new event on every line. Entries of names
// past the first MaxOtherNames are counted in Stats.OtherMore. A kernel
// traced with every event (trace-cmd record -e all) prints fewer names on
// a typical run; the bound keeps the map and the reports built on it small.
const MaxOtherNames = 64

// Warning is something the import repaired or skipped, with the 1-based
// line it concerns (0: the input as a whole).
type Warning struct {
	Line int
	Msg  string
}

func (w Warning) String() string {
	if w.Line == 0 {
		return w.Msg
	}
	return fmt.Sprintf("line %d: %s", w.Line, w.Msg)
}

// Trace is an imported trace: the event stream and its task table.
type Trace struct {
	// Events is the event stream, times relative to Offset, ending with one
	// sched.EvEnd at Duration.
	Events []sched.Event
	// Tasks is the task table, indexed by sched.TaskID. The idle task (pid
	// 0, one per CPU) is sched.NoTask and has no entry.
	Tasks []sched.TaskInfo
	// Running is, per CPU, the task found running there when the trace
	// starts (the prev of the CPU's first sched_switch, if that task has no
	// earlier event), or sched.NoTask.
	Running []sched.TaskID
	// NumCPUs is the number of CPUs: the header's #P (or trace-cmd's
	// cpus=), or one more than the highest CPU seen.
	NumCPUs int
	// Offset is the absolute timestamp (ns) of the first event: time 0.
	Offset int64
	// Duration is the time from the first event to the end of the trace.
	Duration sched.Time
	// Wakes is, per event of Events (same index), where a wakeup came
	// from: set for EvWakeup and EvWakeupNew, zero for the other kinds.
	Wakes []WakeSource
	// Freqs are the CPU frequency changes of the trace (cpu_frequency, and
	// LISA's cpu_frequency_devlib lines written through trace_marker), in
	// time order, times relative to Offset (a change before the first sched
	// event at 0).
	Freqs []FreqChange
	// IRQs are the interrupt entries of the trace (irq.go), in time
	// order, times relative to Offset (an entry before the first sched
	// event at 0); empty when the trace was recorded without them.
	IRQs []IRQEntry
	// Runtimes are the trace's sched_stat_runtime updates (runtime.go), in
	// time order; empty when it was recorded without them.
	Runtimes []RuntimeStat
	// Added lists the indices into Events of the switches the importer
	// added (Stats.MissedSwitches), ascending: their time is the line
	// that showed the switch had happened, not the switch's own.
	Added []int
	// Warnings are the lines skipped (Options.Lenient), lost events and
	// out-of-order timestamps, in line order; at most MaxWarnings.
	Warnings []Warning
	Stats    Stats
}

// FreqChange is a CPU's new frequency (cpu_frequency: state=KHz cpu_id=N).
type FreqChange struct {
	Time sched.Time
	CPU  int
	KHz  int
}

// WakeSource is the context of a wakeup: the task running where
// try_to_wake_up() ran and whether it ran in an interrupt. It is read
// from the sched_waking line when the trace has one for the wakeup (that
// line is printed in the waker's context, while sched_wakeup may be
// printed on the wakee's CPU by the ttwu_queue IPI), else from the wakeup
// line itself.
type WakeSource struct {
	// Waker is the task of the line's task column (sched.NoTask: the idle
	// task, an interrupt taken while idle).
	Waker sched.TaskID
	// IRQ is 1 when the flags column says hardirq, softirq or NMI context
	// (the task column is then only the interrupted task), 0 when it says
	// process context, -1 when the line has no flags column.
	IRQ int8
	// FromWaking: the context is the sched_waking line's.
	FromWaking bool
	// CPU is the CPU column of that line: where try_to_wake_up() ran (a
	// timer's wakeup of a task on its own idle CPU prints it there).
	CPU int
	// Time is the time of the line the context is read from (relative to
	// Trace.Offset): the sched_waking's, before a wakeup the ttwu_queue
	// IPI printed later on the wakee's CPU, when the waker may have
	// blocked already. Before is the index into Trace.Events of the
	// first event after that line (the wakeup's own when the context is
	// its line).
	Time   sched.Time
	Before int
}

// Stats counts what the import did with the input.
type Stats struct {
	Lines    int // lines read
	Events   int // events imported (without the final EvEnd)
	Comments int // header and comment lines ("# ...") and blank lines
	// Other counts entries of events this importer does not read
	// (irq, timer, trace_marker, ...), by event name, for the first
	// MaxOtherNames names met; the interrupt entries among them are also
	// kept in Trace.IRQs.
	Other map[string]int
	// OtherMore counts the entries of further event names, which Other
	// does not hold (reports say "and N more").
	OtherMore int
	// Unrecognized counts lines that are not trace entries (trace-cmd
	// banners, "CPU 2 is empty", free text).
	Unrecognized int
	// WakingIgnored counts sched_waking lines not used because the trace
	// has sched_wakeup lines (latency is measured from sched_wakeup); when
	// it has none, sched_waking stands in for it.
	WakingIgnored int
	// RedundantWakeups counts wakeups of a task that was already running or
	// runnable (try_to_wake_up() on a task that had not yet slept emits
	// sched_wakeup too): they are not events of the stream.
	RedundantWakeups int
	// CommChanges counts tasks seen under a new comm (exec, prctl).
	CommChanges int
	// PIDReuses counts pids that named a second task.
	PIDReuses int
	// Skipped counts sched event lines that could not be read and were
	// skipped (Options.Lenient).
	Skipped int
	// Lost counts the events the kernel dropped ("CPU:N [LOST n EVENTS]",
	// a full ring buffer) and LostMarks the lines that said so.
	Lost, LostMarks int
	// Unsorted counts events whose timestamp is before the previous line's
	// (buffers of several CPUs concatenated, or a report not merged).
	Unsorted int
	// MissedSwitches counts switches added because a line's task column
	// was not the task the CPU's last switch left running (a lost event,
	// or a task whose switches are not traced).
	MissedSwitches int
	// MissedAtSwitchOut counts those of them added at a switch out of the
	// task switched in: no line of the task came before it, so its run
	// there has no length in the trace (columns.go).
	MissedAtSwitchOut int
	// AfterUntil counts the sched events dropped after Options.Until.
	AfterUntil int
	// RunningAtStart counts the CPUs found running a task when the trace
	// starts (the trace began mid-run).
	RunningAtStart int
}

// countOther counts an entry of an event the importer does not read.
func (s *Stats) countOther(event string) {
	if _, ok := s.Other[event]; ok || len(s.Other) < MaxOtherNames {
		s.Other[event]++
		return
	}
	s.OtherMore++
}

func (tr *Trace) warn(line int, format string, args ...any) {
	if len(tr.Warnings) < MaxWarnings {
		tr.Warnings = append(tr.Warnings, Warning{Line: line, Msg: fmt.Sprintf(format, args...)})
	}
}

// Error is a sched event line that cannot be read, or an input over a
// limit.
type Error struct {
	Line  int    // 1-based line number, 0 for the input as a whole
	Event string // the event the line claims to be
	Msg   string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return e.Msg
	case e.Event == "":
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Event, e.Msg)
}

// Import reads ftrace text from r. Lines that are not sched events are
// skipped and counted; a line that is one of the sched events but cannot be
// read is an *Error naming the line.
func Import(r io.Reader, opts Options) (*Trace, error) {
	maxBytes, maxLine := opts.MaxBytes, opts.MaxLineLen
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if maxLine <= 0 {
		maxLine = DefaultMaxLineLen
	}
	lr := &io.LimitedReader{R: r, N: maxBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine+1)
	tr := &Trace{Stats: Stats{Other: map[string]int{}}}
	var recs []record
	var freqs []FreqChange // absolute times until the offset is known
	var irqs []IRQEntry    // likewise
	var runtimes []RuntimeStat
	var cols columns // the task columns of the other lines (columns.go)
	headerCPUs := 0
	for sc.Scan() {
		if lr.N <= 0 { // read past the limit (the scanner reads ahead)
			return nil, &Error{Msg: fmt.Sprintf("input larger than %d bytes", maxBytes)}
		}
		tr.Stats.Lines++
		n := tr.Stats.Lines
		raw := sc.Bytes()
		if len(raw) > maxLine {
			return nil, &Error{Line: n, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		line := string(bytes.TrimRight(raw, "\r"))
		trim := strings.TrimSpace(line)
		if trim == "" || trim[0] == '#' {
			tr.Stats.Comments++
			headerCPUs = max(headerCPUs, headerNumCPUs(trim))
			continue
		}
		if n, cpu, ok := lostMark(trim); ok {
			tr.Stats.Lost += n
			tr.Stats.LostMarks++
			tr.warn(tr.Stats.Lines, "cpu %d lost %d events (ring buffer full): tasks' states may be wrong after it", cpu, n)
			continue
		}
		p, ok := parsePrefix(line)
		if !ok {
			if v, ok := strings.CutPrefix(trim, "cpus="); ok { // trace-cmd report banner
				if c, ok := parseUint(v); ok && c <= MaxCPUs {
					headerCPUs = max(headerCPUs, c)
				}
			}
			tr.Stats.Unrecognized++
			continue
		}
		if _, isSched := rawKinds[p.event]; !isSched {
			cols.add(p, n)
		}
		if body, ok := freqBody(p); ok {
			f := splitKV(body)
			khz, err1 := uintKV(f, "state")
			cpu, err2 := uintKV(f, "cpu_id")
			if err1 != nil || err2 != nil || cpu >= MaxCPUs {
				if !opts.Lenient {
					return nil, &Error{Line: n, Event: p.event, Msg: "want state=KHZ cpu_id=N"}
				}
				tr.Stats.Skipped++
				tr.warn(n, "%s: want state=KHZ cpu_id=N: line skipped", p.event)
				continue
			}
			freqs = append(freqs, FreqChange{Time: sched.Time(p.ts), CPU: cpu, KHz: khz})
			continue
		}
		if k := irqKind(p.event); k != 0 && p.cpu < MaxCPUs {
			irqs = append(irqs, IRQEntry{Time: sched.Time(p.ts), CPU: p.cpu, Kind: k})
		}
		if rs, ok := runtimeStat(p); ok {
			runtimes = append(runtimes, rs)
		}
		kind, known := rawKinds[p.event]
		if !known {
			tr.Stats.countOther(p.event)
			continue
		}
		rec := record{line: n, ts: p.ts, kind: kind, cpu: p.cpu, irq: p.irq,
			cur: side{comm: p.comm, pid: p.pid, prio: noPrio}}
		err := parseBody(&rec, p.body)
		if err == nil {
			err = checkCPUs(&rec)
		}
		if err != nil {
			if !opts.Lenient {
				return nil, &Error{Line: n, Event: p.event, Msg: err.Error()}
			}
			tr.Stats.Skipped++
			tr.warn(n, "%s: %v: line skipped", p.event, err)
			continue
		}
		if len(recs) > 0 && rec.ts < recs[len(recs)-1].ts {
			if tr.Stats.Unsorted == 0 {
				tr.warn(n, "timestamp before the previous event's: events merged by time")
			}
			tr.Stats.Unsorted++
		}
		recs = append(recs, rec)
		cols.seen(rec.cpu, rec.cur.pid)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &Error{Line: tr.Stats.Lines + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, err
	}
	if lr.N <= 0 {
		return nil, &Error{Msg: fmt.Sprintf("input larger than %d bytes", maxBytes)}
	}
	if len(recs) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("no sched events in %d lines (enable sched_switch and sched_wakeup)", tr.Stats.Lines)}
	}
	// The kernel merges its per-CPU buffers by timestamp; a stable sort
	// repairs files concatenated or merged otherwise and keeps the file
	// order of equal timestamps.
	slices.SortStableFunc(recs, func(a, b record) int {
		switch {
		case a.ts < b.ts:
			return -1
		case a.ts > b.ts:
			return 1
		}
		return 0
	})
	end := opts.End
	if opts.Until > 0 {
		if opts.End != 0 {
			return nil, &Error{Msg: "options End and Until both set: give one"}
		}
		end = recs[0].ts + int64(opts.Until)
		k, _ := slices.BinarySearchFunc(recs, end+1, func(r record, ts int64) int { return cmp.Compare(r.ts, ts) })
		tr.Stats.AfterUntil = len(recs) - k
		recs = recs[:k]
	}
	if opts.End != 0 && opts.End < recs[len(recs)-1].ts {
		return nil, &Error{Msg: fmt.Sprintf("end %d is before the last event at %d", opts.End, recs[len(recs)-1].ts)}
	}
	slices.SortStableFunc(cols.list, func(a, b column) int { return cmp.Compare(a.ts, b.ts) })
	resolve(tr, recs, cols.list, headerCPUs, end)
	slices.SortStableFunc(freqs, func(a, b FreqChange) int { return cmp.Compare(a.Time, b.Time) })
	for _, f := range freqs {
		f.Time = max(0, min(f.Time-sched.Time(tr.Offset), tr.Duration))
		if f.CPU < tr.NumCPUs {
			tr.Freqs = append(tr.Freqs, f)
		}
	}
	slices.SortStableFunc(irqs, func(a, b IRQEntry) int { return cmp.Compare(a.Time, b.Time) })
	for _, q := range irqs {
		q.Time = max(0, q.Time-sched.Time(tr.Offset))
		if q.CPU < tr.NumCPUs && q.Time <= tr.Duration {
			tr.IRQs = append(tr.IRQs, q)
		}
	}
	tr.setRuntimes(runtimes)
	return tr, nil
}

// freqBody returns the fields of a frequency change: a cpu_frequency
// event, or a trace_marker print of LISA's devlib ("print: 0x...s:
// cpu_frequency_devlib: state=950000 cpu_id=0").
func freqBody(p prefix) (string, bool) {
	switch p.event {
	case "cpu_frequency":
		return p.body, true
	case "print":
		if _, rest, ok := strings.Cut(p.body, "cpu_frequency_devlib:"); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// lostMark reads "CPU:2 [LOST 123 EVENTS]" (tracefs and trace-cmd report).
func lostMark(line string) (n, cpu int, ok bool) {
	rest, ok := strings.CutPrefix(line, "CPU:")
	if !ok {
		return 0, 0, false
	}
	c, rest, ok := strings.Cut(rest, " [LOST ")
	if !ok {
		return 0, 0, false
	}
	num, _, ok := strings.Cut(rest, " EVENTS]")
	if !ok {
		return 0, 0, false
	}
	if cpu, ok = parseUint(strings.TrimSpace(c)); !ok {
		return 0, 0, false
	}
	if n, ok = parseUint(num); !ok {
		return 0, 0, false
	}
	return n, cpu, true
}

// headerNumCPUs reads "#P:8" from the header's entries line.
func headerNumCPUs(line string) int {
	i := strings.Index(line, "#P:")
	if i < 0 {
		return 0
	}
	n, ok := parseUint(strings.TrimSpace(line[i+3:]))
	if !ok || n > MaxCPUs {
		return 0
	}
	return n
}

// MaxIdleState bounds a cpu_idle state: CPUIDLE_STATE_MAX
// (include/linux/cpuidle.h). The metrics keep a counter per state, so a
// state of 294967295 would be a 2 GB slice.
const MaxIdleState = 10

// checkCPUs refuses CPU numbers beyond MaxCPUs and cpu_idle states beyond
// MaxIdleState (-1 and its u32 form 4294967295, PWR_EVENT_EXIT, are the
// exit).
func checkCPUs(r *record) error {
	if r.kind == rawIdle && r.arg != -1 && r.arg != 4294967295 && (r.arg < 0 || r.arg >= MaxIdleState) {
		return fmt.Errorf("state %d: want 0..%d (CPUIDLE_STATE_MAX) or 4294967295 (PWR_EVENT_EXIT)", r.arg, MaxIdleState-1)
	}
	cpus := []int{r.cpu}
	switch r.kind {
	case rawWakeup, rawWaking, rawWakeupNew:
		cpus = append(cpus, r.arg)
	case rawMigrate, rawIdle:
		cpus = append(cpus, r.arg2)
		if r.kind == rawMigrate {
			cpus = append(cpus, r.arg)
		}
	}
	for _, c := range cpus {
		if c >= MaxCPUs {
			return fmt.Errorf("cpu %d out of range (at most %d CPUs)", c, MaxCPUs)
		}
	}
	return nil
}
