package perfetto

// The writer: the event stream to trace-event JSON.
//
// The same picture as the CPU rows of Perfetto's own sched view (built from
// sched_switch in trace_processor's sched tables) and of
// kernelshark: a slice per stretch a task runs on a CPU, from the
// sched_switch that puts it on to the one that takes it off. A slice is
// written when it ends, so the file is not sorted by time; the viewers sort
// on load. The slices still open when the run ends (EvEnd, or the last event
// seen when Close is called without one) end there.
//
// Each line of the output is one trace event, so the file also diffs well.

import (
	"bufio"
	"fmt"
	"io"

	"schedplay/core/sched"
)

// cpusPID is the process holding the CPU tracks.
const cpusPID = 1

// Writer writes trace-event JSON. It implements [sched.Sink].
type Writer struct {
	bw   *bufio.Writer
	info func(sched.TaskID) sched.TaskInfo
	open []slice // per CPU: the task running, task NoTask when idle
	buf  []byte  // reused event buffer
	last sched.Time
	end  bool // EvEnd seen: open slices are written
	done bool
	err  error
	// cgroups are the cgroup tracks (cgroups.go); nil without SetCgroups.
	cgroups []cgTrack
	// provenance is the export's provenance object (SetProvenance).
	provenance []byte
}

// SetProvenance adds the export's provenance object (a JSON object:
// scenario.Record, docs/cli.md) to the document's metadata as
// "provenance". Trace viewers ignore metadata keys they do not know.
// Without it the document has the bytes it always had.
func (w *Writer) SetProvenance(obj []byte) { w.provenance = obj }

// slice is a task's stretch on a CPU, not yet ended.
type slice struct {
	task  sched.TaskID
	start sched.Time
	in    sched.Reason
	pick  sched.PickRule
}

// NewWriter returns a Writer of the events of an ncpu-CPU run to w. info
// describes a task (normally [sched.Sim.TaskInfo]). The document's head and
// the CPU track names are written at once (buffered: write errors surface in
// Close).
func NewWriter(w io.Writer, info func(sched.TaskID) sched.TaskInfo, ncpu int) *Writer {
	if ncpu <= 0 {
		panic(fmt.Sprintf("perfetto: NewWriter with %d CPUs", ncpu))
	}
	pw := &Writer{
		bw:   bufio.NewWriterSize(w, 64<<10),
		info: info,
		open: make([]slice, ncpu),
		buf:  make([]byte, 0, 512),
	}
	b := append(pw.buf, `{"traceEvents":[`+"\n"...)
	b = append(b, `{"name":"process_name","ph":"M","pid":1,"args":{"name":"CPUs"}}`...)
	pw.write(b)
	for c := range pw.open {
		pw.open[c].task = sched.NoTask
		b = pw.begin("thread_name", "M", c)
		b = append(b, `,"args":{"name":"CPU `...)
		b = appendInt(b, int64(c))
		b = append(b, `"}}`...)
		pw.write(b)
		b = pw.begin("thread_sort_index", "M", c)
		b = append(b, `,"args":{"sort_index":`...)
		b = appendInt(b, int64(c))
		b = append(b, `}}`...)
		pw.write(b)
	}
	return pw
}

// Event records e. It does not retain e. It panics if the stream is
// inconsistent (a sched_switch from a task that is not running on that
// CPU), as when the writer is attached to a run already under way.
func (w *Writer) Event(e *sched.Event) {
	if w.done || w.end {
		return
	}
	w.last = e.Time
	switch e.Kind {
	case sched.EvSwitch:
		w.switchTo(e)
	case sched.EvWakeup, sched.EvWakeupNew:
		w.checkCPU(e.CPU)
		b := w.instant(e)
		b = w.appendTaskArgs(b, e.Next)
		b = append(b, `,"target_cpu":`...)
		b = appendInt(b, int64(e.CPU))
		b = append(b, `,"reason":`...)
		b = appendString(b, reasonName(e.Reason))
		w.write(append(b, "}}"...))
	case sched.EvMigrate:
		w.checkCPU(e.CPU)
		b := w.instant(e)
		b = w.appendTaskArgs(b, e.Next)
		b = append(b, `,"orig_cpu":`...)
		b = appendInt(b, e.Arg)
		b = append(b, `,"dest_cpu":`...)
		b = appendInt(b, int64(e.CPU))
		b = append(b, `,"reason":`...)
		b = appendString(b, reasonName(e.Reason))
		w.write(append(b, "}}"...))
	case sched.EvCgroupThrottle, sched.EvCgroupUnthrottle:
		w.cgroupEvent(e)
	case sched.EvSetattr:
		w.setattrEvent(e)
	case sched.EvPISetprio:
		w.piSetprioEvent(e)
	case sched.EvEnd:
		w.closeAll(e.Time)
		w.end = true
	}
}

// Close ends the slices still open, finishes the document and flushes it,
// reporting the first write error. It does not close the underlying
// writer. Later calls return the same result; events after Close are
// ignored.
func (w *Writer) Close() error {
	if w.done {
		return w.err
	}
	if !w.end {
		w.closeAll(w.last)
	}
	w.done = true
	b := append(w.buf[:0], "\n],\n"...)
	b = append(b, `"displayTimeUnit":"ns",`+"\n"...)
	b = append(b, `"metadata":{"generator":"schedplay","cpus":`...)
	b = appendInt(b, int64(len(w.open)))
	b = append(b, `,"end_us":`...)
	b = appendMicros(b, w.last)
	if len(w.provenance) > 0 {
		b = append(b, `,"provenance":`...)
		b = append(b, w.provenance...)
	}
	b = append(b, "}}\n"...)
	w.bw.Write(b)
	w.err = w.bw.Flush()
	return w.err
}

func (w *Writer) checkCPU(c sched.CPUID) {
	if c < 0 || int(c) >= len(w.open) {
		panic(fmt.Sprintf("perfetto: event on cpu %d of a %d-CPU run", c, len(w.open)))
	}
}

// switchTo ends the slice of the task leaving the CPU and opens the
// entering task's.
func (w *Writer) switchTo(e *sched.Event) {
	w.checkCPU(e.CPU)
	cur := &w.open[e.CPU]
	if cur.task != e.Prev {
		panic(fmt.Sprintf("perfetto: sched_switch on cpu %d from task %d, but task %d is running: %s",
			e.CPU, e.Prev, cur.task, e.Describe()))
	}
	if cur.task != sched.NoTask {
		st := e.PrevState
		if st == 0 {
			st = 'R'
		}
		w.writeSlice(int(e.CPU), e.Time, reasonName(e.Reason), st)
	}
	*cur = slice{task: e.Next, start: e.Time, in: e.Reason, pick: e.Pick}
}

// closeAll ends every open slice at t (the end of the run).
func (w *Writer) closeAll(t sched.Time) {
	w.closeCgroups(t)
	for c := range w.open {
		if w.open[c].task != sched.NoTask {
			w.writeSlice(c, t, "end", 0)
			w.open[c].task = sched.NoTask
		}
	}
}

// writeSlice writes CPU c's open slice, ending at t. state 0 leaves
// prev_state out (the task was still running).
func (w *Writer) writeSlice(c int, t sched.Time, out string, state byte) {
	s := &w.open[c]
	ti := w.info(s.task)
	b := w.buf[:0]
	b = append(b, ",\n"...)
	b = append(b, `{"name":`...)
	b = appendString(b, ti.Name)
	b = append(b, `,"cat":"sched","ph":"X","pid":1,"tid":`...)
	b = appendInt(b, int64(c))
	b = append(b, `,"ts":`...)
	b = appendMicros(b, s.start)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, t-s.start)
	b = append(b, `,"args":{"pid":`...)
	b = appendInt(b, int64(ti.PID))
	b = append(b, `,"reason_in":`...)
	b = appendString(b, reasonName(s.in))
	b = append(b, `,"pick":`...)
	b = appendString(b, pickName(s.pick))
	b = append(b, `,"reason_out":`...)
	b = appendString(b, out)
	if state != 0 {
		b = append(b, `,"prev_state":"`...)
		b = append(b, state, '"')
	}
	w.write(append(b, "}}"...))
}

// begin starts a trace event of the given name and phase on CPU c's track.
func (w *Writer) begin(name, ph string, c int) []byte {
	b := append(w.buf[:0], ",\n"...)
	b = append(b, `{"name":"`...)
	b = append(b, name...)
	b = append(b, `","ph":"`...)
	b = append(b, ph...)
	b = append(b, `","pid":1,"tid":`...)
	return appendInt(b, int64(c))
}

// instant starts an instant event for e on its CPU's track and opens its args.
func (w *Writer) instant(e *sched.Event) []byte {
	b := w.begin(e.Kind.String(), "i", int(e.CPU))
	b = append(b, `,"cat":"sched","s":"t","ts":`...)
	b = appendMicros(b, e.Time)
	return append(b, `,"args":{`...)
}

// appendTaskArgs appends the comm and pid args of task id.
func (w *Writer) appendTaskArgs(b []byte, id sched.TaskID) []byte {
	ti := w.info(id)
	b = appendKey(b, "comm")
	b = appendString(b, ti.Name)
	b = appendKey(b, "pid")
	return appendInt(b, int64(ti.PID))
}

func (w *Writer) write(b []byte) {
	w.buf = b[:0]
	w.bw.Write(b)
}

// setattrEvent writes a policy or priority change as an instant on the
// CPU's track: the task's new policy and prio (TaskInfo as of now), the
// prio before, and the calling task.
func (w *Writer) setattrEvent(e *sched.Event) {
	w.checkCPU(e.CPU)
	ti := w.info(e.Next)
	b := w.instant(e)
	b = w.appendTaskArgs(b, e.Next)
	b = appendKey(b, "policy")
	b = appendString(b, ti.Policy.String())
	b = appendKey(b, "prio")
	b = appendInt(b, int64(ti.Prio))
	b = appendKey(b, "old_prio")
	b = appendInt(b, e.Arg)
	b = appendKey(b, "nice")
	b = appendInt(b, int64(ti.Nice))
	b = appendKey(b, "rt_priority")
	b = appendInt(b, int64(ti.RTPriority))
	b = appendKey(b, "by_pid")
	b = appendInt(b, int64(w.info(e.Prev).PID))
	w.write(append(b, "}}"...))
}

// piSetprioEvent writes a priority-inheritance boost or deboost
// (sched_pi_setprio) as an instant on the CPU's track, with the kernel
// event's fields: the task, its prio before and its new prio (p->prio),
// and the reason ("pi").
func (w *Writer) piSetprioEvent(e *sched.Event) {
	w.checkCPU(e.CPU)
	oldprio, newprio := e.PIPrios()
	b := w.instant(e)
	b = w.appendTaskArgs(b, e.Next)
	b = appendKey(b, "oldprio")
	b = appendInt(b, int64(oldprio))
	b = appendKey(b, "newprio")
	b = appendInt(b, int64(newprio))
	b = append(b, `,"reason":`...)
	b = appendString(b, reasonName(e.Reason))
	w.write(append(b, "}}"...))
}

func reasonName(r sched.Reason) string {
	if r == sched.ReasonNone {
		return "none"
	}
	return r.String()
}

func pickName(p sched.PickRule) string {
	if p == sched.PickNone {
		return "none"
	}
	return p.String()
}
