package replay

// The inferred workload as an ordinary scenario (docs/scenario-format.md):
// one task group of one instance per traced task, named comm_pid, its
// program the inferred steps. A wakeup by a traced task is a counting
// semaphore per (waker, wakee) pair: the waker signals it at its point of
// the program, the wakee waits on it, so a signal that comes early in the
// replay is kept for the wait (a pipe keeps a written message). A wakeup
// from outside is an absolute timer step on the task's own grid
// (anchored at its creation): it keeps the trace's time, and the
// wakeups of a periodic series advance the grid by the period.

import (
	"schedplay/core/quote"

	"fmt"
	"strconv"
	"strings"

	"schedplay/core/replay/fidelity"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// ScenarioOptions adjust the scenario built from a workload.
type ScenarioOptions struct {
	Name     string // the scenario's name ("replay" if empty)
	Topology string // a topology preset name (required)
	Kernel   string // kernel profile ("" = the default)
	// Pin says which tasks keep the CPUs they were seen on as affinity:
	// PinKthreads (the default) pins per-CPU kernel threads ("ksoftirqd/3",
	// "kworker/1:2") seen on one CPU; PinSeen pins every task to the CPUs
	// it was seen on; PinNone pins nothing.
	Pin string
	// Affinity gives the tasks of a comm an affinity the trace cannot show
	// (sched_setaffinity() is not traced): taskset of the recorded
	// workload; a nil list is the CPUs each such task was seen on. It wins
	// over Pin.
	Affinity map[string][]int
	// Timed drops the causal chains: every wakeup, by a traced task or
	// not, keeps its trace time (an absolute timer step), so the scenario
	// has no semaphores and exports to rt-app; a change of scheduling then
	// no longer moves the wakeups it would have caused.
	Timed bool
	// HZ is the replay's kernel.hz: 0 takes the trace's (Workload.HZ, from
	// its tick spacing) where it shows one, else the profile's; >0 sets
	// it. The machine-cost probe (costs.go) runs at this HZ.
	HZ int
}

// Pin modes.
const (
	PinKthreads = "kthreads"
	PinSeen     = "seen"
	PinNone     = "none"
)

// timerRef is the timer of the outside wakeups in every replayed task.
const timerRef = "trace"

// perCPUKthread reports whether comm names a per-CPU kernel thread:
// NAME/CPU ("ksoftirqd/3", "migration/0", "irq/work/1" style prefixes of
// letters and '_'), or kworker/CPU:ID with an optional H (highpri); the
// unbound "kworker/u8:1" is not one. (A hand-written matcher: regexp
// would add a third of a megabyte to the playground's WASM.)
func perCPUKthread(comm string) bool {
	slash := strings.LastIndexByte(comm, '/')
	if slash <= 0 {
		return false
	}
	for _, part := range strings.Split(comm[:slash], "/") {
		if part == "" || strings.Trim(part, "abcdefghijklmnopqrstuvwxyz_") != "" {
			return false
		}
	}
	cpu, id, hasID := strings.Cut(comm[slash+1:], ":")
	if !digits(cpu) {
		return false
	}
	if hasID {
		return digits(strings.TrimSuffix(id, "H"))
	}
	return true
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// ResourceName names the semaphore by which task waker wakes task wakee.
func ResourceName(waker, wakee int) string {
	return "wake." + strconv.Itoa(waker) + "." + strconv.Itoa(wakee)
}

// Scenario builds the scenario of w.
func (w *Workload) Scenario(o ScenarioOptions) (*scenario.Scenario, error) {
	if o.Topology == "" {
		return nil, fmt.Errorf("replay: no topology for the scenario")
	}
	switch o.Pin {
	case "":
		o.Pin = PinKthreads
	case PinKthreads, PinSeen, PinNone:
	default:
		return nil, quote.Errorf("replay: pin %q: want %s, %s or %s", o.Pin, PinKthreads, PinSeen, PinNone)
	}
	if len(w.Tasks) == 0 {
		return nil, fmt.Errorf("replay: the trace has no task to replay (only the idle task ran)")
	}
	if lim := sched.DefaultLimits().MaxDuration; w.Duration > lim {
		return nil, fmt.Errorf("replay: the trace spans %s; a replay is at most %s: cut the trace shorter", w.Duration, lim)
	}
	sc := scenario.New()
	sc.Name = o.Name
	if sc.Name == "" {
		sc.Name = "replay"
	}
	sc.Description = fmt.Sprintf("inferred from a kernel trace: %d tasks over %s (core/replay)", len(w.Tasks), w.Duration)
	sc.Topology = o.Topology
	if o.Kernel != "" {
		sc.Kernel.Version = o.Kernel
	}
	switch {
	case o.HZ > 0:
		sc.Kernel.HZ = o.HZ
	case w.HZ > 0:
		sc.Kernel.HZ = w.HZ
	}
	sc.Duration = max(w.Duration, sched.Microsecond)
	sems := map[string]int{}
	pids := map[int]bool{}
	for i := range w.Tasks {
		t := &w.Tasks[i]
		st := scenario.Task{Name: t.Group, Instances: 1, Policy: t.Policy.String(), Loop: 1}
		t.KeepPID = t.PID >= 1 && t.PID <= sched.MaxPID && !pids[t.PID]
		if t.KeepPID {
			pids[t.PID] = true
			st.PID, st.Comm = t.PID, comm(t.Comm)
		}
		switch {
		case t.Policy.IsRT():
			st.Priority = max(1, min(99, t.RTPriority))
		default:
			st.Policy, st.Nice = "SCHED_OTHER", t.Nice
		}
		st.CPUClockPoll = t.ClockPoll // selfpoll.go
		if t.Parent >= 0 {
			st.Parent = w.Tasks[t.Parent].Group
		} else {
			st.Start = t.Start
		}
		st.CPUs = w.pin(t, o.Pin)
		if cpus, ok := o.Affinity[t.Comm]; ok {
			st.CPUs = w.pin(t, PinSeen)
			if cpus != nil {
				st.CPUs = append([]int(nil), cpus...)
			}
		}
		st.Program = w.program(i, sems, o.Timed)
		sc.Tasks = append(sc.Tasks, st)
	}
	if len(sems) > 0 {
		sc.Semaphores = sems
	}
	sc.HW = w.machineCosts(sc)
	return sc, nil
}

// pin is the affinity of t under mode.
func (w *Workload) pin(t *Task, mode string) []int {
	if len(t.CPUs) == 0 || len(t.CPUs) == w.NumCPUs {
		return nil
	}
	switch mode {
	case PinSeen:
		return append([]int{}, t.CPUs...)
	case PinKthreads:
		if len(t.CPUs) == 1 && perCPUKthread(t.Comm) {
			return []int{t.CPUs[0]}
		}
	}
	return nil
}

// program translates task i's steps; timed turns waits into timers at
// the wakeup's time and leaves signals out.
func (w *Workload) program(i int, sems map[string]int, timed bool) []scenario.Step {
	t := &w.Tasks[i]
	var out []scenario.Step
	var target sched.Time // the timer grid's target, relative to the task's start
	for _, s := range t.Steps {
		if timed {
			switch s.Kind {
			case StepSignal:
				continue
			case StepWait:
				s = Step{Kind: StepUntil, At: s.At}
			}
		}
		switch s.Kind {
		case StepRun:
			out = append(out, scenario.Step{Kind: "run", Run: max(s.Work, 1)})
		case StepSignal:
			r := ResourceName(i, s.Peer)
			sems[r] = 0
			out = append(out, scenario.Step{Kind: "signal", Res: r, Sync: s.Sync})
		case StepWait:
			r := ResourceName(s.Peer, i)
			sems[r] = 0
			out = append(out, scenario.Step{Kind: "wait", Res: r})
		case StepUntil:
			at := s.At - t.Start
			if s.Periodic && t.Period > 0 {
				at = target + t.Period
			}
			out = append(out, scenario.Step{Kind: "timer", Timer: &scenario.Timer{Ref: timerRef, Period: max(at-target, 1), Mode: "absolute"}})
			target = max(at, target+1)
		case StepFork:
			out = append(out, scenario.Step{Kind: "fork", Fork: w.Tasks[s.Peer].Group})
		case StepExit:
			out = append(out, scenario.Step{Kind: "exit"})
		case StepEnd:
			out = append(out, scenario.Step{Kind: "sleep", Sleep: w.Duration + sched.Second})
		}
	}
	if len(out) == 0 {
		out = append(out, scenario.Step{Kind: "sleep", Sleep: w.Duration + sched.Second})
	}
	return out
}

// nameGroups gives every task its group name: the comm with characters
// outside [A-Za-z0-9_.] replaced by '_', then '_' and the pid; a second
// task of one pid (pid reuse) gets a suffix.
func (w *Workload) nameGroups() {
	used := map[string]bool{}
	for i := range w.Tasks {
		t := &w.Tasks[i]
		comm := t.Comm
		if comm == "" {
			comm = "task"
		}
		var b strings.Builder
		for _, r := range comm {
			if b.Len() >= 24 {
				break
			}
			if r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		name := b.String() + "_" + strconv.Itoa(t.PID)
		for k := 2; used[name]; k++ {
			name = b.String() + "_" + strconv.Itoa(t.PID) + "_" + strconv.Itoa(k)
		}
		used[name] = true
		t.Group = name
	}
}

// comm is a trace's comm as a scenario keeps it: at most 15 printable
// ASCII bytes, others as '?'.
func comm(c string) string {
	var b []byte
	for i := 0; i < len(c) && len(b) < 15; i++ {
		if ch := c[i]; ch >= ' ' && ch <= '~' {
			b = append(b, ch)
		} else {
			b = append(b, '?')
		}
	}
	if len(b) == 0 {
		return "task"
	}
	return string(b)
}

// GroupOf is the task group of a replayed task's name (fidelity.GroupOf).
func GroupOf(name string) string { return fidelity.GroupOf(name) }

// CheckURL reports whether sc fits a share URL (scenario.MaxURL
// characters of payload), with an error saying by how much it does not.
func CheckURL(sc *scenario.Scenario) error {
	if n := len(scenario.EncodeURLPayload(sc)); n > scenario.MaxURL {
		return fmt.Errorf("replay: the inferred scenario is %d characters as a share URL, over the limit of %d: replay a shorter trace or fewer tasks to share it (the scenario file has no limit)", n, scenario.MaxURL)
	}
	return nil
}
