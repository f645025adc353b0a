package sched

// A fluent fixture builder for runs (in the style of schedviz's
// sched_test_common.go). build() attaches a recorder (recorder_test.go).
//
//	r := newRun(t).topology("smp-1").kernel("v5.8").hz(250).
//		task("a").cpus(0).run(Forever).
//		task("b").nice(5).cpus(0).run(Forever).
//		build()
//	r.runFor(10 * Second)
//	got := r.rec.runtime(r.id("b"), r.Now())

import (
	"testing"

	"schedplay/core/topology"
)

// runBuilder accumulates a Config. Task methods apply to the task group most
// recently started with task().
type runBuilder struct {
	t         testing.TB
	machine   string
	kernelV   string
	hzVal     int
	preemptM  string
	feats     []featureToggle
	sysctls   []sysctlValue
	dur       Time
	seedVal   uint64
	limits    Limits
	groups    []*groupDraft
	mutexes   []Resource   // Config.Resources: the mutexes of lock/unlock steps
	piOn      bool         // Config.PI
	hwOn      bool         // Config.HW = DefaultHW
	rtGroupOn bool         // Config.RTGroupSched
	cgroups   []CgroupSpec // cgroup_test.go
}

type featureToggle struct {
	f  Feature
	on bool
}

type sysctlValue struct {
	name string
	v    int64
}

// groupDraft is a TaskSpec under construction; fork targets and the parent
// are names, resolved by build().
type groupDraft struct {
	spec     TaskSpec
	parent   string
	forkTo   map[int]string // op index -> group name
	attrTo   map[int]string // op index -> group a setattr or nice step changes
	timerIdx map[string]int
}

// newRun starts a builder with the defaults: smp-1, v6.18 with its default
// HZ, 1 s, seed 1, default limits.
func newRun(t testing.TB) *runBuilder {
	t.Helper()
	return &runBuilder{t: t, machine: "smp-1", kernelV: "v6.18", dur: Second, seedVal: 1,
		limits: DefaultLimits()}
}

func (b *runBuilder) topology(name string) *runBuilder { b.machine = name; return b }
func (b *runBuilder) kernel(name string) *runBuilder   { b.kernelV = name; return b }
func (b *runBuilder) hz(hz int) *runBuilder            { b.hzVal = hz; return b }
func (b *runBuilder) preempt(m string) *runBuilder     { b.preemptM = m; return b }
func (b *runBuilder) duration(d Time) *runBuilder      { b.dur = d; return b }
func (b *runBuilder) seed(s uint64) *runBuilder        { b.seedVal = s; return b }
func (b *runBuilder) maxTasks(n int) *runBuilder       { b.limits.MaxTasks = n; return b }

func (b *runBuilder) feature(f Feature, on bool) *runBuilder {
	b.feats = append(b.feats, featureToggle{f, on})
	return b
}

func (b *runBuilder) sysctl(name string, v int64) *runBuilder {
	b.sysctls = append(b.sysctls, sysctlValue{name, v})
	return b
}

// task starts a new task group: one instance, SCHED_OTHER nice 0, all CPUs,
// looping forever, with the default 50 us timer slack.
func (b *runBuilder) task(name string) *runBuilder {
	b.groups = append(b.groups, &groupDraft{
		spec:     TaskSpec{Name: name, Instances: 1, Parent: -1, Loop: -1, Slack: 50 * Microsecond},
		forkTo:   map[int]string{},
		attrTo:   map[int]string{},
		timerIdx: map[string]int{},
	})
	return b
}

func (b *runBuilder) cur() *groupDraft {
	b.t.Helper()
	if len(b.groups) == 0 {
		b.t.Fatal("builder: task method before task()")
	}
	return b.groups[len(b.groups)-1]
}

func (b *runBuilder) nice(n int) *runBuilder         { b.cur().spec.Nice = n; return b }
func (b *runBuilder) policy(p Policy) *runBuilder    { b.cur().spec.Policy = p; return b }
func (b *runBuilder) rtprio(p int) *runBuilder       { b.cur().spec.RTPriority = p; return b }
func (b *runBuilder) instances(n int) *runBuilder    { b.cur().spec.Instances = n; return b }
func (b *runBuilder) start(at Time) *runBuilder      { b.cur().spec.Start = at; return b }
func (b *runBuilder) slack(d Time) *runBuilder       { b.cur().spec.Slack = d; return b }
func (b *runBuilder) slice(d Time) *runBuilder       { b.cur().spec.Slice = d; return b }
func (b *runBuilder) clockPoll(d Time) *runBuilder   { b.cur().spec.ClockPoll = d; return b }
func (b *runBuilder) loop(n int) *runBuilder         { b.cur().spec.Loop = n; return b }
func (b *runBuilder) parent(name string) *runBuilder { b.cur().parent = name; return b }

// withPI gives the run's mutexes priority inheritance (Config.PI).
func (b *runBuilder) withPI(on bool) *runBuilder { b.piOn = on; return b }

// withHW gives the run the machine's default hardware costs (DefaultHW).
func (b *runBuilder) withHW() *runBuilder { b.hwOn = true; return b }

// lock and unlock add a step on the mutex named m, created on first use.
func (b *runBuilder) lock(m string) *runBuilder   { return b.op(Op{Kind: OpLock, Res: b.mutex(m)}) }
func (b *runBuilder) unlock(m string) *runBuilder { return b.op(Op{Kind: OpUnlock, Res: b.mutex(m)}) }

func (b *runBuilder) mutex(name string) int {
	for i, r := range b.mutexes {
		if r.Name == name {
			return i
		}
	}
	b.mutexes = append(b.mutexes, Resource{Name: name, Mutex: true})
	return len(b.mutexes) - 1
}

func (b *runBuilder) cpus(c ...int) *runBuilder {
	b.cur().spec.CPUs = append([]int{}, c...)
	return b
}

func (b *runBuilder) op(o Op) *runBuilder {
	g := b.cur()
	g.spec.Program = append(g.spec.Program, o)
	return b
}

func (b *runBuilder) run(d Time) *runBuilder   { return b.op(Op{Kind: OpRun, Dur: d}) }
func (b *runBuilder) sleep(d Time) *runBuilder { return b.op(Op{Kind: OpSleep, Dur: d}) }
func (b *runBuilder) yield() *runBuilder       { return b.op(Op{Kind: OpYield}) }
func (b *runBuilder) exit() *runBuilder        { return b.op(Op{Kind: OpExit}) }

// timer adds an rt-app timer step on the timer resource named ref.
func (b *runBuilder) timer(ref string, period Time, mode TimerMode) *runBuilder {
	g := b.cur()
	idx, ok := g.timerIdx[ref]
	if !ok {
		idx = len(g.timerIdx)
		g.timerIdx[ref] = idx
	}
	g.spec.Timers = len(g.timerIdx)
	return b.op(Op{Kind: OpTimer, Dur: period, Mode: mode, Timer: idx})
}

// fork adds a fork of one instance of the named group (which must name this
// group as its parent).
func (b *runBuilder) fork(group string) *runBuilder {
	g := b.cur()
	g.forkTo[len(g.spec.Program)] = group
	return b.op(Op{Kind: OpFork})
}

// config resolves names and returns the run configuration.
func (b *runBuilder) config() Config {
	b.t.Helper()
	m, err := topology.Preset(b.machine)
	if err != nil {
		b.t.Fatal(err)
	}
	prof, err := ProfileByName(b.kernelV)
	if err != nil {
		b.t.Fatal(err)
	}
	if b.hzVal != 0 {
		prof.HZ = b.hzVal
	}
	if b.preemptM != "" {
		if prof.Preempt, err = ParsePreempt(b.preemptM); err != nil {
			b.t.Fatal(err)
		}
	}
	for _, ft := range b.feats {
		prof.Features = prof.Features.With(ft.f, ft.on)
	}
	sys := prof.DefaultSysctls(m.NumCPUs())
	for _, sv := range b.sysctls {
		if err := sys.Set(sv.name, sv.v); err != nil {
			b.t.Fatal(err)
		}
	}
	index := map[string]int{}
	for i, g := range b.groups {
		index[g.spec.Name] = i
	}
	cfg := Config{Machine: m, Profile: prof, Sysctls: sys, Duration: b.dur, Seed: b.seedVal, Limits: b.limits, PI: b.piOn,
		Cgroups: b.cgroups}
	if b.hwOn {
		cfg.HW = DefaultHW(&m)
	}
	cfg.RTGroupSched = b.rtGroupOn
	if len(b.mutexes) > 0 {
		cfg.Resources = append([]Resource{}, b.mutexes...)
	}
	for _, g := range b.groups {
		spec := g.spec
		spec.Program = append([]Op{}, g.spec.Program...)
		if g.parent != "" {
			pi, ok := index[g.parent]
			if !ok {
				b.t.Fatalf("builder: task %s: no parent group %q", spec.Name, g.parent)
			}
			spec.Parent = pi
		}
		for at, name := range g.forkTo {
			gi, ok := index[name]
			if !ok {
				b.t.Fatalf("builder: task %s: fork of unknown group %q", spec.Name, name)
			}
			spec.Program[at].Target = gi
		}
		for at, name := range g.attrTo {
			gi, ok := index[name]
			if !ok {
				b.t.Fatalf("builder: task %s: setattr of unknown group %q", spec.Name, name)
			}
			a := *spec.Program[at].Attr
			a.Group = gi
			spec.Program[at].Attr = &a
		}
		cfg.Tasks = append(cfg.Tasks, spec)
	}
	return cfg
}

// build creates the Sim with a recorder attached.
func (b *runBuilder) build() *testRun { b.t.Helper(); return b.buildWith(nil) }

// buildWith is build with edit (if not nil) applied to the Config first,
// for the settings the builder has no method for.
func (b *runBuilder) buildWith(edit func(*Config)) *testRun {
	b.t.Helper()
	cfg := b.config()
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		b.t.Fatalf("builder: New: %v", err)
	}
	rec := &recorder{}
	s.Attach(rec)
	return &testRun{Sim: s, t: b.t, rec: rec}
}

// testRun is a built Sim and its recorder.
type testRun struct {
	*Sim
	t   testing.TB
	rec *recorder
}

// runFor runs until d (or the end) and fails the test on a run error.
func (r *testRun) runFor(d Time) {
	r.t.Helper()
	r.RunUntil(d)
	if err := r.Err(); err != nil {
		r.t.Fatalf("run failed at %s: %v", r.Now(), err)
	}
}

// id returns the one task of the named group (or a task's full name).
func (r *testRun) id(name string) TaskID {
	r.t.Helper()
	ids := r.ids(name)
	if len(ids) != 1 {
		r.t.Fatalf("task %q: %d tasks match, want 1", name, len(ids))
	}
	return ids[0]
}

// ids returns the tasks of the named group, or the task of that full name.
func (r *testRun) ids(name string) []TaskID {
	var out []TaskID
	for i := range r.NumTasks() {
		info := r.TaskInfo(TaskID(i))
		if info.Group == name || info.Name == name {
			out = append(out, info.ID)
		}
	}
	return out
}

func (r *testRun) name(id TaskID) string {
	if id == NoTask {
		return "idle"
	}
	return r.TaskInfo(id).Name
}
