package replay

// The inference: one pass over an imported trace's events, keeping per task
// whether it runs, waits runnable or is blocked, and appending its program
// steps as the kernel's tracepoints mark them (__schedule()'s sched_switch
// ends a burst when prev_state is not R; try_to_wake_up() ends a block).

import (
	"fmt"
	"slices"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// Defaults of Options.
const (
	DefaultMaxTasks   = 4096
	DefaultMaxSteps   = 1 << 20
	DefaultSyncWindow = 20 * sched.Microsecond
	DefaultMaxEvents  = 50_000_000
)

// Options adjust an inference. The zero value is the defaults.
type Options struct {
	// Capacity is each CPU's capacity (1..1024, arch_scale_cpu_capacity());
	// nil or a missing CPU means 1024. A burst's work is its time times
	// the capacity of the CPU it ran on, over 1024.
	Capacity []int
	// MaxKHz is each CPU's highest frequency (a platform description's
	// OPPs); 0 or missing: the highest the trace shows for that CPU. With
	// the trace's cpu_frequency changes, work is also scaled by the CPU's
	// current frequency over MaxKHz (the kernel's arch_scale_freq_capacity()).
	MaxKHz []int
	// MaxTasks, MaxSteps and MaxEvents bound the workload and the trace
	// read (DefaultMaxTasks, DefaultMaxSteps, DefaultMaxEvents if 0); a
	// trace beyond them is an error saying so.
	MaxTasks, MaxSteps, MaxEvents int
	// SyncWindow: a signal followed by at most this much work before the
	// waker blocks is a WF_SYNC wakeup (DefaultSyncWindow if 0; <0 none).
	SyncWindow sched.Time
	// ClockPoll is the cpu_clock_poll given to a task inferred to read its
	// CPU clock (selfpoll.go; DefaultClockPoll if 0; <0: none inferred).
	// SelfWindow bounds how long before a preemption an interrupt or
	// wakeup on its CPU may have caused it (DefaultSelfWindow if 0).
	ClockPoll, SelfWindow sched.Time
}

// tstate is a task's state during the pass.
type tstate struct {
	idx       int // into Workload.Tasks, -1 before the task's first event
	running   bool
	cpu       int
	since     sched.Time // running since
	pending   sched.Time // work since the last step that ended a burst part
	blocked   bool
	blockStep int // index of the step the wakeup will fill
	seen      []bool
	// preemptedBy is the task that took the CPU when this one was switched
	// out runnable right after waking it (hidden.go), else NoTask.
	preemptedBy sched.TaskID
	// queued is the signal of the queued wakeup that will end this
	// task's block (queued.go); event -1: none.
	queued queuedSignal
	// reads are the runtime= of its sched_stat_runtime updates that only a
	// read of its CPU clock explains (selfpoll.go).
	reads []sched.Time
	// asked lists the tasks it woke in the burst before its current block
	// (workload indices; hidden.go).
	asked []int
}

type inferrer struct {
	tr    *ftraceimport.Trace
	opts  Options
	w     *Workload
	st    []tstate
	steps int
	// per CPU: the task running there, its frequency and highest frequency
	// (0: not known, full speed)
	on          []sched.TaskID
	khz, maxKHz []int
	nextFreq    int // index into tr.Freqs
	nextRT      int // index into tr.Runtimes (selfpoll.go)
	// pairs counts, per (requester, replier) workload index pair, the
	// requester's blocks after waking the replier and those the replier
	// ended (hidden.go).
	pairs map[[2]int]pairStat
	// queued lists the wakeups taken at their sched_waking (queued.go);
	// nextQueued is the first not yet taken.
	queued     []int
	nextQueued int
	// costs samples the machine's wakeup cost (costs.go)
	costs *costSampler
	// causes tracks what could have set need_resched per CPU (selfpoll.go);
	// nil when the trace has no timer interrupt entries
	causes *causes
	// nextAdded is the first of tr.Added not yet passed
	nextAdded int
	// now is the time of the event being read
	now sched.Time
	// counts for the warnings
	unblockedWakes, lateEvents, blockedSwitchIns int
}

// Infer derives the workload of an imported trace.
func Infer(tr *ftraceimport.Trace, opts Options) (*Workload, error) {
	if opts.MaxTasks <= 0 {
		opts.MaxTasks = DefaultMaxTasks
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxEvents <= 0 {
		opts.MaxEvents = DefaultMaxEvents
	}
	if n := len(tr.Events) - 1; n > opts.MaxEvents {
		return nil, &LimitError{What: "sched events", Option: "MaxEvents", Limit: opts.MaxEvents, At: tr.Events[opts.MaxEvents].Time}
	}
	if opts.SyncWindow == 0 {
		opts.SyncWindow = DefaultSyncWindow
	}
	if opts.SelfWindow <= 0 {
		opts.SelfWindow = DefaultSelfWindow
	}
	if len(tr.Wakes) != len(tr.Events) {
		return nil, fmt.Errorf("replay: the trace has %d events but %d wake sources (not from ftraceimport.Import)", len(tr.Events), len(tr.Wakes))
	}
	in := &inferrer{tr: tr, opts: opts, w: &Workload{NumCPUs: tr.NumCPUs, Duration: tr.Duration},
		st: make([]tstate, len(tr.Tasks)), pairs: map[[2]int]pairStat{},
		costs: newCostSampler(len(tr.Tasks), tr.NumCPUs)}
	for i := range in.st {
		in.st[i].idx = -1
	}
	in.on = make([]sched.TaskID, tr.NumCPUs)
	for c := range in.on {
		in.on[c] = sched.NoTask
	}
	if c := newCauses(tr, opts.SelfWindow); c.hasTimer() {
		in.causes = c
		in.w.ClockEvidence = true
	}
	in.khz, in.maxKHz = make([]int, tr.NumCPUs), make([]int, tr.NumCPUs)
	for _, f := range tr.Freqs {
		in.maxKHz[f.CPU] = max(in.maxKHz[f.CPU], f.KHz)
	}
	for c, k := range opts.MaxKHz {
		if c < len(in.maxKHz) && k > 0 {
			in.maxKHz[c] = k
		}
	}
	for cpu, id := range tr.Running {
		if id != sched.NoTask {
			if err := in.create(id, 0); err != nil {
				return nil, err
			}
			s := &in.st[id]
			s.running, s.cpu, s.since = true, cpu, 0
			in.on[cpu] = id
			in.see(id, cpu)
		}
	}
	in.queued = in.queuedWakes()
	for i := range tr.Events {
		in.freqsUntil(tr.Events[i].Time)
		in.wakingsBefore(i)
		in.runtimesBefore(i)
		in.clockEvent(i)
		in.now = tr.Events[i].Time
		if err := in.event(i); err != nil {
			return nil, err
		}
		if in.steps > opts.MaxSteps {
			return nil, &LimitError{What: "program steps", Option: "MaxSteps", Limit: opts.MaxSteps, At: tr.Events[i].Time}
		}
	}
	in.finish()
	in.finishCosts()
	in.w.HZ, in.w.HZTicks = inferHZ(tr)
	markSync(in.w, opts.SyncWindow)
	findPeriods(in.w)
	in.inferClockPoll()
	in.w.nameGroups()
	in.warn()
	return in.w, nil
}

// create adds task id to the workload, appearing at start.
func (in *inferrer) create(id sched.TaskID, start sched.Time) error {
	if in.st[id].idx >= 0 {
		return nil
	}
	if len(in.w.Tasks) >= in.opts.MaxTasks {
		return &LimitError{What: "tasks", Option: "MaxTasks", Limit: in.opts.MaxTasks, At: in.now}
	}
	info := &in.tr.Tasks[id]
	in.st[id] = tstate{idx: len(in.w.Tasks), seen: make([]bool, in.tr.NumCPUs), preemptedBy: sched.NoTask,
		queued: queuedSignal{event: -1}}
	in.w.Tasks = append(in.w.Tasks, Task{ID: id, PID: info.PID, Comm: info.Name, Policy: info.Policy,
		Nice: info.Nice, RTPriority: info.RTPriority, Start: start, Parent: -1})
	return nil
}

// added reports whether event i is a switch the importer added
// (ftraceimport Trace.Added); events are read in order.
func (in *inferrer) added(i int) bool {
	a := in.tr.Added
	for in.nextAdded < len(a) && a[in.nextAdded] < i {
		in.nextAdded++
	}
	return in.nextAdded < len(a) && a[in.nextAdded] == i
}

func (in *inferrer) task(id sched.TaskID) *Task { return &in.w.Tasks[in.st[id].idx] }

func (in *inferrer) see(id sched.TaskID, cpu int) {
	if cpu >= 0 && cpu < len(in.st[id].seen) {
		in.st[id].seen[cpu] = true
	}
}

// account adds the CPU time of a running task up to now to its pending work.
func (in *inferrer) account(id sched.TaskID, now sched.Time) {
	s := &in.st[id]
	if !s.running || now <= s.since {
		return
	}
	d := now - s.since
	in.task(id).Runtime += d
	s.pending += d * in.capacity(s.cpu) / 1024
	s.since = now
}

func (in *inferrer) push(id sched.TaskID, st Step) int {
	t := in.task(id)
	t.Steps = append(t.Steps, st)
	in.steps++
	return len(t.Steps) - 1
}

// flush appends the pending work as a run step.
func (in *inferrer) flush(id sched.TaskID) {
	s := &in.st[id]
	if s.pending > 0 {
		in.push(id, Step{Kind: StepRun, Work: s.pending})
		s.pending = 0
	}
}

// block marks id blocked from now, with a placeholder step the wakeup
// fills.
func (in *inferrer) block(id sched.TaskID, now sched.Time) {
	s := &in.st[id]
	s.blocked = true
	s.asked = in.askedIn(id)
	s.blockStep = in.push(id, Step{Kind: StepEnd})
	t := in.task(id)
	t.Blocks = append(t.Blocks, Block{From: now, To: in.tr.Duration, End: EndNever, Waker: -1, WakerPoint: -1})
}

func (in *inferrer) event(i int) error {
	e := &in.tr.Events[i]
	now := e.Time
	switch e.Kind {
	case sched.EvSwitch:
		if p := e.Prev; p != sched.NoTask {
			if err := in.create(p, now); err != nil {
				return err
			}
			if e.Next != sched.NoTask {
				if err := in.create(e.Next, now); err != nil {
					return err
				}
			}
			in.hiddenReply(p, e.PrevState, e.Next, now)
			in.switchOut(p, e.PrevState, now)
			in.preemptedByWakee(p, e.PrevState, e.Next)
		}
		if n := e.Next; n != sched.NoTask {
			if err := in.create(n, now); err != nil {
				return err
			}
			s := &in.st[n]
			s.preemptedBy = sched.NoTask
			if s.blocked { // its wakeup was not traced (lost events)
				in.blockedSwitchIns++
				in.wake(n, i, false)
			}
			s.running, s.cpu, s.since = true, int(e.CPU), now
			in.see(n, int(e.CPU))
		}
		if c := int(e.CPU); c >= 0 && c < len(in.on) {
			in.on[c] = e.Next
		}
		in.sampleSwitch(int(e.CPU), e.PrevState, e.Next, now, in.added(i))
	case sched.EvWakeup:
		n := e.Next
		if n == sched.NoTask {
			return nil
		}
		if in.st[n].idx < 0 { // asleep since before the trace
			if err := in.create(n, 0); err != nil {
				return err
			}
			in.block(n, 0)
		}
		if !in.st[n].blocked {
			in.unblockedWakes++
			return nil
		}
		in.sampleWake(i, n)
		in.wake(n, i, true)
	case sched.EvWakeupNew:
		if n := e.Next; n != sched.NoTask {
			return in.create(n, now)
		}
	case sched.EvFork:
		p, c := e.Prev, e.Next
		if c == sched.NoTask || in.st[c].idx >= 0 {
			return nil
		}
		if err := in.create(c, now); err != nil {
			return err
		}
		if p != sched.NoTask && in.st[p].idx >= 0 && in.st[p].running {
			in.account(p, now)
			in.flush(p)
			in.push(p, Step{Kind: StepFork, Peer: in.st[c].idx, At: now})
			in.task(c).Parent = in.st[p].idx
		}
	case sched.EvExit:
		if p := e.Prev; p != sched.NoTask && in.st[p].idx >= 0 {
			in.task(p).Exited = true
		}
	case sched.EvMigrate:
		if n := e.Next; n != sched.NoTask && in.st[n].idx >= 0 {
			in.task(n).Migrations++
		}
	}
	return nil
}

// switchOut handles prev of a sched_switch.
func (in *inferrer) switchOut(p sched.TaskID, state byte, now sched.Time) {
	s := &in.st[p]
	if !s.running { // switched out without a switch in: start of the trace or lost events
		s.running, s.since = true, now
	}
	in.account(p, now)
	s.running = false
	t := in.task(p)
	switch {
	case state == 'R':
		t.Preemptions++
	case s.blocked:
		in.lateEvents++
	case state == 'X':
		in.flush(p)
		in.push(p, Step{Kind: StepExit, At: now})
		t.Bursts++
		s.blocked = true // dead: nothing wakes it
		s.blockStep = -1
	default:
		in.flush(p)
		t.Bursts++
		in.block(p, now)
	}
}

// wake ends the block of n at event i: a signal of the waker when a
// traced task woke it in process context (traced), else a wakeup from
// outside at the event's time.
func (in *inferrer) wake(n sched.TaskID, i int, traced bool) {
	e := &in.tr.Events[i]
	s := &in.st[n]
	s.blocked = false
	if s.blockStep < 0 { // dead
		return
	}
	t := in.task(n)
	bl := &t.Blocks[len(t.Blocks)-1]
	bl.To = e.Time
	ws := in.tr.Wakes[i]
	w := ws.Waker
	if q := s.queued; q.event >= 0 {
		s.queued.event = -1
		if traced && q.event == i {
			t.Steps[s.blockStep] = Step{Kind: StepWait, Peer: q.waker, At: e.Time}
			in.answered(n, q.waker)
			bl.End, bl.Waker, bl.WakerPoint = EndTask, q.waker, q.slot
			return
		}
		panic("replay: a queued wakeup's signal without its wakeup")
	}
	if traced && w != sched.NoTask && w != n && ws.IRQ != 1 && int(w) < len(in.st) &&
		in.st[w].idx >= 0 && in.st[w].running {
		in.account(w, e.Time)
		in.flush(w)
		pt := in.push(w, Step{Kind: StepSignal, Peer: s.idx, At: e.Time})
		t.Steps[s.blockStep] = Step{Kind: StepWait, Peer: in.st[w].idx, At: e.Time}
		in.answered(n, in.st[w].idx)
		bl.End, bl.Waker, bl.WakerPoint = EndTask, in.st[w].idx, pt
		return
	}
	t.Steps[s.blockStep] = Step{Kind: StepUntil, At: e.Time}
	in.answered(n, -1)
	bl.End = EndOutside
}

// finish closes every task at the trace's end.
func (in *inferrer) finish() {
	end := in.tr.Duration
	for id := range in.st {
		s := &in.st[id]
		if s.idx < 0 {
			continue
		}
		in.account(sched.TaskID(id), end)
		if !s.blocked || s.blockStep < 0 {
			in.flush(sched.TaskID(id))
		}
		t := &in.w.Tasks[s.idx]
		for c, ok := range s.seen {
			if ok {
				t.CPUs = append(t.CPUs, c)
			}
		}
	}
	in.w.Tasks = slices.Clip(in.w.Tasks)
}

func (in *inferrer) warn() {
	if in.unblockedWakes > 0 {
		in.w.Warnings = append(in.w.Warnings, fmt.Sprintf("%d wakeups of tasks not seen blocked (lost events?) were ignored", in.unblockedWakes))
	}
	if in.blockedSwitchIns > 0 {
		in.w.Warnings = append(in.w.Warnings, fmt.Sprintf("%d switch-ins of tasks without a traced wakeup were taken as wakeups from outside", in.blockedSwitchIns))
	}
	if in.lateEvents > 0 {
		in.w.Warnings = append(in.w.Warnings, fmt.Sprintf("%d switch-outs of tasks already blocked or dead were ignored", in.lateEvents))
	}
}
