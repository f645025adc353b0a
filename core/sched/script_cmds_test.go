package sched

// The commands of the testdata scripts (script_test.go), one handler each.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

var scriptCommands map[string]func(*scriptEnv) string

func init() {
	scriptCommands = map[string]func(*scriptEnv) string{
		"kernel":           cmdKernel,
		"feature":          cmdFeature,
		"sysctl":           cmdSysctl,
		"task":             cmdTask,
		"run-until":        cmdRunUntil,
		"trace":            cmdTrace,
		"runtime":          cmdRuntime,
		"latency":          cmdLatency,
		"expect-switch":    cmdExpectSwitch,
		"expect-no-switch": cmdExpectNoSwitch,
		"expect-first-run": cmdExpectFirstRun,
		"cgroup":           cmdCgroup, // script_cgroup_test.go
		"cpustat":          cmdCpustat,
		"pelt":             cmdPelt,
		"build-error":      cmdBuildError,
		"affinity":         cmdAffinity,
	}
}

// parseDur reads a Go duration ("1.5ms", "16us") or -1 (Forever).
func (e *scriptEnv) parseDur(s string) Time {
	if s == "-1" {
		return Forever
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		e.t.Fatalf("%s:%d: duration %q: %v", e.path, e.d.line, s, err)
	}
	return Time(d.Nanoseconds())
}

func (e *scriptEnv) durArg(key string) (Time, bool) {
	v, ok := e.arg(key)
	if !ok {
		return 0, false
	}
	return e.parseDur(v), true
}

func (e *scriptEnv) mustDur(key string) Time {
	d, ok := e.durArg(key)
	if !ok {
		e.t.Fatalf("%s:%d: %s: missing %s=", e.path, e.d.line, e.d.cmd, key)
	}
	return d
}

func (e *scriptEnv) intArg(key string, def int) int {
	v, ok := e.arg(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		e.t.Fatalf("%s:%d: %s=%q: %v", e.path, e.d.line, key, v, err)
	}
	return n
}

// builder returns the builder of the current script run; the run must not
// have started yet.
func (e *scriptEnv) builder() *runBuilder {
	if e.b == nil || e.r != nil {
		e.t.Fatalf("%s:%d: %s: needs a kernel command before the run starts", e.path, e.d.line, e.d.cmd)
	}
	return e.b
}

func (e *scriptEnv) run() *testRun {
	if e.r == nil {
		e.t.Fatalf("%s:%d: %s: nothing has run yet", e.path, e.d.line, e.d.cmd)
	}
	return e.r
}

// kernel v5.8 [hz=250] [topology=smp-1] [preempt=none] [duration=1s] [seed=1]
// [pi=on|off] [hw=default] [rtgroup=on] starts a new run (pi: priority inheritance for
// the mutexes; hw=default: the machine's hardware costs, DefaultHW).
func cmdKernel(e *scriptEnv) string {
	if len(e.d.args) == 0 || e.d.args[0].key != "" {
		e.t.Fatalf("%s:%d: kernel: want a profile name first", e.path, e.d.line)
	}
	e.b, e.r = newRun(e.t).kernel(e.d.args[0].val), nil
	if v, ok := e.arg("topology"); ok {
		e.b.topology(v)
	}
	if v, ok := e.arg("preempt"); ok {
		e.b.preempt(v)
	}
	e.b.hz(e.intArg("hz", 0))
	e.b.duration(Second)
	if d, ok := e.durArg("duration"); ok {
		e.b.duration(d)
	}
	e.b.seed(uint64(e.intArg("seed", 1)))
	if v, ok := e.arg("pi"); ok {
		if v != "on" && v != "off" {
			e.t.Fatalf("%s:%d: kernel pi=%s: want on or off", e.path, e.d.line, v)
		}
		e.b.withPI(v == "on")
	}
	if v, ok := e.arg("rtgroup"); ok { // kernel.rt_group_sched
		e.b.rtGroupOn = v == "on"
	}
	if v, ok := e.arg("hw"); ok {
		if v != "default" {
			e.t.Fatalf("%s:%d: kernel hw=%s: want default", e.path, e.d.line, v)
		}
		e.b.withHW()
	}
	return ""
}

// feature NAME=on|off ...
func cmdFeature(e *scriptEnv) string {
	b := e.builder()
	for _, a := range e.d.args {
		f, ok := FeatureByName(a.key)
		if !ok || (a.val != "on" && a.val != "off") {
			e.t.Fatalf("%s:%d: feature %s=%s: want a feature name and on/off", e.path, e.d.line, a.key, a.val)
		}
		b.feature(f, a.val == "on")
	}
	return ""
}

// sysctl name=value ...
func cmdSysctl(e *scriptEnv) string {
	b := e.builder()
	for _, a := range e.d.args {
		v, err := strconv.ParseInt(a.val, 10, 64)
		if err != nil {
			e.t.Fatalf("%s:%d: sysctl %s: %v", e.path, e.d.line, a.key, err)
		}
		b.sysctl(a.key, v)
	}
	return ""
}

// task name=N [policy=P] [prio=N] [dl=RUNTIME/DEADLINE/PERIOD] [nice=N]
// [cpus=0,1] [loop=-1] [start=D] [slack=D] [parent=G] [instances=N] [cgroup=PATH]
// program=step,step,... where a step is run:D, sleep:D, timer:D[:abs|rel],
// yield, fork:G, lock:M, unlock:M, cgroup:PATH or exit. prio is the rt_priority of a
// SCHED_FIFO/SCHED_RR task; dl sets SCHED_DEADLINE with those parameters.
func cmdTask(e *scriptEnv) string {
	b := e.builder()
	name, ok := e.arg("name")
	if !ok {
		e.t.Fatalf("%s:%d: task: missing name=", e.path, e.d.line)
	}
	b.task(name)
	for _, a := range e.d.args {
		switch a.key {
		case "name":
		case "policy":
			p, err := ParsePolicy(a.val)
			if err != nil {
				e.t.Fatal(err)
			}
			b.policy(p)
		case "nice":
			b.nice(e.intArg("nice", 0))
		case "prio":
			b.rtprio(e.intArg("prio", 0))
		case "dl":
			parts := strings.Split(a.val, "/")
			if len(parts) != 3 {
				e.t.Fatalf("%s:%d: task dl=%s: want RUNTIME/DEADLINE/PERIOD", e.path, e.d.line, a.val)
			}
			b.deadline(e.parseDur(parts[0]), e.parseDur(parts[1]), e.parseDur(parts[2]))
		case "cpus":
			var cs []int
			for _, c := range strings.Split(a.val, ",") {
				n, err := strconv.Atoi(c)
				if err != nil {
					e.t.Fatal(err)
				}
				cs = append(cs, n)
			}
			b.cpus(cs...)
		case "loop":
			b.loop(e.intArg("loop", -1))
		case "instances":
			b.instances(e.intArg("instances", 1))
		case "start":
			b.start(e.parseDur(a.val))
		case "slack":
			b.slack(e.parseDur(a.val))
		case "clock_poll": // clock_poll.go
			b.clockPoll(e.parseDur(a.val))
		case "parent":
			b.parent(a.val)
		case "cgroup": // script_cgroup_test.go
			b.in(a.val)
		case "program":
			e.program(b, a.val)
		default:
			e.t.Fatalf("%s:%d: task: unknown key %q", e.path, e.d.line, a.key)
		}
	}
	return ""
}

func (e *scriptEnv) program(b *runBuilder, spec string) {
	for _, step := range strings.Split(spec, ",") {
		parts := strings.Split(step, ":")
		if len(parts) < 2 && parts[0] != "yield" && parts[0] != "exit" {
			e.t.Fatalf("%s:%d: program step %q: want %s:ARG", e.path, e.d.line, step, parts[0])
		}
		switch parts[0] {
		case "run":
			b.run(e.parseDur(parts[1]))
		case "sleep":
			b.sleep(e.parseDur(parts[1]))
		case "timer":
			mode := TimerAbsolute
			if len(parts) > 2 && parts[2] == "rel" {
				mode = TimerRelative
			}
			b.timer("t", e.parseDur(parts[1]), mode)
		case "yield":
			b.yield()
		case "fork":
			b.fork(parts[1])
		case "lock":
			b.lock(parts[1])
		case "unlock":
			b.unlock(parts[1])
		case "exit":
			b.exit()
		case "affinity": // sched_setaffinity(0, CPUs), CPUs as 0+1+3
			var cs []int
			for _, c := range strings.Split(parts[1], "+") {
				n, err := strconv.Atoi(c)
				if err != nil {
					e.t.Fatal(err)
				}
				cs = append(cs, n)
			}
			b.op(Op{Kind: OpAffinity, CPUs: cs})
		case "cgroup": // sched_move_task() to cgroup PATH (script_cgroup_test.go)
			b.op(Op{Kind: OpCgroup, Target: b.cgroupID(parts[1])})
		case "setattr", "nice": // script_setattr_test.go
			e.setattrStep(b, parts)
		default:
			e.t.Fatalf("%s:%d: unknown program step %q", e.path, e.d.line, step)
		}
	}
}

// run-until D builds the run on first use and runs it up to D.
func cmdRunUntil(e *scriptEnv) string {
	if e.r == nil {
		e.r = e.builder().build()
	}
	d := e.parseDur(e.d.args[0].val)
	e.r.RunUntil(d)
	if err := e.r.Err(); err != nil {
		return "error: " + err.Error()
	}
	return ""
}

func fmtMs(t Time) string {
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return fmt.Sprintf("%s%d.%06dms", sign, t/Millisecond, t%Millisecond)
}

var traceKinds = map[string]EventKind{"switch": EvSwitch, "wakeup": EvWakeup, "wakeup_new": EvWakeupNew,
	"fork": EvFork, "exit": EvExit, "resched": EvResched, "tick": EvTick, "migrate": EvMigrate,
	"throttle": EvCgroupThrottle, "unthrottle": EvCgroupUnthrottle, "setattr": EvSetattr,
	"ipi": EvIPIRaise, "ipi_entry": EvIPIEntry, "wake_idle_no_ipi": EvWakeIdleNoIPI,
	"waking": EvWaking, "idle_enter": EvIdleEnter, "idle_exit": EvIdleExit, "softirq": EvSoftirq}

// describe renders an event with task names, for traces.
func (r *testRun) describe(e *Event) string {
	switch e.Kind {
	case EvSwitch:
		return fmt.Sprintf("%s cpu%d switch %s -> %s reason=%s pick=%s", fmtMs(e.Time), e.CPU,
			r.name(e.Prev), r.name(e.Next), e.Reason, e.Pick)
	case EvWakeup, EvWakeupNew:
		return fmt.Sprintf("%s cpu%d %s %s reason=%s", fmtMs(e.Time), e.CPU, e.Kind, r.name(e.Next), e.Reason)
	case EvWaking:
		return fmt.Sprintf("%s cpu%d sched_waking %s by=%s", fmtMs(e.Time), e.CPU, r.name(e.Next), r.name(e.Prev))
	case EvIdleEnter:
		return fmt.Sprintf("%s cpu%d idle_enter state=%d", fmtMs(e.Time), e.CPU, e.Arg)
	case EvIdleExit:
		return fmt.Sprintf("%s cpu%d idle_exit", fmtMs(e.Time), e.CPU)
	case EvResched:
		return fmt.Sprintf("%s cpu%d resched curr=%s by=%s reason=%s", fmtMs(e.Time), e.CPU,
			r.name(e.Prev), r.name(e.Next), e.Reason)
	case EvFork:
		return fmt.Sprintf("%s cpu%d fork %s -> %s", fmtMs(e.Time), e.CPU, r.name(e.Prev), r.name(e.Next))
	case EvMigrate:
		return fmt.Sprintf("%s migrate %s cpu%d -> cpu%d reason=%s", fmtMs(e.Time), r.name(e.Next), e.Arg, e.CPU, e.Reason)
	case EvSetattr:
		return fmt.Sprintf("%s cpu%d sched_setattr by=%s task=%s oldprio=%d", fmtMs(e.Time), e.CPU, r.name(e.Prev), r.name(e.Next), e.Arg)
	case EvIPIRaise:
		return fmt.Sprintf("%s cpu%d ipi_raise %c from=cpu%d", fmtMs(e.Time), e.CPU, e.PrevState, e.Arg)
	case EvIPIEntry:
		return fmt.Sprintf("%s cpu%d ipi_entry %c", fmtMs(e.Time), e.CPU, e.PrevState)
	case EvSoftirq:
		return fmt.Sprintf("%s cpu%d softirq_entry vec=%d", fmtMs(e.Time), e.CPU, e.Arg)
	case EvCgroupThrottle, EvCgroupUnthrottle:
		return fmt.Sprintf("%s cpu%d %s %s", fmtMs(e.Time), e.CPU, e.Kind, r.cfg.Cgroups[e.Arg-1].Path)
	}
	return fmt.Sprintf("%s cpu%d %s %s", fmtMs(e.Time), e.CPU, e.Kind, r.name(e.Prev))
}

// window returns the from= and to= arguments (to is inclusive).
func (e *scriptEnv) window() (from, to Time) {
	from, to = 0, e.run().Now()
	if d, ok := e.durArg("from"); ok {
		from = d
	}
	if d, ok := e.durArg("to"); ok {
		to = d
	}
	return from, to
}

// trace [from=D] [to=D] [cpu=N] [kinds=switch,wakeup,...] prints events.
func cmdTrace(e *scriptEnv) string {
	r := e.run()
	from, to := e.window()
	cpu := e.intArg("cpu", -1)
	kinds := map[EventKind]bool{EvSwitch: true, EvWakeup: true, EvWakeupNew: true}
	if v, ok := e.arg("kinds"); ok {
		kinds = map[EventKind]bool{}
		for _, k := range strings.Split(v, ",") {
			kinds[traceKinds[k]] = true
		}
	}
	var b strings.Builder
	for i := range r.rec.events {
		ev := &r.rec.events[i]
		if ev.Time < from || ev.Time > to || !kinds[ev.Kind] || (cpu >= 0 && int(ev.CPU) != cpu) {
			continue
		}
		b.WriteString(r.describe(ev) + "\n")
	}
	return b.String()
}

// runtime prints each task's CPU time and share so far.
func cmdRuntime(e *scriptEnv) string {
	r := e.run()
	rt, err := r.rec.runtimes(r.Now())
	if err != nil {
		return e.fail("%v", err)
	}
	var b strings.Builder
	for i := range r.NumTasks() {
		id := TaskID(i)
		fmt.Fprintf(&b, "%s %s %.3f%%\n", r.name(id), fmtMs(rt[id]), 100*float64(rt[id])/float64(r.Now()))
	}
	return b.String()
}

// latency task=G [from=D] prints each wakeup of the task and when it next
// got a CPU.
func cmdLatency(e *scriptEnv) string {
	r := e.run()
	name, _ := e.arg("task")
	id := r.id(name)
	from, to := e.window()
	var b strings.Builder
	woken := Time(-1)
	for _, ev := range r.rec.events {
		switch {
		case ev.Kind == EvWakeup && ev.Next == id:
			woken = ev.Time
		case ev.Kind == EvSwitch && ev.Next == id && woken >= 0:
			if woken >= from && woken <= to {
				fmt.Fprintf(&b, "woken %s ran %s latency %s reason=%s\n", fmtMs(woken), fmtMs(ev.Time), fmtMs(ev.Time-woken), ev.Reason)
			}
			woken = -1
		}
	}
	return b.String()
}
