package scenario

// The Scenario type, its validation, and its translation to sched.Config.

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// Duration is simulated time in nanoseconds.
type Duration = sched.Time

// Scenario is a decoded, version-1 scenario document.
type Scenario struct {
	Name        string
	Description string
	Topology    string
	Kernel      Kernel
	Features    map[string]bool
	Sysctl      map[string]int64
	HW          map[string]string
	Duration    Duration
	Seed        uint64
	// PI gives the mutexes of lock/unlock steps priority inheritance
	// (rt-app's global pi_enabled); false = plain futex mutexes.
	PI    bool
	Tasks []Task
	// Workloads are generator instances (workloads.go), expanded into
	// task groups after Tasks when the scenario is built.
	Workloads []Workload
	// Semaphores makes the named wait resources counting semaphores with
	// these initial counts (nil when there are none).
	Semaphores map[string]int
	// Cgroups are the cgroups of the cpu controller the scenario
	// configures (cgroups.go), in path order; nil when there are none.
	Cgroups    []Cgroup
	Experiment *Experiment // optional: the thread this scenario reproduces
}

// Kernel selects the kernel profile and its build options.
type Kernel struct {
	Version string
	HZ      int    // 0 = profile default
	Preempt string // "" = profile default
	// TickOffset fixes where the jiffies grid lies relative to the run's
	// start; nil draws it from the seed, as a real workload starts at an
	// arbitrary point between two ticks.
	TickOffset *Duration
	// Autogroup is kernel.autogroup (sched_autogroup_enabled); nil = off.
	Autogroup *bool
	// RTGroupSched is kernel.rt_group_sched (CONFIG_RT_GROUP_SCHED); nil
	// = the profile's default (cgroup_kernel.go).
	RTGroupSched *bool
}

// Task is one task group.
type Task struct {
	Name       string
	Instances  int
	Policy     string
	Nice       int
	Priority   int   // rt_priority, 1..99, for SCHED_FIFO and SCHED_RR only
	CPUs       []int // nil = all
	Start      Duration
	Parent     string
	TimerSlack *Duration
	Slice      Duration
	Loop       int
	Program    []Step
	// PerCPU: one instance per CPU of the machine, instance i pinned to
	// CPU i (cyclictest -a -t); instances and cpus must be absent.
	PerCPU bool
	// InstancesPerCPU, when set, replaces Instances by
	// round(InstancesPerCPU x CPUs), at least 1: a load sized to the
	// machine, as rteval sizes its loads.
	InstancesPerCPU float64
	// Nodes binds the group to the CPUs of these NUMA nodes (numactl
	// --cpunodebind); SpreadNodes instead binds each instance to one
	// node, dealt round-robin over the nodes and continuing across the
	// scenario's spread groups in order (rteval's one load per node).
	// Key "nodes": an array of node ids or "spread" (nodes.go).
	Nodes       []int
	SpreadNodes bool
	// DLRuntime, DLDeadline and DLPeriod are the SCHED_DEADLINE
	// parameters (dl_runtime, dl_deadline, dl_period).
	DLRuntime, DLDeadline, DLPeriod Duration
	// Cgroup is the task's cgroup ("taskgroup", rt-app's key): an
	// absolute path; "" = the root cgroup.
	Cgroup string
	// Session names the autogroup session of the task ("session"); "" =
	// the session the scenario's tasks share.
	Session string
	// AutogroupNice is the autogroup nice of the task's session
	// ("autogroup_nice", /proc/<pid>/autogroup): -20..19; nil = not set
	// (0). Task groups of one session must agree.
	AutogroupNice *int
	// PID fixes the pid of a one-instance group ("pid", a replayed trace's
	// task); 0 = assigned from 1000.
	PID int
	// Comm names the instances instead of "<name>-<index>" ("comm", a
	// replayed trace's comm: 1-15 bytes, TASK_COMM_LEN).
	Comm string
	// CPUClockPoll ("cpu_clock_poll"): the instances read their thread
	// CPU clock (clock_gettime(CLOCK_THREAD_CPUTIME_ID), a system call)
	// after every CPUClockPoll of CPU time in their run steps, as a burn
	// loop that polls the clock does; 0 = never (sched.TaskSpec.ClockPoll).
	CPUClockPoll Duration
}

// Step is one program event; Kind says which field is set.
type Step struct {
	Kind string // run, sys, sleep, timer, yield, fork, exec, exit, loop, wait, signal, broadcast, barrier, lock, unlock, ipi, affinity, taskgroup, setattr, nice
	// Affinity is an affinity step's CPU list (sched_setaffinity() of the
	// task on itself); nil = every CPU ("all").
	Affinity []int
	Run      Duration
	// Sys is the length of a sys step: kernel work counted as sys time.
	Sys Duration
	// IPI is an ipi step: smp_call_function_single() to a CPU.
	IPI   *IPI
	Sleep Duration
	Timer *Timer
	Fork  string
	Loop  *Loop
	// Res names the resource of a wait, signal, broadcast or barrier, or
	// the mutex of a lock or unlock.
	Res string
	// Mutex names the mutex a wait releases while it blocks and takes
	// again when woken (pthread_cond_wait()); "" = none.
	Mutex string
	// Sync marks a signal or broadcast as a WF_SYNC wakeup (the waker is
	// about to block, as a pipe writer that then reads).
	Sync bool
	// Cond gives a signal pthread_cond_signal() semantics: with nobody
	// waiting it is lost instead of left pending.
	Cond bool
	// Group is a taskgroup step's cgroup: the task moves itself there
	// (rt-app's phase-level taskgroup); "" or "/" = the root.
	Group string
	// SetAttr is a setattr step's new policy and parameter (setattr.go).
	SetAttr *SetAttr
	// Nice is a nice step's value (setpriority()).
	Nice int
	// Task names the task group whose instances a setattr or nice step
	// changes; "" = the task itself.
	Task string
}

// IPI is an ipi step: send a call-function IPI to CPU and (Wait) spin
// until it ran, as the ipistorm module does.
type IPI struct {
	CPU  int
	Wait bool
}

// Timer is an rt-app timer event.
type Timer struct {
	Ref    string
	Period Duration
	Mode   string // absolute or relative
}

// Loop is a nested loop.
type Loop struct {
	Count   int
	Program []Step
}

// Defaults of a scenario.
const (
	DefaultTopology = "smp-1"
	DefaultKernel   = "v6.18"
	DefaultDuration = sched.Second
	DefaultSlack    = 50 * sched.Microsecond
)

// New returns an empty scenario with the defaults.
func New() *Scenario {
	return &Scenario{Topology: DefaultTopology, Kernel: Kernel{Version: DefaultKernel},
		Features: map[string]bool{}, Sysctl: map[string]int64{}, HW: map[string]string{},
		Duration: DefaultDuration, Seed: 1}
}

// Validate checks everything that can be checked without running, naming
// the path of the first problem.
func (sc *Scenario) Validate() error {
	if err := sc.buildOnly(); err != nil {
		return err
	}
	if sc.Experiment != nil {
		return sc.Experiment.validate(sc)
	}
	return nil
}

func (sc *Scenario) buildOnly() error {
	_, err := sc.Build(sched.DefaultLimits())
	return err
}

// Clone returns a copy that Set may change without touching sc: the maps
// are copied; the slices Set changes (tasks, workloads) are copied by Set
// itself before it writes them.
func (sc *Scenario) Clone() *Scenario {
	c := *sc
	for _, k := range keyTable {
		if k.fam != nil && k.fam.clone != nil {
			k.fam.clone(&c, sc)
		}
	}
	return &c
}

// Build translates the scenario into a run configuration.
func (sc *Scenario) Build(lim sched.Limits) (sched.Config, error) {
	var cfg sched.Config
	m, err := topology.Preset(sc.Topology)
	if err != nil {
		return cfg, errAt("topology", "%v", err)
	}
	if v, ok := sc.HW["smt"]; ok { // before anything that depends on the CPU count
		on, err := asOnOff("hw.smt", v)
		if err != nil {
			return cfg, errAt("hw.smt", "%q: want on or off", v)
		}
		if !on {
			m = m.WithoutSMT()
		}
	}
	prof, err := sched.ProfileByName(sc.Kernel.Version)
	if err != nil {
		return cfg, errAt("kernel.version", "%v", err)
	}
	if sc.Kernel.HZ != 0 {
		if err := rowByName("kernel.hz").checkText("kernel.hz", strconv.Itoa(sc.Kernel.HZ)); err != nil {
			return cfg, err
		}
		prof.HZ = sc.Kernel.HZ
	}
	if sc.Kernel.Preempt != "" {
		if prof.Preempt, err = sched.ParsePreempt(sc.Kernel.Preempt); err != nil {
			return cfg, errAt("kernel.preempt", "%v", err)
		}
		if prof.Preempt == sched.PreemptLazy && prof.Version() < 613 {
			return cfg, errAt("kernel.preempt", "lazy: the lazy preemption model arrived in v6.13; %s has none, voluntary and full", prof.Name)
		}
	}
	for _, name := range sortedBoolKeys(sc.Features) {
		f, ok := sched.FeatureByName(name)
		if !ok {
			return cfg, errAt("features."+name, "unknown feature (see `schedplay keys`)")
		}
		if err := prof.CheckFeature(f); err != nil { // as sched_feat_write(): -EINVAL
			return cfg, errAt("features."+name, "%v", err)
		}
		prof.Features = prof.Features.With(f, sc.Features[name])
	}
	sys := prof.DefaultSysctls(m.NumCPUs())
	for _, name := range sortedIntKeys(sc.Sysctl) {
		if err := sys.Set(name, sc.Sysctl[name]); err != nil {
			return cfg, errAt("sysctl."+name, "%v", err)
		}
	}
	hw := sched.DefaultHW(&m)
	for _, name := range sortedStringKeys(sc.HW) {
		if err := setHW(&hw, &m, name, sc.HW[name]); err != nil {
			return cfg, errAt("hw."+name, "%v", err)
		}
	}
	cfg.HW = hw
	if sc.Duration <= 0 || sc.Duration > lim.MaxDuration {
		return cfg, errAt("duration", "%s out of range: want more than 0 and at most %s", sc.Duration, lim.MaxDuration)
	}
	if len(m.CPUs) > lim.MaxCPUs {
		return cfg, errAt("topology", "%d CPUs; the limit is %d", len(m.CPUs), lim.MaxCPUs)
	}
	ex, err := sc.expand(m.NumCPUs())
	if err != nil {
		return cfg, err
	}
	full := *sc // the scenario with its workloads expanded into task groups
	full.Tasks, full.Semaphores = ex.Tasks, ex.Semaphores
	if len(full.Tasks) == 0 {
		return cfg, errAt("tasks", "want at least one task group (or a workload)")
	}
	tree, err := sc.buildCgroups(full.Tasks, ex.path, prof, sys, &m, sc.rtGroupSched(prof))
	if err != nil {
		return cfg, err
	}
	groups := map[string]int{}
	pids := map[int]string{} // fixed pids ("pid") and their groups
	for i, t := range full.Tasks {
		p := ex.path(i)
		if !validName(t.Name, 64, true) {
			return cfg, errAt(p+".name", "%q: want 1-64 characters of A-Z a-z 0-9 _ .", t.Name)
		}
		if _, dup := groups[t.Name]; dup {
			return cfg, errAt(p+".name", "%q is used by another task group", t.Name)
		}
		groups[t.Name] = i
		if t.PID != 0 {
			if g, dup := pids[t.PID]; dup {
				return cfg, errAt(p+".pid", "%d is the pid of task group %s", t.PID, g)
			}
			pids[t.PID] = t.Name
		}
	}
	total := 0
	rs := &resTable{index: map[string]int{}, mutexes: map[string]int{}, ncpu: m.NumCPUs(), cgroups: tree, sessions: map[string]int{}}
	spread := 0 // the next node of "nodes": "spread" (nodes.go)
	for i, t := range full.Tasks {
		spec, err := buildTask(ex.path(i), t, groups, &full, m.NumCPUs(), rs)
		if err != nil {
			return cfg, err
		}
		if err := bindNodes(ex.path(i), t, &spec, &m, &spread); err != nil {
			return cfg, err
		}
		if spec.Parent < 0 {
			total += spec.Instances
		}
		cfg.Tasks = append(cfg.Tasks, spec)
	}
	if total > lim.MaxTasks {
		return cfg, errAt("tasks", "%d tasks; the limit is %d", total, lim.MaxTasks)
	}
	if err := rs.semaphores(full.Semaphores); err != nil {
		return cfg, err
	}
	cfg.Resources = rs.list
	for i, from := range rs.niceFrom {
		if from != "" && rs.sessionNice[i] != 0 && !sc.autogroup() {
			return cfg, errAt(from, "%d: an autogroup nice needs kernel.autogroup=on (sched_autogroup_enabled)", rs.sessionNice[i])
		}
	}
	cfg.AutogroupNice = rs.sessionNice
	cfg.PI = sc.PI
	tick := sched.Second / Duration(prof.HZ)
	if sc.Kernel.TickOffset != nil {
		if *sc.Kernel.TickOffset >= tick {
			return cfg, errAt("kernel.tick_offset", "%s: want less than one tick (%s at HZ=%d)", FormatDuration(*sc.Kernel.TickOffset), FormatDuration(tick), prof.HZ)
		}
		cfg.TickOffset = *sc.Kernel.TickOffset
	} else {
		cfg.TickOffset = TickOffsetFromSeed(sc.Seed, tick)
	}
	if err := sc.applyGroupConfig(&cfg, prof, tree); err != nil { // cgroup_kernel.go
		return cfg, err
	}
	cfg.Machine, cfg.Profile, cfg.Sysctls = m, prof, sys
	cfg.Duration, cfg.Seed, cfg.Limits = sc.Duration, sc.Seed, lim
	return cfg, nil
}

func buildTask(p string, t Task, groups map[string]int, sc *Scenario, ncpu int, rs *resTable) (sched.TaskSpec, error) {
	spec := sched.TaskSpec{Name: t.Name, Instances: t.Instances, Nice: t.Nice, Start: t.Start,
		Parent: -1, Slack: DefaultSlack, Slice: t.Slice, Loop: t.Loop, PID: t.PID, Comm: t.Comm}
	if t.Instances < 1 || t.Instances > 10000 {
		return spec, errAt(p+".instances", "%d: want 1..10000", t.Instances)
	}
	if t.PID != 0 && (t.PID < 1 || t.PID > sched.MaxPID) {
		return spec, errAt(p+".pid", "%d: want 1..%d", t.PID, sched.MaxPID)
	}
	if t.PID != 0 && (t.Instances != 1 || t.PerCPU || t.InstancesPerCPU > 0 || t.SpreadNodes) {
		return spec, errAt(p+".pid", "a fixed pid needs a group of one instance")
	}
	if t.Comm != "" && !commOK(t.Comm) {
		return spec, errAt(p+".comm", "%q: want 1-15 printable bytes (TASK_COMM_LEN)", t.Comm)
	}
	if t.InstancesPerCPU > 0 {
		if t.Instances != 1 || t.PerCPU {
			return spec, errAt(p+".instances_per_cpu", "give one of instances, per_cpu and instances_per_cpu")
		}
		spec.Instances = max(1, int(t.InstancesPerCPU*float64(ncpu)+0.5))
	}
	if t.PerCPU {
		switch {
		case t.Instances != 1:
			return spec, errAt(p+".per_cpu", "per_cpu makes one instance per CPU; drop instances (%d)", t.Instances)
		case t.CPUs != nil:
			return spec, errAt(p+".per_cpu", "per_cpu pins instance i to CPU i; drop cpus")
		case t.Parent != "":
			return spec, errAt(p+".per_cpu", "a forked task group (parent %q) cannot be per_cpu", t.Parent)
		}
		spec.Instances, spec.PinEach = ncpu, true
	}
	pol := t.Policy
	if pol == "" {
		pol = "SCHED_OTHER"
	}
	var err error
	if spec.Policy, err = sched.ParsePolicy(pol); err != nil {
		return spec, errAt(p+".policy", "%v", err)
	}
	if t.Nice < -20 || t.Nice > 19 {
		return spec, errAt(p+".nice", "%d: want -20..19", t.Nice)
	}
	if err := buildDL(p, t, &spec, ncpu); err != nil {
		return spec, err
	}
	if spec.Policy.IsRT() {
		if t.Priority < 1 || t.Priority > 99 {
			return spec, errAt(p+".priority", "%d: %s needs an RT priority 1..99", t.Priority, pol)
		}
		if t.Nice != 0 {
			return spec, errAt(p+".nice", "%d: nice applies to the fair policies; %s tasks have a priority", t.Nice, pol)
		}
		spec.RTPriority = t.Priority
	} else if t.Priority != 0 {
		return spec, errAt(p+".priority", "%d: only SCHED_FIFO and SCHED_RR have an RT priority; use nice for %s", t.Priority, pol)
	} else if spec.Policy.IsDeadline() && t.Nice != 0 {
		return spec, errAt(p+".nice", "%d: SCHED_DEADLINE tasks have dl_runtime/dl_deadline/dl_period, no nice", t.Nice)
	}
	if t.CPUs != nil {
		if len(t.CPUs) == 0 {
			return spec, errAt(p+".cpus", "empty: want at least one CPU (or leave it out for all)")
		}
		for j, c := range t.CPUs {
			if c < 0 || c >= ncpu {
				return spec, errAt(fmt.Sprintf("%s.cpus[%d]", p, j), "CPU %d does not exist on %s (CPUs 0-%d)", c, sc.Topology, ncpu-1)
			}
		}
		spec.CPUs = append([]int(nil), t.CPUs...)
	}
	if t.Start > sc.Duration {
		return spec, errAt(p+".start", "%s is after the end of the run (%s)", t.Start, sc.Duration)
	}
	if t.Parent != "" {
		gi, ok := groups[t.Parent]
		if !ok {
			return spec, errAt(p+".parent", "no task group named %q", t.Parent)
		}
		if t.Parent == t.Name {
			return spec, errAt(p+".parent", "a task group cannot be its own parent")
		}
		spec.Parent = gi
		if t.Start != 0 {
			return spec, errAt(p+".start", "a forked task group has no start time")
		}
	}
	if t.TimerSlack != nil {
		if *t.TimerSlack > sched.Second {
			return spec, errAt(p+".timer_slack", "%s: want at most 1s", *t.TimerSlack)
		}
		spec.Slack = *t.TimerSlack
	}
	if t.CPUClockPoll != 0 && (t.CPUClockPoll < sched.MinClockPoll || t.CPUClockPoll > sched.MaxClockPoll) {
		return spec, errAt(p+".cpu_clock_poll", "%s: want %s..%s (absent: the task never reads its CPU clock)", t.CPUClockPoll, sched.MinClockPoll, sched.MaxClockPoll)
	}
	spec.ClockPoll = t.CPUClockPoll
	if t.Slice != 0 && (t.Slice < 100*sched.Microsecond || t.Slice > 100*sched.Millisecond) {
		return spec, errAt(p+".slice", "%s: want 100us..100ms (sched_setattr's range)", t.Slice)
	}
	if t.Loop == 0 || t.Loop < -1 {
		return spec, errAt(p+".loop", "%d: want -1 (forever) or a positive count", t.Loop)
	}
	if err := checkLockBalance(p+".program", t.Program); err != nil {
		return spec, err
	}
	timers := map[string]int{}
	rs.seen = rs.seen[:0]
	ops, err := buildOps(p+".program", t.Program, groups, timers, t.Name, sc, rs)
	if err != nil {
		return spec, err
	}
	for _, ri := range rs.seen {
		if rs.barrier[ri] {
			// rt-app counts every thread whose events use the barrier.
			rs.list[ri].Barrier += spec.Instances
		}
	}
	if err := rs.placeTask(p, t, &spec); err != nil { // cgroup_tasks.go
		return spec, err
	}
	spec.Program, spec.Timers = ops, len(timers)
	if _, err := sched.BuildProgram(ops, t.Loop, len(timers)); err != nil {
		return spec, errAt(p+".program", "%v", err)
	}
	return spec, nil
}

// resTable collects the scenario-wide wait resources in order of first use.
type resTable struct {
	index   map[string]int
	list    []sched.Resource
	barrier []bool         // used by barrier steps
	mutex   []bool         // used by lock/unlock steps
	mutexes map[string]int // mutex names: a namespace of their own, as rt-app's typed resources
	seen    []int          // resources the current task group uses
	ncpu    int            // the machine's CPUs (ipi targets)
	cgroups *cgroupTree    // the resolved cgroups (taskgroup keys and steps)
	// sessions numbers the autogroup session names in order of first use
	// (from 1; "" is session 0).
	sessions map[string]int
	// sessionNice is the autogroup nice of each session number and the
	// path that set it ("" = not set).
	sessionNice []int
	niceFrom    []string
}

// use returns the index of resource name, used as a barrier or an event.
func (rs *resTable) use(path, name string, barrier bool) (int, error) {
	if !resNameOK(name) {
		return 0, errAt(path, "%q: want a resource name of 1-64 printable characters", name)
	}
	i, ok := rs.index[name]
	if !ok {
		i = len(rs.list)
		rs.index[name] = i
		rs.list = append(rs.list, sched.Resource{Name: name})
		rs.barrier = append(rs.barrier, barrier)
		rs.mutex = append(rs.mutex, false)
	}
	if rs.barrier[i] != barrier {
		return 0, errAt(path, "resource %q is used both as a barrier and with wait/signal/broadcast", name)
	}
	for _, j := range rs.seen {
		if j == i {
			return i, nil
		}
	}
	rs.seen = append(rs.seen, i)
	return i, nil
}

// resNameOK: resource names are free text (rt-app's are), but short and
// printable.
func resNameOK(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

func buildOps(p string, steps []Step, groups map[string]int, timers map[string]int, self string, sc *Scenario, rs *resTable) ([]sched.Op, error) {
	if len(steps) == 0 {
		return nil, errAt(p, "empty program: want at least one event")
	}
	var ops []sched.Op
	for i, st := range steps {
		sp := fmt.Sprintf("%s[%d]", p, i)
		switch st.Kind {
		case "run":
			ops = append(ops, sched.Op{Kind: sched.OpRun, Dur: st.Run})
		case "sys":
			ops = append(ops, sched.Op{Kind: sched.OpSys, Dur: st.Sys})
		case "ipi":
			if st.IPI.CPU < 0 || st.IPI.CPU >= rs.ncpu {
				return nil, errAt(sp+".ipi.cpu", "%d: want a CPU of the machine (0..%d)", st.IPI.CPU, rs.ncpu-1)
			}
			if !st.IPI.Wait {
				return nil, errAt(sp+".ipi.wait", "only wait true (smp_call_function_single(..., wait=1)) is modelled")
			}
			ops = append(ops, sched.Op{Kind: sched.OpIPI, CPU: sched.CPUID(st.IPI.CPU)})
		case "sleep":
			ops = append(ops, sched.Op{Kind: sched.OpSleep, Dur: st.Sleep})
		case "affinity":
			if pol, _ := sched.ParsePolicy(sc.Tasks[groups[self]].Policy); pol == sched.SchedDeadline {
				return nil, errAt(sp+".affinity", "a SCHED_DEADLINE task cannot change its affinity (sched_setaffinity() fails with EBUSY unless the mask spans the root domain)")
			}
			for k, c := range st.Affinity {
				if c < 0 || c >= rs.ncpu {
					return nil, errAt(fmt.Sprintf("%s.affinity[%d]", sp, k), "%d: want a CPU of the machine (0..%d)", c, rs.ncpu-1)
				}
			}
			ops = append(ops, sched.Op{Kind: sched.OpAffinity, CPUs: st.Affinity})
		case "timer":
			if st.Timer.Period <= 0 {
				return nil, errAt(sp+".timer.period", "want a positive period")
			}
			mode := sched.TimerAbsolute
			switch st.Timer.Mode {
			case "absolute", "":
			case "relative":
				mode = sched.TimerRelative
			default:
				return nil, errAt(sp+".timer.mode", "%q: want absolute or relative", st.Timer.Mode)
			}
			idx, ok := timers[st.Timer.Ref]
			if !ok {
				idx = len(timers)
				timers[st.Timer.Ref] = idx
			}
			ops = append(ops, sched.Op{Kind: sched.OpTimer, Dur: st.Timer.Period, Mode: mode, Timer: idx})
		case "yield":
			ops = append(ops, sched.Op{Kind: sched.OpYield})
		case "exit":
			ops = append(ops, sched.Op{Kind: sched.OpExit})
		case "exec":
			ops = append(ops, sched.Op{Kind: sched.OpExec})
		case "fork":
			gi, ok := groups[st.Fork]
			if !ok {
				return nil, errAt(sp+".fork", "no task group named %q", st.Fork)
			}
			if sc.Tasks[gi].Parent != self {
				return nil, errAt(sp+".fork", "task group %q must name %q as its parent", st.Fork, self)
			}
			ops = append(ops, sched.Op{Kind: sched.OpFork, Target: gi})
		case "loop":
			if st.Loop.Count == 0 || st.Loop.Count < -1 {
				return nil, errAt(sp+".loop.count", "%d: want -1 (forever) or a positive count", st.Loop.Count)
			}
			body, err := buildOps(sp+".loop.program", st.Loop.Program, groups, timers, self, sc, rs)
			if err != nil {
				return nil, err
			}
			begin := len(ops)
			ops = append(ops, sched.Op{Kind: sched.OpLoopBegin, Count: st.Loop.Count})
			for _, op := range body {
				if op.Kind == sched.OpLoopBegin || op.Kind == sched.OpLoopEnd {
					op.Match += begin + 1
				}
				ops = append(ops, op)
			}
			ops[begin].Match = len(ops)
			ops = append(ops, sched.Op{Kind: sched.OpLoopEnd, Match: begin})
		case "wait", "signal", "broadcast", "barrier":
			idx, err := rs.use(sp+"."+st.Kind, st.Res, st.Kind == "barrier")
			if err != nil {
				return nil, err
			}
			if st.Sync && st.Kind != "signal" && st.Kind != "broadcast" {
				return nil, errAt(sp+".sync", "only a signal or broadcast can be a sync wakeup")
			}
			if st.Cond && st.Kind != "signal" {
				return nil, errAt(sp+".cond", "only a signal can be lost (cond)")
			}
			kinds := map[string]sched.OpKind{"wait": sched.OpWait, "signal": sched.OpSignal, "broadcast": sched.OpBroadcast, "barrier": sched.OpBarrier}
			op := sched.Op{Kind: kinds[st.Kind], Res: idx, Sync: st.Sync, Cond: st.Cond}
			if st.Mutex != "" {
				if st.Kind != "wait" {
					return nil, errAt(sp+".mutex", "only a wait releases a mutex")
				}
				m, err := rs.useMutex(sp+".mutex", st.Mutex)
				if err != nil {
					return nil, err
				}
				op.Mutex = m + 1
			}
			ops = append(ops, op)
		case "taskgroup":
			op, err := rs.cgroupMove(sp+".taskgroup", st.Group, sc.Tasks[groups[self]])
			if err != nil {
				return nil, err
			}
			ops = append(ops, op)
		case "setattr", "nice":
			op, err := setattrOp(sp, st, groups) // setattr.go
			if err != nil {
				return nil, err
			}
			ops = append(ops, op)
		case "lock", "unlock":
			m, err := rs.useMutex(sp+"."+st.Kind, st.Res)
			if err != nil {
				return nil, err
			}
			kind := sched.OpLock
			if st.Kind == "unlock" {
				kind = sched.OpUnlock
			}
			ops = append(ops, sched.Op{Kind: kind, Res: m})
		default:
			return nil, errAt(sp, "unknown event kind %q", st.Kind)
		}
	}
	return ops, nil
}

// TickOffsetFromSeed draws the jiffies-grid offset of a run from its seed
// (its own PCG stream, so it does not disturb the run's generator).
func TickOffsetFromSeed(seed uint64, tick Duration) Duration {
	r := rand.New(rand.NewPCG(seed, 0x7469636b)) // "tick"
	return Duration(r.Int64N(int64(tick)))
}

func sortedBoolKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sortedIntKeys(m map[string]int64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sortedStringKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
