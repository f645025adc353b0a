package replay

// The inferred workload: per task, its program as the trace shows it.

import (
	"fmt"
	"strings"

	"schedplay/core/sched"
)

// StepKind is the kind of an inferred program step.
type StepKind uint8

// Step kinds.
const (
	StepRun    StepKind = iota + 1 // a burst of Work
	StepSignal                     // wake task Peer (its StepWait on this task)
	StepWait                       // block until task Peer signals (a wakeup by a traced task)
	StepUntil                      // block until At (a wakeup from outside: interrupt, timer, untraced task)
	StepFork                       // fork task Peer
	StepExit                       // exit (sched_process_exit or a switch out dead)
	StepEnd                        // blocked until the trace ends: never woken
)

var stepNames = [...]string{"", "run", "signal", "wait", "until", "fork", "exit", "end"}

func (k StepKind) String() string {
	if int(k) < len(stepNames) {
		return stepNames[k]
	}
	return fmt.Sprintf("StepKind(%d)", int(k))
}

// Step is one inferred program step.
type Step struct {
	Kind StepKind
	Work sched.Time // StepRun: work in ns at capacity 1024
	Peer int        // StepSignal, StepWait, StepFork: index into Workload.Tasks
	At   sched.Time // StepUntil: the wakeup time (trace time); StepWait, StepSignal: when it happened
	// Sync marks a signal the waker follows by blocking within SyncWindow
	// of work (a WF_SYNC wakeup, as a pipe write before a read).
	Sync bool
	// Periodic marks a StepUntil of a periodic series (Task.Period).
	Periodic bool
	// Hidden marks the signal and wait of a reply the trace does not show
	// (hidden.go): the wait ends no block of Task.Blocks.
	Hidden bool
}

// BlockEnd says how a blocked interval ended.
type BlockEnd uint8

// How blocks end.
const (
	EndTask    BlockEnd = iota + 1 // woken by another traced task in process context
	EndTimer                       // woken from outside, as part of a periodic series
	EndOutside                     // woken from outside: an interrupt or an untraced task
	EndNever                       // still blocked when the trace ends
)

var endNames = [...]string{"", "task", "timer", "outside", "never"}

func (b BlockEnd) String() string {
	if int(b) < len(endNames) {
		return endNames[b]
	}
	return fmt.Sprintf("BlockEnd(%d)", int(b))
}

// Block is one blocked interval of a task.
type Block struct {
	From, To sched.Time // To: the wakeup (the trace's end for EndNever)
	End      BlockEnd
	// Waker is the waking task (index into Workload.Tasks) and
	// WakerPoint the index of its StepSignal, for EndTask; -1 otherwise.
	Waker, WakerPoint int
}

// Task is one traced task and what the trace says about it.
type Task struct {
	ID    sched.TaskID // in the imported trace
	PID   int
	Comm  string
	Group string // its task group name in the scenario (comm_pid, sanitized)
	// Policy, Nice and RTPriority come from the prio (ftraceimport).
	Policy     sched.Policy
	Nice       int
	RTPriority int
	// Start is when the task appears in the replay (trace time): 0 for the
	// tasks the trace starts with, the fork or first event otherwise.
	Start sched.Time
	// Parent is the forking task's index when a traced, running task forked
	// it (the child is created by the parent's StepFork), else -1.
	Parent int
	// CPUs are the CPUs it was seen running on, ascending.
	CPUs []int
	// Steps is its program.
	Steps  []Step
	Blocks []Block
	// Runtime is its CPU time in the trace (ns, not scaled).
	Runtime sched.Time
	// Bursts, Preemptions and Migrations count what the trace shows.
	Bursts, Preemptions, Migrations int
	// Period is the interval of its periodic outside wakeups (0: none
	// found); Periodic counts those wakeups.
	Period   sched.Time
	Periodic int
	// SelfPreemptions counts its preemptions with no interrupt or wakeup
	// on its CPU before them (selfpoll.go; 0 without interrupt entries);
	// ClockPoll is the cpu_clock_poll inferred from them (0: none).
	SelfPreemptions int
	ClockPoll       sched.Time
	// ClockReads counts its sched_stat_runtime updates that nothing but a
	// read of its own clock explains; ClockPollTraced: ClockPoll is their
	// median interval, not the default (selfpoll.go).
	ClockReads      int
	ClockPollTraced bool
	Exited          bool
	// KeepPID: the replayed task has this PID and Comm (as far as a comm
	// can be kept: 15 printable bytes); false for a second task of a
	// reused pid, which runs as GROUP-N with a pid of the simulator's.
	KeepPID bool
}

// Workload is the inference's result.
type Workload struct {
	Tasks    []Task
	NumCPUs  int
	Duration sched.Time // of the trace
	// Warnings say what the inference could not read as the kernel meant
	// it (a wakeup of a task never seen blocked, events after an exit).
	Warnings []string
	// HiddenReplies counts the replies inferred without a traced wakeup
	// (hidden.go): a task preempted by the task it had just woken and
	// resumed when that task blocked.
	HiddenReplies int
	// RemoteIdleWakes counts the wakeups of a task onto an idle CPU by a
	// task running on another CPU, RemoteIdleWakeP50 the median of their
	// waking-to-switch-in times: the traced machine's cost of that path
	// (costs.go).
	RemoteIdleWakes   int
	RemoteIdleWakeP50 sched.Time
	// QueuedIdleWakes counts those of them that went through the target's
	// wake list (sched_wakeup printed on the target by the IPI's handler
	// after the waker's sched_waking: queued.go); QueuedIdleWakingP50 is
	// the median of their sched_waking-to-sched_wakeup times (the IPI and
	// the idle state's exit), QueuedIdleSwitchP50 of their
	// sched_wakeup-to-switch-in times (the rest of the handler, the idle
	// exit, schedule_idle()): costs.go fits each.
	QueuedIdleWakes                          int
	QueuedIdleWakingP50, QueuedIdleSwitchP50 sched.Time
	// CostSamplesAdded counts the wakeups left out of the cost samples
	// because the importer added their switch-in (ftraceimport
	// Trace.Added: its time is the woken task's first line).
	CostSamplesAdded int
	// RemoteBusyWakes and RemoteBusyWakeP50: the same for the remote
	// wakeups that preempted the task running on the target CPU.
	RemoteBusyWakes   int
	RemoteBusyWakeP50 sched.Time
	// LocalIRQWakes and LocalIRQWakeP50: the same for the wakeups by an
	// interrupt on the wakee's own CPU, which ran a task the wakee
	// preempted at once (a timer: the replay's hw.timer_irq_ns).
	LocalIRQWakes   int
	LocalIRQWakeP50 sched.Time
	// OwnIdleWakes and OwnIdleWakeP50: the wakeups by an interrupt on the
	// wakee's own idle CPU (a timer) and the median of their
	// sched_wakeup-to-switch-in times, the idle exit after a timer
	// (costs_timer.go); OwnIdleGapP50 is the median time those CPUs had
	// been idle before the wakeup.
	OwnIdleWakes                  int
	OwnIdleWakeP50, OwnIdleGapP50 sched.Time
	// HZ is the traced kernel's tick rate from its tick spacing (hz.go; 0:
	// the trace does not show it), HZTicks the tick intervals that show it.
	HZ, HZTicks int
	// ClockEvidence: the trace has timer interrupt entries, so the tasks
	// that read their CPU clock could be inferred (selfpoll.go); without
	// them nothing is.
	ClockEvidence bool
}

// Describe renders the workload as stable text: one line per task with its
// counts, then its blocks by how they ended.
func (w *Workload) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workload: %d tasks, %d CPUs, %s\n", len(w.Tasks), w.NumCPUs, w.Duration)
	for i := range w.Tasks {
		t := &w.Tasks[i]
		var ends [5]int
		for _, bl := range t.Blocks {
			ends[bl.End]++
		}
		fmt.Fprintf(&b, "%s pid=%d comm=%q %s nice=%d rt=%d start=%s cpus=%v bursts=%d preempt=%d migr=%d steps=%d woken: task=%d timer=%d outside=%d never=%d",
			t.Group, t.PID, t.Comm, t.Policy, t.Nice, t.RTPriority, t.Start, t.CPUs, t.Bursts, t.Preemptions,
			t.Migrations, len(t.Steps), ends[EndTask], ends[EndTimer], ends[EndOutside], ends[EndNever])
		if t.Period > 0 {
			fmt.Fprintf(&b, " period=%s x%d", t.Period, t.Periodic)
		}
		if t.Parent >= 0 {
			fmt.Fprintf(&b, " parent=%s", w.Tasks[t.Parent].Group)
		}
		if w.ClockEvidence {
			fmt.Fprintf(&b, " self_preempt=%d", t.SelfPreemptions)
		}
		if t.ClockPoll > 0 {
			fmt.Fprintf(&b, " cpu_clock_poll=%s", t.ClockPoll)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
