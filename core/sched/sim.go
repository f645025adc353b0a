package sched

// The simulator: configuration, construction and the run loop.

import (
	"fmt"
	"math/rand/v2"

	"schedplay/core/quote"
	"schedplay/core/topology"
)

// TaskSpec describes one task group of a scenario.
type TaskSpec struct {
	Name      string
	Instances int
	Policy    Policy
	Nice      int
	// RTPriority is rt_priority (sched_param.sched_priority): 1..99 for
	// SCHED_FIFO and SCHED_RR, 0 for the fair policies.
	RTPriority int
	CPUs       []int // affinity; nil = all CPUs
	Start      Time  // creation time (ignored when Parent >= 0)
	Parent     int   // index of the group whose fork step creates this one; -1 = none
	Slack      Time  // timer_slack_ns
	Slice      Time  // custom slice (sched_setattr sched_runtime); 0 = base slice
	// DL holds the sched_attr runtime, deadline and period of a
	// SCHED_DEADLINE group (dl.go); zero for the other policies.
	DL      DLParams
	Program []Op // the body, run Loop times
	Loop    int  // -1 = forever
	Timers  int  // number of timer resources the program uses
	// PinEach pins instance i to CPU i (Instances == the CPU count);
	// CPUs is then ignored.
	PinEach bool
	// InstanceCPUs, when set, gives each instance its own affinity
	// (len == Instances; scenario key "nodes": "spread"); CPUs is then
	// ignored.
	InstanceCPUs [][]int
	// Cgroup is the task group the instances start in: k is
	// Config.Cgroups[k-1], 0 the root (cgroup_spec.go).
	Cgroup int
	// Session is the instances' session (setsid()) for autogroup: tasks
	// of the root cgroup in one session share an autogroup. 0 is the
	// session the scenario's tasks share unless they name another.
	Session int
	// PID is the pid of the group's first instance (a replayed trace's
	// task keeps its pid); 0 = the next free pid from 1000. Later
	// instances of a forked group get free pids.
	PID int
	// Comm is the instances' name (a replayed trace's comm); "" =
	// "<Name>-<index>", rt-app's thread names.
	Comm string
	// ClockPoll: the instances read their own CPU clock
	// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)) at the start of each run
	// step and after every ClockPoll of CPU time in it; 0 = never
	// (clock_poll.go).
	ClockPoll Time
}

// MaxPID is PID_MAX_LIMIT, the largest pid a TaskSpec may fix.
const MaxPID = 4194304

// Limits bound a run so that no input can hang its caller.
type Limits struct {
	MaxCPUs     int
	MaxTasks    int   // tasks alive or dead over the run, forks included
	MaxDuration Time  // longest simulated time
	MaxEvents   int64 // engine events processed
}

// DefaultLimits are the limits the CLI and the browser use.
func DefaultLimits() Limits {
	return Limits{MaxCPUs: 1024, MaxTasks: 20000, MaxDuration: 3600 * Second, MaxEvents: 200_000_000}
}

// Config is everything a run depends on.
type Config struct {
	Machine  topology.Machine
	Profile  Profile // with HZ, Preempt and Features already overridden
	Sysctls  Sysctls
	Tasks    []TaskSpec
	Duration Time
	Seed     uint64
	Limits   Limits
	// TickOffset places the jiffies grid: ticks happen at TickOffset +
	// k/HZ. 0 <= TickOffset < 1/HZ. (The scenario layer draws it from the
	// seed unless the scenario fixes it.)
	TickOffset Time
	// HW is the machine model (hw.go): idle states and costs. The zero
	// value is an ideal machine without costs.
	HW HW
	// Resources are the scenario-wide wait resources (events and
	// barriers) that program steps name by index (ipc.go).
	Resources []Resource
	// PI gives the mutexes of lock/unlock steps priority inheritance
	// (PTHREAD_PRIO_INHERIT, rt-app's pi_enabled); without it they are
	// plain futex mutexes (locks.go, pi.go).
	PI bool
	// Cgroups are the task groups of the cpu controller (cgroup_spec.go).
	Cgroups []CgroupSpec
	// Autogroup is sched_autogroup_enabled: tasks of the root cgroup are
	// grouped by TaskSpec.Session (autogroup.go).
	Autogroup bool
	// AutogroupNice is the autogroup nice of each session
	// (/proc/<pid>/autogroup, sched_autogroup_set_nice()), indexed by
	// TaskSpec.Session: -20..19; a session past its end has nice 0.
	AutogroupNice []int
	// RTGroupSched is CONFIG_RT_GROUP_SCHED.
	RTGroupSched bool
}

// Sim is one simulation run.
type Sim struct {
	cfg     Config
	arith   arith
	version int
	rules   kernelRules // what differs by kernel version (rules.go)
	// pollEveryRead makes every CPU-clock read an event (the reference
	// model clock_poll_test.go checks the targeted reads against);
	// pollNoAlone keeps a lapsed vprot's reads as events when curr is
	// alone on its cfs_rq (the reference for clock_poll.go's alone case).
	pollEveryRead bool
	pollNoAlone   bool
	eevdf         bool
	feat          FeatureSet
	sys           Sysctls
	preempt       PreemptModel
	tickNs        Time
	// tickOffset is Config.TickOffset.
	tickOffset Time
	// normBaseSlice is normalized_sysctl_sched_base_slice (v6.18 vprot).
	normBaseSlice int64
	rqs           []rq
	topo          []rqTopology // per-CPU sched domain pointers (domain_build.go)
	tasks         []*Task
	progs         []*program
	q             eventQueue
	now           Time
	end           Time
	localCPU      CPUID
	dueScratch    []armedTimer
	res           []resState // Config.Resources at run time (ipc.go)
	// Load-balancing and placement scratch (balance.go, select.go):
	// preallocated so the hot loop does not allocate.
	lbEnv                     lbEnv
	lbLocal, lbBusiest, lbTmp sgStats
	lruScratch                []*Task
	scanMask                  cpuMask
	idleHint                  cpuMask   // candidates for find_new_ilb() (idle_hint.go)
	schedIdleSeen             bool      // some task has had SCHED_IDLE (sched_idle_hint.go)
	l2Contention              bool      // some CPU has L2 cluster mates and hw.l2_contention_pct > 0 (contention.go)
	smtActive                 bool      // sched_smt_active()
	asymCapActive             bool      // sched_asym_cpucap_active() (misfit.go)
	contention                bool      // contention.go: any slowdown configured
	l2Mates                   [][]CPUID // contention.go: CPUs of other cores in the same L2 cluster
	maxCPUCapacity            int64     // rd->max_cpu_capacity (misfit.go)
	nohzNextBalance           int64     // nohz.next_balance, jiffies
	nohzNextBlocked           int64     // nohz.next_blocked, jiffies (nohz_stats.go)
	lbCost                    int64     // load-balancing time being accumulated (lbcost.go)
	nlb                       nlbAbort  // the RT task of the newidle walk under way (irqoff.go)
	sgOverload                bool      // SG_OVERLOAD of the current stats pass
	lruSeq                    uint64
	rtMask                    cpuMask      // find_lowest_rq()'s lowest_mask (rt_balance.go)
	rtPeriodActive            bool         // def_rt_bandwidth.rt_period_active
	rtPeriodGen               uint32       // cancels a pending qRTPeriod
	dl                        dlGlobal     // root-domain deadline state (dl_cbs.go, dl_balance.go)
	tgs                       []*taskGroup // task groups by cgroup number (nil: none, a flat run; cgroup.go)
	bwUsed                    bool         // cfs_bandwidth_used(): some group has a quota
	autogroups                []autogroup  // one per session of the root cgroup's tasks (autogroup.go)
	cpusetEff                 []cpuMask    // effective CPUs per cgroup (nil: no cpuset; cpuset.go)
	sdDoms                    []cpuMask    // the sched domain span of each CPU's partition (nil entry: isolated)
	sinks                     []Sink
	scratch                   Event
	rng                       *rand.Rand
	nextName                  int // rt-app style global thread index
	nextPID                   int
	fixedPIDs                 map[int]bool // TaskSpec.PID of every group (nil: none)
	fixedPIDUsed              []bool       // per group: its TaskSpec.PID went to an instance
	events                    int64        // queue entries popped (EventsPopped)
	cancelled, deferred       int64        // of which stale, and re-queued by deferIRQ
	evPrio                    uint8        // the priority of the event being handled (clock_poll.go)
	started                   bool
	hw                        HW
	idleStates                []idleStateInfo // hw.IdleStates, or the one state of an ideal machine
	done                      bool
	err                       error

	// Root domains (root_domain.go): rd0 when no cpuset partition splits
	// the CPUs, else cpuRd[cpu] is cpu_rq(cpu)->rd.
	rd0   rootDomain
	cpuRd []*rootDomain
}

// New validates cfg and builds a run ready to start at time 0.
func New(cfg Config) (*Sim, error) { return NewCached(cfg, nil) }

// NewCached is New with the sched domain tree taken from dc when a run
// before it had the same machine and kernel rules, or built and kept there
// (domain_cache.go); the run is the same as New's. A nil dc builds.
func NewCached(cfg Config, dc *DomainCache) (*Sim, error) {
	lim := cfg.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits()
		cfg.Limits = lim
	}
	if err := cfg.Machine.Validate(); err != nil {
		return nil, err
	}
	n := cfg.Machine.NumCPUs()
	if n > lim.MaxCPUs {
		return nil, quote.Errorf("topology %q has %d CPUs; the limit is %d", cfg.Machine.Name, n, lim.MaxCPUs)
	}
	if cfg.Duration <= 0 || cfg.Duration > lim.MaxDuration {
		return nil, fmt.Errorf("duration %s out of range (0, %s]", cfg.Duration, lim.MaxDuration)
	}
	if cfg.Profile.Preempt == PreemptLazy && !rulesFor(cfg.Profile.version).lazyPreempt {
		return nil, fmt.Errorf("kernel.preempt lazy: the lazy preemption model arrived in v6.13; kernel %s has none, voluntary and full", cfg.Profile.Name)
	}
	if !ValidHZ(cfg.Profile.HZ) {
		return nil, fmt.Errorf("kernel.hz %d: want 100, 250, 300 or 1000", cfg.Profile.HZ)
	}
	s := &Sim{
		cfg:           cfg,
		arith:         cfg.Profile.arith,
		version:       cfg.Profile.version,
		rules:         rulesFor(cfg.Profile.version),
		eevdf:         cfg.Profile.Class == ClassEEVDF,
		feat:          cfg.Profile.Features,
		sys:           cfg.Sysctls,
		preempt:       cfg.Profile.Preempt,
		tickNs:        Second / Time(cfg.Profile.HZ),
		tickOffset:    cfg.TickOffset,
		normBaseSlice: cfg.Profile.baseSlice,
		end:           cfg.Duration,
		localCPU:      -1,
		rng:           rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		nextPID:       1000,
	}
	if s.tickOffset < 0 || s.tickOffset >= s.tickNs {
		return nil, fmt.Errorf("tick offset %s outside [0, %s)", s.tickOffset, s.tickNs)
	}
	if s.eevdf && s.sys.BaseSliceNs <= 0 {
		return nil, fmt.Errorf("sysctl sched_base_slice_ns must be positive")
	}
	if !s.eevdf && (s.sys.MinGranularityNs <= 0 || s.sys.LatencyNs <= 0) {
		return nil, fmt.Errorf("sysctls sched_latency_ns and sched_min_granularity_ns must be positive")
	}
	s.rqs = make([]rq, n)
	for i := range s.rqs {
		s.rqs[i] = rq{cpu: CPUID(i), capacity: int64(cfg.Machine.CPUs[i].Capacity), reschedBy: NoTask}
		s.rqs[i].cfs.byDeadline = s.eevdf && s.rules.deadlineTree // v6.6 keeps the tree in vruntime order
	}
	if err := s.initIdle(); err != nil {
		return nil, err
	}
	if err := s.initCpusets(); err != nil { // cpuset.go
		return nil, err
	}
	s.initRootDomains() // root_domain.go
	s.schedDomains(dc)  // domain_cache.go, domain_build.go
	s.lbEnv.cpus = newCPUMask(n)
	s.scanMask = newCPUMask(n)
	s.idleHint = newCPUMask(n)
	for i := range s.rqs {
		s.noteMayIdle(&s.rqs[i])
	}
	s.rtMask = newCPUMask(n)
	s.lruScratch = make([]*Task, 0, 64)
	for i := range s.rqs {
		s.rqs[i].avgIdle = 2 * s.sys.MigrationCostNs // sched_init(): 2 * migration cost
		s.rqs[i].maxIdleBalanceCost = s.sys.MigrationCostNs
		s.rqs[i].nextBalance = 0
		if len(s.topo[i].smt) > 1 {
			s.smtActive = true
		}
	}
	s.initAsymCapacity()
	s.initContention()
	if err := s.initCgroups(); err != nil { // cgroup.go
		return nil, err
	}
	total := 0
	s.fixedPIDUsed = make([]bool, len(cfg.Tasks))
	for gi, spec := range cfg.Tasks {
		if err := s.checkSpec(gi, spec); err != nil {
			return nil, err
		}
		if spec.PID != 0 {
			if spec.PID < 0 || spec.PID > MaxPID || spec.Instances != 1 || spec.PinEach {
				return nil, fmt.Errorf("tasks[%d] (%s): pid %d: want 1..%d and one instance", gi, quote.Clip(spec.Name), spec.PID, MaxPID)
			}
			if s.fixedPIDs == nil {
				s.fixedPIDs = map[int]bool{}
			}
			if s.fixedPIDs[spec.PID] {
				return nil, fmt.Errorf("tasks[%d] (%s): pid %d is another group's", gi, quote.Clip(spec.Name), spec.PID)
			}
			s.fixedPIDs[spec.PID] = true
		}
		p, err := BuildProgram(spec.Program, spec.Loop, spec.Timers)
		if err != nil {
			return nil, fmt.Errorf("tasks[%d] (%s): %v", gi, quote.Clip(spec.Name), err)
		}
		if err := s.buildMasks(p, spec); err != nil { // affinity.go
			return nil, fmt.Errorf("tasks[%d] (%s): %v", gi, quote.Clip(spec.Name), err)
		}
		s.progs = append(s.progs, p)
		if spec.Parent < 0 {
			total += spec.Instances
		}
	}
	if total > lim.MaxTasks {
		return nil, fmt.Errorf("scenario creates %d tasks; the limit is %d", total, lim.MaxTasks)
	}
	if err := s.initResources(); err != nil {
		return nil, err
	}
	if err := s.checkIPITargets(); err != nil { // csd.go
		return nil, err
	}
	if err := s.initDL(); err != nil {
		return nil, err
	}
	s.q.push(qevent{at: s.end, kind: qEnd, prio: prioTick})
	for gi, spec := range cfg.Tasks {
		if spec.Parent >= 0 {
			continue
		}
		for k := range spec.Instances {
			t := s.newTask(gi)
			if spec.PinEach {
				t.affinity = newCPUMask(n)
				t.affinity.set(k % n)
			} else if k < len(spec.InstanceCPUs) {
				t.affinity = newCPUMask(n)
				for _, c := range spec.InstanceCPUs[k] {
					t.affinity.set(c)
				}
			}
			if !s.restrictToCpuset(t, spec.Cgroup) { // cpuset.go
				return nil, fmt.Errorf("tasks[%d] (%s): its CPUs and the effective cpuset of cgroup %s share no CPU", gi, quote.Clip(spec.Name), quote.Clip(s.cfg.Cgroups[spec.Cgroup-1].Path))
			}
			if err := s.checkDLSpan(gi, t); err != nil { // root_domain.go
				return nil, err
			}
			s.q.push(qevent{at: spec.Start, kind: qStart, task: t.id, prio: prioTimer})
		}
	}
	return s, nil
}

func (s *Sim) checkSpec(gi int, spec TaskSpec) error {
	n := s.cfg.Machine.NumCPUs()
	where := fmt.Sprintf("tasks[%d] (%s)", gi, quote.Clip(spec.Name))
	if spec.Instances < 1 {
		return fmt.Errorf("%s: instances %d, want >= 1", where, spec.Instances)
	}
	if spec.Nice < -20 || spec.Nice > 19 {
		return fmt.Errorf("%s: nice %d, want -20..19", where, spec.Nice)
	}
	if err := s.checkDLSpec(where, spec); err != nil {
		return err
	}
	if spec.Policy.IsRT() {
		if spec.RTPriority < 1 || spec.RTPriority > MaxRTPrio-1 {
			return fmt.Errorf("%s: %s priority %d, want 1..99", where, spec.Policy, spec.RTPriority)
		}
	} else if spec.RTPriority != 0 {
		return fmt.Errorf("%s: priority %d given for %s; only SCHED_FIFO and SCHED_RR have an RT priority", where, spec.RTPriority, spec.Policy)
	}
	if spec.Start < 0 || spec.Start > s.end {
		return fmt.Errorf("%s: start %s outside the run", where, spec.Start)
	}
	if spec.Parent >= len(s.cfg.Tasks) {
		return fmt.Errorf("%s: parent index %d out of range", where, spec.Parent)
	}
	if spec.Slice != 0 && (spec.Slice < 100*Microsecond || spec.Slice > 100*Millisecond) {
		return fmt.Errorf("%s: slice %s outside 100us..100ms", where, spec.Slice)
	}
	if spec.ClockPoll != 0 && (spec.ClockPoll < MinClockPoll || spec.ClockPoll > MaxClockPoll) {
		return fmt.Errorf("%s: clock poll interval %s outside %s..%s", where, spec.ClockPoll, MinClockPoll, MaxClockPoll)
	}
	for _, c := range spec.CPUs {
		if c < 0 || c >= n {
			return fmt.Errorf("%s: cpu %d does not exist on %s (%d CPUs)", where, c, quote.Clip(s.cfg.Machine.Name), n)
		}
	}
	if spec.Cgroup < 0 || spec.Cgroup > len(s.cfg.Cgroups) {
		return fmt.Errorf("%s: cgroup %d, want 0 (root) .. %d", where, spec.Cgroup, len(s.cfg.Cgroups))
	}
	if s.cfg.RTGroupSched && spec.Policy.IsRT() && spec.Cgroup != 0 && s.cfg.Cgroups[spec.Cgroup-1].RTRuntime == 0 {
		// sched_rt_can_attach(): a group without RT runtime takes no RT task.
		return fmt.Errorf("%s: %s task in cgroup %s, whose cpu.rt_runtime_us is 0 (RT group scheduling gives new groups no RT runtime)", where, spec.Policy, quote.Clip(s.cfg.Cgroups[spec.Cgroup-1].Path))
	}
	for i, op := range spec.Program {
		if op.Kind == OpCgroup && (op.Target < 0 || op.Target > len(s.cfg.Cgroups)) {
			return fmt.Errorf("%s: step %d moves to cgroup %d, want 0 (root) .. %d", where, i, op.Target, len(s.cfg.Cgroups))
		}
		if (op.Kind == OpSetattr || op.Kind == OpNice) && op.Attr != nil && (op.Attr.Group < -1 || op.Attr.Group >= len(s.cfg.Tasks)) {
			return fmt.Errorf("%s: step %d changes task group %d, want -1 (itself) .. %d", where, i, op.Attr.Group, len(s.cfg.Tasks)-1)
		}
	}
	if spec.CPUs != nil && len(spec.CPUs) == 0 {
		return fmt.Errorf("%s: empty cpus list", where)
	}
	if spec.InstanceCPUs != nil && (len(spec.InstanceCPUs) != spec.Instances || spec.Parent >= 0 || spec.PinEach) {
		return fmt.Errorf("%s: per-instance affinity needs one CPU list per instance of a group created at the start", where)
	}
	for _, l := range spec.InstanceCPUs {
		if len(l) == 0 {
			return fmt.Errorf("%s: an instance has an empty CPU list", where)
		}
		for _, c := range l {
			if c < 0 || c >= n {
				return fmt.Errorf("%s: cpu %d does not exist on %s (%d CPUs)", where, c, quote.Clip(s.cfg.Machine.Name), n)
			}
		}
	}
	return nil
}

// newTask creates an instance of group gi, not yet started.
func (s *Sim) newTask(gi int) *Task {
	spec := &s.cfg.Tasks[gi]
	n := s.cfg.Machine.NumCPUs()
	var pid int
	if spec.PID > 0 && !s.fixedPIDUsed[gi] {
		pid, s.fixedPIDUsed[gi] = spec.PID, true
	} else {
		for s.fixedPIDs[s.nextPID] {
			s.nextPID++
		}
		pid = s.nextPID
		s.nextPID++
	}
	name := spec.Comm
	if name == "" {
		name = fmt.Sprintf("%s-%d", spec.Name, s.nextName)
	}
	t := &Task{
		id:            TaskID(len(s.tasks)),
		pid:           pid,
		name:          name,
		group:         gi,
		policy:        spec.Policy,
		nice:          spec.Nice,
		rtPrio:        spec.RTPriority,
		dl:            dlEntity{params: spec.DL},
		slack:         spec.Slack,
		clockPoll:     spec.ClockPoll,
		cpu:           -1,
		prog:          s.progs[gi],
		lastWakee:     NoTask,
		recentUsedCPU: -1,
	}
	s.nextName++
	t.affinity = newCPUMask(n)
	if spec.CPUs == nil {
		for c := 0; c < n; c++ {
			t.affinity.set(c)
		}
	} else {
		for _, c := range spec.CPUs {
			t.affinity.set(c)
		}
	}
	t.effPrio = t.normalPrio()
	s.noteSchedIdlePolicy(t.policy)
	if s.tgs != nil {
		t.tg = s.tgs[spec.Cgroup]
		if t.tg == nil {
			t.tg = s.autogroupOf(spec.Session) // autogroup.go (nil when off)
		}
		t.depth = s.tgDepth(t.tg)
	}
	t.lk.blockedOn = -1
	t.rt.timeSlice = s.rrTimeslice() // __sched_fork(): p->rt.time_slice = sched_rr_timeslice
	t.iters = make([]int32, len(t.prog.ops))
	t.timers = make([]timerState, t.prog.timers)
	t.se.load = s.arith.taskWeight(t.policy, t.nice)
	if spec.Slice > 0 {
		t.se.slice = int64(spec.Slice)
		t.se.customSlice = true
	} else {
		t.se.slice = s.sys.BaseSliceNs
	}
	s.tasks = append(s.tasks, t)
	return t
}

// forkTask creates one instance of group gi as a child of parent.
func (s *Sim) forkTask(parent *Task, gi int) error {
	if gi < 0 || gi >= len(s.cfg.Tasks) || s.cfg.Tasks[gi].Parent != parent.group {
		return fmt.Errorf("task %s: fork of group %d, which does not name it as parent", quote.Clip(parent.name), gi)
	}
	if len(s.tasks) >= s.cfg.Limits.MaxTasks {
		return fmt.Errorf("task %s: fork at %s exceeds the limit of %d tasks", quote.Clip(parent.name), s.now, s.cfg.Limits.MaxTasks)
	}
	child := s.newTask(gi)
	if !s.restrictToCpuset(child, s.cfg.Tasks[gi].Cgroup) {
		return fmt.Errorf("task %s: fork of %s, whose CPUs and cpuset share no CPU", quote.Clip(parent.name), quote.Clip(child.name))
	}
	s.wakeUpNewTask(child, parent)
	return nil
}

// Attach adds a consumer of the event stream. Attach before running.
func (s *Sim) Attach(k Sink) { s.sinks = append(s.sinks, k) }

// emit sends e to the sinks. It is small enough to inline, so a run
// without consumers does not build and pass the event at every call.
func (s *Sim) emit(e Event) {
	if len(s.sinks) != 0 {
		s.deliver(&e)
	}
}

// observed reports whether any sink receives events. The hottest emit
// sites (several per event) test it first: an inlined emit still builds
// its event in memory before its own test.
func (s *Sim) observed() bool { return len(s.sinks) != 0 }

// deliver hands e to every sink. The event is copied into a scratch field
// so that handing a pointer to an interface does not move it to the heap.
func (s *Sim) deliver(e *Event) {
	s.scratch = *e
	s.scratch.Time = s.now
	for _, k := range s.sinks {
		k.Event(&s.scratch)
	}
}

func (s *Sim) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	s.done = true
}

// Err reports why the run stopped early, if it did.
func (s *Sim) Err() error { return s.err }

// Done reports whether the run has finished (or failed).
func (s *Sim) Done() bool { return s.done }

// Now is the current simulated time.
func (s *Sim) Now() Time { return s.now }

// Progress returns simulated time done and the run's total.
func (s *Sim) Progress() (done, total Time) { return s.now, s.end }

// EventsProcessed is the number of engine events handled so far: the
// queue entries popped (EventsPopped) less those found cancelled (a
// timer, run completion or idle step superseded by a newer generation)
// and those deferred to the end of an irqs-off span (popped again later).
func (s *Sim) EventsProcessed() int64 { return s.events - s.cancelled - s.deferred }

// EventsPopped is the number of queue entries popped so far, cancelled and
// deferred ones included: the unit of Limits.MaxEvents, of the metrics
// report's "events" and of the published events/s figures (docs/cli.md,
// docs/engine.md).
func (s *Sim) EventsPopped() int64 { return s.events }

// EventsCancelled is the number of popped queue entries that were stale
// (cancelled by a newer generation) and did nothing.
func (s *Sim) EventsCancelled() int64 { return s.cancelled }

// RunUntil processes every event up to and including time t (capped at the
// end of the run). It can be called repeatedly with growing t; the result
// does not depend on how the run is cut into calls.
func (s *Sim) RunUntil(t Time) {
	for !s.done && s.q.len() > 0 && s.q.peek().at <= t {
		s.step()
	}
	if !s.done && t > s.now {
		s.now = min(t, s.end)
	}
}

// Run runs to the end and returns the run's error, if any.
func (s *Sim) Run() error {
	s.RunUntil(s.end)
	return s.err
}

// Step processes one event. It returns false once the run is done.
func (s *Sim) Step() bool {
	if s.done || s.q.len() == 0 {
		return false
	}
	s.step()
	return !s.done
}

func (s *Sim) step() {
	if !s.started {
		s.started = true
		s.startIdle()
	}
	e := s.q.pop()
	s.now, s.evPrio = e.at, e.prio
	s.events++
	if s.events > s.cfg.Limits.MaxEvents {
		s.fail(fmt.Errorf("event limit of %d reached at %s: shorten the duration or simplify the workload", s.cfg.Limits.MaxEvents, s.now))
		return
	}
	switch e.kind {
	case qEnd:
		s.finish()
	case qStart:
		t := s.tasks[e.task]
		s.localCPU = anyCPU
		s.wakeUpNewTask(t, nil)
		s.kickIfResched(&s.rqs[t.cpu])
	case qWake:
		// A sleeper's hard expiry: the hrtimer interrupt on that CPU.
		if s.deferIRQ(&e) { // irqoff.go
			s.deferred++
			return
		}
		s.localCPU = e.cpu
		s.timerInterrupt(&s.rqs[e.cpu]) // timer_irq.go
	case qIRQExit:
		s.localCPU = e.cpu
		s.irqExit(&s.rqs[e.cpu])
	case qRunDone:
		rq := &s.rqs[e.cpu]
		if e.gen != rq.runGen {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		rq.curr.runLeft = 0
		rq.runGen++
		s.kick(rq)
	case qTick:
		if e.gen != s.rqs[e.cpu].tickGen {
			s.cancelled++
			return
		}
		if s.deferIRQ(&e) {
			s.deferred++
			return
		}
		// The tick's hrtimer runs first (earliest hard expiry), then the
		// sleepers whose soft expiry has passed.
		s.localCPU = e.cpu
		s.tick(&s.rqs[e.cpu])
		s.timerInterrupt(&s.rqs[e.cpu])
	case qActiveBalance:
		s.localCPU = e.cpu
		s.activeBalanceStop(&s.rqs[e.cpu])
	case qRTPeriod:
		if e.gen != s.rtPeriodGen {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.rtPeriodTimer()
	case qFairServer:
		rq := &s.rqs[e.cpu]
		if e.gen != rq.rt.fs.gen {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.fairServerEvent(rq)
	case qResched:
		if s.deferIRQ(&e) {
			s.deferred++
			return
		}
		rq := &s.rqs[e.cpu]
		rq.ipiPending = false
		s.localCPU = e.cpu
		s.ipiArrive(rq)
		s.kickIfResched(rq)
	case qDLTimer:
		t := s.tasks[e.task]
		if e.gen != t.dl.timerGen {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.dlTaskTimer(t)
	case qIdle:
		rq := &s.rqs[e.cpu]
		if e.gen != rq.idle.gen {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.idleStep(rq)
	case qCSDQueue:
		from := CPUID(e.gen) - 1 // the async unthrottle's timer CPU
		if e.task != csdCfsb {
			from = s.tasks[e.task].cpu
		}
		s.localCPU = e.cpu
		s.csdQueue(&s.rqs[e.cpu], e.task, from)
	case qCSDIPI:
		s.localCPU = e.cpu
		s.csdIPI(&s.rqs[e.cpu])
	case qCSDDone:
		if e.task == csdCfsb {
			s.cfsbCSDUnthrottle(&s.rqs[e.cpu]) // cgroup_unthrottle_async.go
			break
		}
		s.csdRelease(s.tasks[e.task])
	case qRTGroupPeriod:
		tg := s.tgs[e.task]
		if e.gen != tg.rt.gen || !tg.rt.active {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.rtGroupPeriodTimer(tg) // rt_group.go
	case qCfsPeriod:
		tg := s.tgs[e.task]
		if e.gen != tg.bw.periodGen || !tg.bw.periodActive {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.periodTimer(tg) // cgroup_bandwidth.go
	case qClockPoll:
		rq := &s.rqs[e.cpu]
		if e.gen != rq.pollGen || rq.curr == nil {
			return
		}
		s.localCPU = e.cpu
		s.clockPoll(rq) // clock_poll.go
	case qCfsSlack:
		tg := s.tgs[e.task]
		if e.gen != tg.bw.slackGen || !tg.bw.slackStarted {
			s.cancelled++
			return
		}
		s.localCPU = e.cpu
		s.slackTimer(tg)
	}
	if s.err != nil {
		s.done = true
	}
	if invariantsEnabled {
		s.checkInvariants()
	}
}

func (s *Sim) kickIfResched(rq *rq) {
	if rq.needResched {
		s.kick(rq)
	}
}

// finish ends the run: running tasks are accounted up to the end.
func (s *Sim) finish() {
	for i := range s.rqs {
		rq := &s.rqs[i]
		if rq.curr != nil {
			s.classUpdateCurr(rq)
		}
	}
	s.emit(Event{Kind: EvEnd, CPU: -1, Prev: NoTask, Next: NoTask})
	s.done = true
}

// NumCPUs is the machine's CPU count.
func (s *Sim) NumCPUs() int { return len(s.rqs) }

// NumTasks is the number of tasks created so far (including unstarted
// scenario tasks).
func (s *Sim) NumTasks() int { return len(s.tasks) }

// TaskInfo describes task id.
func (s *Sim) TaskInfo(id TaskID) TaskInfo {
	t := s.tasks[id]
	ti := TaskInfo{ID: t.id, PID: t.pid, Name: t.name, Group: s.cfg.Tasks[t.group].Name,
		Policy: t.policy, Nice: t.nice, RTPriority: t.rtPrio, Prio: t.normalPrio(), EffectivePrio: t.effPrio}
	if t.policy.IsDeadline() { // a task that left SCHED_DEADLINE (setattr.go) shows none
		ti.DLRuntime, ti.DLDeadline, ti.DLPeriod = t.dl.params.Runtime, t.dl.params.Deadline, t.dl.params.Period
	}
	return ti
}

// Config returns the run's configuration.
func (s *Sim) Config() *Config { return &s.cfg }

// Rand is the run's one random number generator (seeded from Config.Seed).
func (s *Sim) Rand() *rand.Rand { return s.rng }
