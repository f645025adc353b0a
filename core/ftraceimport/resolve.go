package ftraceimport

// Resolving records into the event model: pids to tasks, the idle task to
// sched.NoTask, the simulator's event kinds and the task table.
//
// A pid names one task until that task exits (sched_process_exit or a
// switch out in state X/Z); a later sched_process_fork child_pid or
// sched_wakeup_new of the same pid is a new task. A fork's child pid that
// already named a task with events is a new task too (the exit was not
// traced). The task table shows each task as last seen: its latest comm
// (exec and prctl change it) and prio.

import (
	"schedplay/core/sched"
)

type trackState uint8

const (
	trUnknown trackState = iota
	trRunning
	trRunnable
	trSleeping
	trDead
)

type track struct {
	state    trackState
	hasEvent bool // named by an event (not only as a task column)
	exited   bool // sched_process_exit or a switch out in state X/Z seen
	// boosted: a sched_pi_setprio gave the task another prio than normal,
	// its prio before the boost; while boosted the prio fields show the
	// boosted prio and do not change the task's policy.
	boosted bool
	normal  int
}

type resolver struct {
	tr     *Trace
	pids   map[int]sched.TaskID
	tracks []track
}

func resolve(tr *Trace, recs []record, cols []column, headerCPUs int, end int64) {
	rs := &resolver{tr: tr, pids: map[int]sched.TaskID{}}
	useWaking := true
	ncpu := headerCPUs
	for i := range recs {
		r := &recs[i]
		if r.kind == rawWakeup {
			useWaking = false
		}
		ncpu = max(ncpu, r.cpu+1)
		switch r.kind {
		case rawWakeup, rawWaking, rawWakeupNew:
			ncpu = max(ncpu, r.arg+1)
		case rawMigrate:
			ncpu = max(ncpu, r.arg+1, r.arg2+1)
		case rawIdle:
			ncpu = max(ncpu, r.arg2+1)
		}
	}
	tr.NumCPUs = ncpu
	tr.Offset = recs[0].ts
	if end == 0 {
		end = recs[len(recs)-1].ts
	}
	tr.Duration = sched.Time(end - tr.Offset)
	tr.Running = make([]sched.TaskID, ncpu)
	switched := make([]bool, ncpu)
	for i := range tr.Running {
		tr.Running[i] = sched.NoTask
	}
	tr.Events = make([]sched.Event, 0, len(recs)+1)
	tr.Wakes = make([]WakeSource, 0, len(recs)+1)
	waking := map[int]*record{}  // the latest unused sched_waking per wakee pid
	wakingAt := map[int]int{}    // and the index of the first event after it
	current := make([]int, ncpu) // pid running on each CPU as the lines show it, -1 unknown
	for i := range current {
		current[i] = -1
	}
	// The other lines' task columns, merged by time (file order at equal
	// times): a change of the CPU's task there adds the missed switch at
	// that line. Those before the first sched event or after the end are
	// outside the trace's span.
	col := 0
	for col < len(cols) && cols[col].ts < recs[0].ts {
		col++
	}
	atColumn := func(c *column) {
		if c.cpu >= ncpu {
			return
		}
		if prev := current[c.cpu]; prev >= 0 && prev != c.cur.pid {
			rs.missedSwitch(c.line, c.ts, c.cpu, c.cur, prev)
		}
		current[c.cpu] = c.cur.pid
	}
	for i := range recs {
		r := &recs[i]
		for ; col < len(cols) && (cols[col].ts < r.ts || cols[col].ts == r.ts && cols[col].line < r.line); col++ {
			atColumn(&cols[col])
		}
		if c := current[r.cpu]; c >= 0 && c != r.cur.pid {
			rs.missedSwitch(r.line, r.ts, r.cpu, r.cur, c)
			if r.kind == rawSwitch && r.a.pid == r.cur.pid {
				tr.Stats.MissedAtSwitchOut++
			}
		}
		current[r.cpu] = r.cur.pid
		if r.kind == rawSwitch {
			current[r.cpu] = r.b.pid
		}
		var ws WakeSource
		e := sched.Event{Time: sched.Time(r.ts - tr.Offset), CPU: sched.CPUID(r.cpu), Arg: -1,
			Prev: sched.NoTask, Next: sched.NoTask, Reason: reasonByName[r.reason]}
		switch r.kind {
		case rawSwitch:
			e.Kind = sched.EvSwitch
			e.Prev = rs.task(r.a, false)
			e.Next = rs.task(r.b, false)
			if !switched[r.cpu] && e.Prev != sched.NoTask && !rs.tracks[e.Prev].hasEvent {
				tr.Running[r.cpu] = e.Prev
			}
			switched[r.cpu] = true
			if e.Prev != sched.NoTask {
				e.PrevState = r.state
				rs.touch(e.Prev, afterSwitch(r.state))
				if r.state == 'X' {
					rs.tracks[e.Prev].exited = true
				}
			}
			if e.Next != sched.NoTask {
				rs.touch(e.Next, trRunning)
			}
		case rawWakeup, rawWaking:
			if r.kind == rawWaking && !useWaking {
				tr.Stats.WakingIgnored++
				waking[r.a.pid], wakingAt[r.a.pid] = r, len(tr.Events)
				continue
			}
			ctx, at := r, len(tr.Events)
			if w, ok := waking[r.a.pid]; ok && r.kind == rawWakeup {
				ctx, at = w, wakingAt[r.a.pid]
				delete(waking, r.a.pid)
				delete(wakingAt, r.a.pid)
			}
			e.Kind = sched.EvWakeup
			e.Next = rs.task(r.a, false)
			if e.Next == sched.NoTask {
				continue
			}
			if st := rs.tracks[e.Next].state; st == trRunning || st == trRunnable {
				tr.Stats.RedundantWakeups++
				continue
			}
			if r.arg >= 0 {
				e.CPU = sched.CPUID(r.arg)
			}
			// As the simulator's EvWakeup: the waker (NoTask in interrupt
			// context) and the CPU the line was printed on.
			ws = WakeSource{Waker: rs.waker(ctx.cur), IRQ: ctx.irq, FromWaking: ctx.kind == rawWaking, CPU: ctx.cpu,
				Time: sched.Time(ctx.ts - tr.Offset), Before: at}
			e.Prev, e.Arg = ws.Waker, int64(r.cpu)
			if ws.IRQ == 1 {
				e.Prev = sched.NoTask
			}
			rs.touch(e.Next, trRunnable)
		case rawWakeupNew:
			e.Kind = sched.EvWakeupNew
			e.Next = rs.task(r.a, rs.exited(r.a.pid))
			if e.Next == sched.NoTask {
				continue
			}
			if r.arg >= 0 {
				e.CPU = sched.CPUID(r.arg)
			}
			e.Arg = int64(rs.waker(r.cur))
			ws = WakeSource{Waker: sched.TaskID(e.Arg), IRQ: r.irq, CPU: r.cpu, Time: e.Time, Before: len(tr.Events)}
			rs.touch(e.Next, trRunnable)
		case rawMigrate:
			e.Kind = sched.EvMigrate
			e.Next = rs.task(r.a, false)
			if e.Next == sched.NoTask {
				continue
			}
			e.CPU, e.Arg = sched.CPUID(r.arg2), int64(r.arg)
			rs.touch(e.Next, rs.tracks[e.Next].state)
		case rawFork:
			e.Kind = sched.EvFork
			e.Prev = rs.task(r.a, false)
			id, known := rs.pids[r.b.pid]
			e.Next = rs.task(r.b, known && rs.tracks[id].hasEvent)
			if e.Next == sched.NoTask {
				continue
			}
			if e.Prev != sched.NoTask {
				rs.touch(e.Prev, rs.tracks[e.Prev].state)
			}
			rs.touch(e.Next, trUnknown)
		case rawExit:
			e.Kind = sched.EvExit
			e.Prev = rs.task(r.a, false)
			if e.Prev == sched.NoTask {
				continue
			}
			// The task still runs until its final switch out.
			rs.touch(e.Prev, rs.tracks[e.Prev].state)
			rs.tracks[e.Prev].exited = true
		case rawPISetprio:
			e.Kind = sched.EvPISetprio
			e.Next = rs.task(r.a, false)
			if e.Next == sched.NoTask {
				continue
			}
			e.Reason, e.Arg = sched.ReasonPI, sched.PISetprioArg(r.arg, r.arg2)
			rs.setprio(e.Next, r.arg, r.arg2)
			rs.touch(e.Next, rs.tracks[e.Next].state)
		case rawIdle:
			e.CPU = sched.CPUID(r.arg2)
			if r.arg == -1 || r.arg == 4294967295 {
				e.Kind = sched.EvIdleExit
			} else {
				e.Kind, e.Arg = sched.EvIdleEnter, int64(r.arg)
			}
		}
		tr.Events = append(tr.Events, e)
		tr.Wakes = append(tr.Wakes, ws)
	}
	for ; col < len(cols) && cols[col].ts <= end; col++ {
		atColumn(&cols[col])
	}
	tr.Stats.Events = len(tr.Events)
	for _, id := range tr.Running {
		if id != sched.NoTask {
			tr.Stats.RunningAtStart++
		}
	}
	tr.Events = append(tr.Events, sched.Event{Time: tr.Duration, Kind: sched.EvEnd,
		Prev: sched.NoTask, Next: sched.NoTask, Arg: -1})
	tr.Wakes = append(tr.Wakes, WakeSource{Waker: sched.NoTask})
}

// missedSwitch adds the switch the trace lacks when a line's task column
// (the CPU's current task) is not the task the CPU's last line left
// running there: a lost event, or a task whose switches are not traced.
// The task switched out is taken to have blocked (prev_state S): a later
// switch-in needs no wakeup, while a preemption would swallow the next
// wakeup as redundant.
func (rs *resolver) missedSwitch(line int, ts int64, cpu int, cur side, prevPID int) {
	tr := rs.tr
	tr.Stats.MissedSwitches++
	if tr.Stats.MissedSwitches == 1 {
		tr.warn(line, "cpu %d runs pid %d, but its last switch left pid %d there: a missed switch added (further ones are counted)", cpu, cur.pid, prevPID)
	}
	e := sched.Event{Time: sched.Time(ts - tr.Offset), CPU: sched.CPUID(cpu), Arg: -1, Kind: sched.EvSwitch,
		Prev: rs.task(side{pid: prevPID, prio: noPrio}, false), Next: rs.task(side{pid: cur.pid, comm: cur.comm, prio: noPrio}, false)}
	if e.Prev != sched.NoTask {
		e.PrevState = 'S'
		rs.touch(e.Prev, trSleeping)
	}
	if e.Next != sched.NoTask {
		rs.touch(e.Next, trRunning)
	}
	tr.Added = append(tr.Added, len(tr.Events))
	tr.Events = append(tr.Events, e)
	tr.Wakes = append(tr.Wakes, WakeSource{Waker: sched.NoTask})
}

// afterSwitch is the state of a task switched out in prev_state st.
func afterSwitch(st byte) trackState {
	switch st {
	case 'R':
		return trRunnable
	case 'X':
		return trDead
	}
	return trSleeping
}

// task resolves a task named by an event's fields: pid 0 is the idle task;
// fresh asks for a new task even if the pid is mapped (pid reuse).
func (rs *resolver) task(s side, fresh bool) sched.TaskID {
	if s.pid == 0 {
		return sched.NoTask
	}
	id, ok := rs.pids[s.pid]
	if !ok || fresh {
		if ok {
			rs.tr.Stats.PIDReuses++
		}
		id = rs.newTask(s.pid)
	}
	info := &rs.tr.Tasks[id]
	if s.comm != "" && s.comm != "<...>" && s.comm != info.Name {
		if info.Name != "" {
			rs.tr.Stats.CommChanges++
		}
		info.Name = s.comm
	}
	switch {
	case s.prio == noPrio:
	case rs.tracks[id].boosted:
		info.EffectivePrio = s.prio
	default:
		setPrio(info, s.prio)
	}
	return id
}

// setprio follows a sched_pi_setprio of id from oldprio to newprio: the
// first boost records the prio before it as the task's own; the task's
// policy stays what that prio says until a deboost returns to it.
func (rs *resolver) setprio(id sched.TaskID, oldprio, newprio int) {
	tk := &rs.tracks[id]
	info := &rs.tr.Tasks[id]
	if !tk.boosted {
		tk.normal = oldprio
		setPrio(info, oldprio)
	}
	tk.boosted = newprio != tk.normal
	info.EffectivePrio = newprio
}

func (rs *resolver) newTask(pid int) sched.TaskID {
	id := sched.TaskID(len(rs.tr.Tasks))
	rs.tr.Tasks = append(rs.tr.Tasks, sched.TaskInfo{ID: id, PID: pid, Prio: 120, EffectivePrio: 120})
	rs.tracks = append(rs.tracks, track{})
	rs.pids[pid] = id
	return id
}

// waker resolves the task column of a wakeup line: the task running on the
// line's CPU, which did the wakeup. Its comm comes from the kernel's comm
// cache and names the task only when nothing better is known.
func (rs *resolver) waker(cur side) sched.TaskID {
	if cur.pid == 0 {
		return sched.NoTask
	}
	if id, ok := rs.pids[cur.pid]; ok {
		return id
	}
	return rs.task(cur, false)
}

// touch records an event naming id and its state after it.
func (rs *resolver) touch(id sched.TaskID, st trackState) {
	rs.tracks[id].hasEvent = true
	rs.tracks[id].state = st
}

// exited reports whether pid names a task that has exited.
func (rs *resolver) exited(pid int) bool {
	id, ok := rs.pids[pid]
	return ok && rs.tracks[id].exited
}

// setPrio fills the scheduling fields from the kernel prio: 0..99 is an RT
// task (rt_priority 99-prio; SCHED_FIFO, as ftrace does not tell FIFO from
// RR), 100..139 a fair task of nice prio-120 (SCHED_OTHER: SCHED_BATCH and
// SCHED_IDLE look the same). Other values (-1 for SCHED_DEADLINE) are kept
// in Prio only.
func setPrio(info *sched.TaskInfo, prio int) {
	info.Prio, info.EffectivePrio = prio, prio
	switch {
	case prio >= 0 && prio < sched.MaxRTPrio:
		info.Policy, info.RTPriority, info.Nice = sched.SchedFIFO, sched.MaxRTPrio-1-prio, 0
	case prio >= 100 && prio < 140:
		info.Policy, info.RTPriority, info.Nice = sched.SchedOther, 0, prio-120
	default:
		info.Policy, info.RTPriority, info.Nice = sched.SchedOther, 0, 0
	}
}
