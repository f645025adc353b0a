package ftraceimport

// The task column of the lines that are not sched events (interrupt and
// timer entries, sched_stat_runtime, trace_marker prints, ...). The
// kernel prints every line with the task current on its CPU
// (trace_print_context(), kernel/trace/trace_output.c, from the entry's
// pid that tracing_generic_entry_update() took from current), so any
// line shows who ran there at its time. When a switch is missing from
// the trace (a CPU whose switches from idle are not recorded, a lost
// event), the woken task's first line of any kind on that CPU is the
// earliest the trace shows it running: the added switch (resolve.go,
// missedSwitch) goes there, not at the task's next sched event, which
// may be the end of its burst.
//
// Only a line whose pid differs from the previous line's on its CPU (in
// file order) is kept: the others cannot show a change. A kernel trace
// prints each CPU's lines in time order, so the filter drops nothing a
// time-ordered reading would use; a trace with 10^6 sched_stat_runtime
// lines of one task keeps a handful.

// column is the task column of one non-sched line.
type column struct {
	line int
	ts   int64
	cpu  int
	cur  side
}

// columns collects the non-sched lines' task columns while reading.
type columns struct {
	list []column
	last []int // per CPU: 1 + the pid of its previous line (0: none yet)
}

// seen notes a sched event's line on cpu (it is a record of its own).
func (c *columns) seen(cpu, pid int) {
	c.grow(cpu)
	c.last[cpu] = pid + 1
}

// add notes a non-sched line, kept when its pid is not its CPU's
// previous line's.
func (c *columns) add(p prefix, line int) {
	if p.cpu < 0 || p.cpu >= MaxCPUs || p.pid < 0 {
		return
	}
	c.grow(p.cpu)
	if c.last[p.cpu] == p.pid+1 {
		return
	}
	c.last[p.cpu] = p.pid + 1
	c.list = append(c.list, column{line: line, ts: p.ts, cpu: p.cpu, cur: side{comm: p.comm, pid: p.pid, prio: noPrio}})
}

func (c *columns) grow(cpu int) {
	for len(c.last) <= cpu {
		c.last = append(c.last, 0)
	}
}
