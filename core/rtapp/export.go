package rtapp

// Export: *scenario.Scenario -> rt-app JSON.
//
// The output is plain JSON (no comments, unique keys, so json-c needs no
// workgen pass) in the grammar of rt-app 1.0: every task gets a "phases"
// object; a run of consecutive non-loop steps becomes one phase with loop 1
// and a loop step becomes a phase with that loop count. Event keys carry
// their index in the phase ("run0", "timer1") because json-c keeps only one
// member per key. Timer refs get the "unique" prefix so that, as in the
// core, every thread has its own timers. Times are rt-app's microseconds.

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// maxUnrolled bounds the events a phase may get from unrolling nested loops.
const maxUnrolled = 10000

type exporter struct {
	warns []Warning
	b     strings.Builder
	once  map[string]bool
	sc    *scenario.Scenario // the (expanded) scenario exported
	all   []int              // its machine's CPUs, once needed (export_affinity.go)
}

// warnOnce warns about key at most once per export.
func (ex *exporter) warnOnce(key, path, format string, args ...any) {
	if ex.once == nil {
		ex.once = map[string]bool{}
	}
	if ex.once[key] {
		return
	}
	ex.once[key] = true
	ex.warn(path, format, args...)
}

// Export renders the workload of sc (tasks, programs, loops, timers,
// affinity, policy, nice, start delay, duration) as an rt-app
// configuration. The machine, kernel, features and sysctls have no place in
// an rt-app file and are reported in the warnings, as is anything rounded
// or that Debian's rt-app 1.0 does not know (SCHED_IDLE, SCHED_BATCH and
// fork are upstream additions). Steps rt-app cannot express (exit) are
// errors naming the scenario path.
//
// Workloads are exported as the task groups they expand to; counting
// semaphores (hackbench's message queues, kbuild's reaping, schbench's
// requests) have no rt-app event and are an error naming them.
func Export(sc *scenario.Scenario) (_ []byte, _ []Warning, err error) {
	if len(sc.Workloads) > 0 || len(sc.Semaphores) > 0 {
		full, xerr := sc.Expanded()
		if xerr != nil {
			return nil, nil, xerr
		}
		if len(full.Semaphores) > 0 {
			name := slices.Sorted(maps.Keys(full.Semaphores))[0]
			return nil, nil, &scenario.Error{Path: semaphorePath(sc, name),
				Msg: fmt.Sprintf("resource %q is a counting semaphore, which rt-app cannot express: its grammar (tutorial.txt) has mutexes, condition variables (wait/signal/broad: a signal wakes a waiter or is lost), suspend/resume and barriers, but no counter, and rt-app keeps no state that could emulate one", name)}
		}
		own := len(sc.Tasks)
		workloads := sc.Workloads
		sc = full
		defer func() { err = expandedPath(err, sc, own, workloads) }()
	}
	ex := &exporter{sc: sc}
	tasks, paths, err := ex.resolveMachineKeys(sc) // export_split.go
	if err != nil {
		return nil, nil, err
	}
	forked := map[string]bool{}
	for _, t := range tasks {
		if t.Parent != "" {
			forked[t.Name] = true
		}
	}
	ex.b.WriteString("{\n\t\"tasks\" : {\n")
	for i, t := range tasks {
		if err := ex.task(paths[i], t, forked[t.Name]); err != nil {
			return nil, nil, err
		}
		if i < len(tasks)-1 {
			ex.b.WriteString(",")
		}
		ex.b.WriteString("\n")
	}
	ex.b.WriteString("\t},\n")
	exportCgroups(&ex.b, sc.Cgroups) // cgroups.go
	secs := (sc.Duration + sec - 1) / sec
	if sc.Duration%sec != 0 {
		ex.warn("duration", "%s rounded up to %d s: rt-app's duration is whole seconds", scenario.FormatDuration(sc.Duration), secs)
	}
	fmt.Fprintf(&ex.b, "\t\"global\" : {\n\t\t\"duration\" : %d,\n", secs)
	ex.b.WriteString("\t\t\"calibration\" : \"CPU0\",\n\t\t\"default_policy\" : \"SCHED_OTHER\",\n")
	fmt.Fprintf(&ex.b, "\t\t\"pi_enabled\" : %v,\n", sc.PI)
	ex.b.WriteString("\t\t\"lock_pages\" : false,\n\t\t\"logdir\" : \"./\",\n" +
		"\t\t\"log_basename\" : \"rt-app\",\n\t\t\"ftrace\" : false,\n\t\t\"gnuplot\" : false\n\t}\n}\n")
	machine := fmt.Sprintf("topology %s, kernel %s", sc.Topology, sc.Kernel.Version)
	if sc.Kernel.HZ != 0 {
		machine += fmt.Sprintf(" (HZ=%d)", sc.Kernel.HZ)
	}
	if len(sc.Features)+len(sc.Sysctl)+len(sc.HW) > 0 {
		machine += " and the features/sysctl/hw settings"
	}
	ex.warn("", "rt-app files carry only the workload: %s are left out", machine)
	return []byte(ex.b.String()), ex.warns, nil
}

func (ex *exporter) warn(path, format string, args ...any) {
	ex.warns = append(ex.warns, Warning{Path: path, Msg: quote.Sprintf(format, args...)})
}

func jsonStr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// us converts to rt-app microseconds, rounding to the nearest one.
func (ex *exporter) us(path string, d sched.Time) int64 {
	n := (int64(d) + 500) / 1000
	if int64(d)%1000 != 0 {
		ex.warn(path, "%s rounded to %dus: rt-app counts microseconds", scenario.FormatDuration(d), n)
	}
	return n
}

func (ex *exporter) task(p string, t scenario.Task, forked bool) error {
	fmt.Fprintf(&ex.b, "\t\t%s : {\n", jsonStr(t.Name))
	inst := t.Instances
	if forked {
		inst = 0 // created by its parent's fork events only
		ex.warnOnce("forked "+p, p, "forked by %q: exported with \"instance\": 0 and the parent's \"fork\" event, which upstream rt-app has and Debian's rt-app 1.0 ignores", t.Parent)
	}
	fmt.Fprintf(&ex.b, "\t\t\t\"instance\" : %d,\n\t\t\t\"loop\" : %d,\n", inst, t.Loop)
	pol := t.Policy
	switch pol {
	case "", "SCHED_NORMAL":
		pol = "SCHED_OTHER"
	case "SCHED_IDLE", "SCHED_BATCH":
		ex.warn(p+".policy", "%s: upstream rt-app accepts it; Debian's rt-app 1.0 knows only SCHED_OTHER, SCHED_FIFO, SCHED_RR and SCHED_DEADLINE and exits with \"Invalid policy\"", pol)
	}
	prio := t.Nice
	if pol == "SCHED_FIFO" || pol == "SCHED_RR" {
		prio = t.Priority // rt-app: the RT priority for the RT policies
	}
	fmt.Fprintf(&ex.b, "\t\t\t\"policy\" : %s,\n\t\t\t\"priority\" : %d,\n", jsonStr(pol), prio)
	if pol == "SCHED_DEADLINE" {
		d := t.DLDeadline
		if d == 0 {
			d = t.DLPeriod
		}
		per := t.DLPeriod
		if per == 0 {
			per = d
		}
		fmt.Fprintf(&ex.b, "\t\t\t\"dl-runtime\" : %d,\n\t\t\t\"dl-period\" : %d,\n\t\t\t\"dl-deadline\" : %d,\n",
			ex.us(p+".dl_runtime", t.DLRuntime), ex.us(p+".dl_period", per), ex.us(p+".dl_deadline", d))
	}
	if t.CPUs != nil {
		fmt.Fprintf(&ex.b, "\t\t\t\"cpus\" : %s,\n", cpuList(t.CPUs))
	}
	if t.Start != 0 {
		fmt.Fprintf(&ex.b, "\t\t\t\"delay\" : %d,\n", ex.us(p+".start", t.Start))
	}
	if t.Cgroup != "" || hasTaskgroupStep(t.Program) {
		if !taskgroupOK(t.Policy) { // cgroups.go
			return errAt(p+".taskgroup", "a %s task in a cgroup: rt-app exits with \"No taskgroup support for policy %s\" (only SCHED_OTHER and SCHED_IDLE threads may name a taskgroup)", pol, pol)
		}
	}
	if t.Cgroup != "" {
		fmt.Fprintf(&ex.b, "\t\t\t\"taskgroup\" : %s,\n", jsonStr(t.Cgroup))
	}
	if t.Session != "" {
		// rt-app ignores the key; the import reads it back (cgroups.go).
		fmt.Fprintf(&ex.b, "\t\t\t\"session\" : %s,\n", jsonStr(t.Session))
		ex.warnOnce("session", p+".session", "rt-app ignores \"session\": its threads all share rt-app's session (one autogroup); run the task groups of another session from a second rt-app started with setsid")
	}
	if t.AutogroupNice != nil {
		// rt-app ignores the key; the import reads it back (cgroups.go).
		fmt.Fprintf(&ex.b, "\t\t\t\"autogroup_nice\" : %d,\n", *t.AutogroupNice)
		ex.warn(p+".autogroup_nice", "rt-app ignores \"autogroup_nice\" (kept for the import): on a real machine write %d to /proc/<pid>/autogroup of one of the session's threads", *t.AutogroupNice)
	}
	if t.TimerSlack != nil && *t.TimerSlack != scenario.DefaultSlack {
		ex.warn(p+".timer_slack", "left out: rt-app does not set timer slack (threads keep the default 50us)")
	}
	if t.Slice != 0 {
		ex.warn(p+".slice", "left out: rt-app 1.0 does not set a custom slice")
	}
	if t.CPUClockPoll != 0 {
		ex.warn(p+".cpu_clock_poll", "left out: rt-app's run and runtime events read no CPU-time clock (run is a calibrated loop; runtime polls CLOCK_MONOTONIC, served by the vDSO without a system call), so its threads are preempted at the tick, as without the key")
	}
	phases, last, err := ex.phases(p+".program", t.Program, threadParams(t))
	if err != nil {
		return err
	}
	if err := checkPhaseSched(p, t, phases, last); err != nil { // export_sched.go
		return err
	}
	if err := ex.phaseCPUs(p, t, phases); err != nil { // export_affinity.go
		return err
	}
	ex.b.WriteString("\t\t\t\"phases\" : {\n")
	for i, ph := range phases {
		fmt.Fprintf(&ex.b, "\t\t\t\t\"p%d\" : {\n\t\t\t\t\t\"loop\" : %d", i, ph.loop)
		if ph.cpus != nil {
			fmt.Fprintf(&ex.b, ",\n\t\t\t\t\t\"cpus\" : %s", cpuList(ph.cpus))
		}
		ex.writePhaseSched(fmt.Sprintf("%s.program (phase p%d)", p, i), ph.sched)
		if ph.group != "" {
			fmt.Fprintf(&ex.b, ",\n\t\t\t\t\t\"taskgroup\" : %s", jsonStr(ph.group))
		}
		for j, ev := range ph.events {
			fmt.Fprintf(&ex.b, ",\n\t\t\t\t\t\"%s%d\" : %s", ev.key, j, ev.val)
		}
		ex.b.WriteString("\n\t\t\t\t}")
		if i < len(phases)-1 {
			ex.b.WriteString(",")
		}
		ex.b.WriteString("\n")
	}
	ex.b.WriteString("\t\t\t}\n\t\t}")
	ex.checkTimerModes(p, phases)
	return nil
}

type phase struct {
	loop   int
	events []event
	// set: an affinity step starts the phase (mask: its CPUs, nil =
	// all); cpus: what the phase writes as "cpus" (export_affinity.go).
	set  bool
	mask []int
	cpus []int
	path string // of the affinity step
	// group: a taskgroup step starts the phase (rt-app's phase-level
	// taskgroup; "/" = the root).
	group string
	// sched: the parameters a setattr or nice step starting the phase
	// sets (export_sched.go); nil = none.
	sched *schedParams
}

type event struct {
	key, val string
	ref      string // timers
	abs      bool
	path     string
}

func (ex *exporter) phases(p string, steps []scenario.Step, cur schedParams) ([]phase, schedParams, error) {
	var out []phase
	var evs []event
	var next *phase           // an affinity step waiting for its phase
	group, groupAt := "", ""  // a taskgroup step waiting for its phase
	var schedSet *schedParams // a setattr or nice step waiting for its phase
	schedAt := ""
	flush := func() {
		if len(evs) > 0 {
			ph := phase{loop: 1, events: evs, group: group, sched: schedSet}
			if next != nil {
				ph.set, ph.mask, next = true, next.mask, nil
			}
			out = append(out, ph)
			evs, group, schedSet = nil, "", nil
		}
	}
	for i, st := range steps {
		sp := fmt.Sprintf("%s[%d]", p, i)
		if st.Kind == "affinity" {
			flush()
			next = &phase{mask: st.Affinity, path: sp + ".affinity"}
			continue
		}
		if st.Kind == "taskgroup" {
			flush()
			group, groupAt = cleanTaskgroup(st.Group), sp+".taskgroup"
			continue
		}
		if st.Kind == "setattr" || st.Kind == "nice" {
			if group != "" {
				return nil, cur, errAt(sp+"."+st.Kind, "after a taskgroup step: rt-app sets a phase's scheduling parameters before its taskgroup; put the %s step first", st.Kind)
			}
			flush()
			var err error
			if cur, err = ex.phaseSchedAt(sp, st, cur); err != nil { // export_sched.go
				return nil, cur, err
			}
			set := cur
			schedSet, schedAt = &set, sp+"."+st.Kind
			continue
		}
		if st.Kind != "loop" {
			ev, err := ex.event(sp, st)
			if err != nil {
				return nil, cur, err
			}
			evs = append(evs, ev)
			continue
		}
		flush()
		ph := phase{loop: st.Loop.Count, group: group, sched: schedSet}
		group, schedSet = "", nil
		prog := st.Loop.Program
		if ph.sched == nil && ph.group == "" && len(prog) > 0 && (prog[0].Kind == "setattr" || prog[0].Kind == "nice") {
			// Set at every iteration: rt-app's phase parameters (a no-op
			// after the first).
			var err error
			if cur, err = ex.phaseSchedAt(sp+".loop.program[0]", prog[0], cur); err != nil {
				return nil, cur, err
			}
			set := cur
			ph.sched, prog = &set, prog[1:]
		}
		for len(prog) > 0 && prog[0].Kind == "taskgroup" && ph.group == "" {
			// Set at every iteration: rt-app's phase taskgroup (a
			// no-op after the first).
			ph.group, prog = cleanTaskgroup(prog[0].Group), prog[1:]
		}
		if next != nil {
			ph.set, ph.mask, next = true, next.mask, nil
		} else if len(prog) > 0 && prog[0].Kind == "affinity" {
			// Set at every iteration: rt-app's phase cpus.
			ph.set, ph.mask, prog = true, prog[0].Affinity, prog[1:]
			sp += ".loop.program[0]"
		}
		if err := ex.unroll(sp+".loop.program", prog, &ph.events); err != nil {
			return nil, cur, err
		}
		out = append(out, ph)
	}
	flush()
	if schedSet != nil {
		return nil, cur, errAt(schedAt, "a %s step that ends the program: rt-app sets a phase's parameters at its start, and a phase needs events; move it before the events it should apply to", schedAt[strings.LastIndex(schedAt, ".")+1:])
	}
	if group != "" {
		return nil, cur, errAt(groupAt, "a taskgroup step that ends the program: rt-app moves a thread at a phase's start, and a phase needs events; move it before the events it should apply to")
	}
	if next != nil {
		return nil, cur, errAt(next.path, "an affinity step that ends the program: rt-app sets \"cpus\" at a phase's start, and a phase needs events; move it to the start of the program")
	}
	if len(out) == 0 {
		return nil, cur, errAt(p, "empty program")
	}
	return out, cur, nil
}

// unroll flattens a loop body: rt-app phases do not nest, so loops inside a
// loop are written out count times.
func (ex *exporter) unroll(p string, steps []scenario.Step, out *[]event) error {
	for i, st := range steps {
		sp := fmt.Sprintf("%s[%d]", p, i)
		if st.Kind != "loop" {
			ev, err := ex.event(sp, st)
			if err != nil {
				return err
			}
			*out = append(*out, ev)
			if len(*out) > maxUnrolled {
				return errAt(sp, "nested loops unroll to more than %d events: rt-app phases do not nest", maxUnrolled)
			}
			continue
		}
		if st.Loop.Count < 0 {
			return errAt(sp+".loop.count", "a forever loop inside a loop: rt-app phases do not nest")
		}
		for n := 0; n < st.Loop.Count; n++ {
			if err := ex.unroll(sp+".loop.program", st.Loop.Program, out); err != nil {
				return err
			}
		}
		if st.Loop.Count > 1 {
			ex.warn(sp, "nested loop unrolled %d times: rt-app phases do not nest", st.Loop.Count)
		}
	}
	return nil
}

func (ex *exporter) event(p string, st scenario.Step) (event, error) {
	switch st.Kind {
	case "run":
		if st.Run == sched.Forever {
			return event{key: "run", val: "-1"}, nil
		}
		return event{key: "run", val: strconv.FormatInt(ex.us(p+".run", st.Run), 10)}, nil
	case "sys":
		ex.warnOnce("sys", p+".sys", "rt-app cannot spend kernel time: a sys step is exported as a run of the same length (user time)")
		return event{key: "run", val: strconv.FormatInt(ex.us(p+".sys", st.Sys), 10)}, nil
	case "ipi":
		return event{}, errAt(p+".ipi", "rt-app has no IPI event (the ipistorm workload is a kernel module)")
	case "sleep":
		return event{key: "sleep", val: strconv.FormatInt(ex.us(p+".sleep", st.Sleep), 10)}, nil
	case "timer":
		per := ex.us(p+".timer.period", st.Timer.Period)
		if per <= 0 {
			return event{}, errAt(p+".timer.period", "%s rounds to 0us: rt-app counts microseconds", scenario.FormatDuration(st.Timer.Period))
		}
		ref := st.Timer.Ref
		if !strings.HasPrefix(ref, "unique") {
			ref = "unique_" + ref
		}
		mode := st.Timer.Mode
		if mode == "" {
			mode = "absolute"
		}
		return event{key: "timer", ref: ref, abs: mode == "absolute", path: p,
			val: fmt.Sprintf("{ \"ref\" : %s, \"period\" : %d, \"mode\" : %s }", jsonStr(ref), per, jsonStr(mode))}, nil
	case "yield":
		return event{key: "yield", val: `""`}, nil
	case "fork":
		return event{key: "fork", val: jsonStr(st.Fork)}, nil
	case "exit":
		return event{}, errAt(p+".exit", "rt-app has no exit event (a thread ends when its loop count is done)")
	case "exec":
		return event{}, errAt(p+".exec", "rt-app has no exec event (its threads never call execve())")
	case "taskgroup":
		return event{}, errAt(p+".taskgroup", "rt-app moves a thread to a taskgroup at a phase's start only: a taskgroup step is exported at the top of the program or first in a top-level loop, not inside a loop's body")
	case "setattr", "nice":
		return event{}, errAt(p+"."+st.Kind, "rt-app sets scheduling parameters at a phase's start only (per-phase policy/priority): a %s step is exported at the top of the program or as the first step of a top-level loop, not inside a loop's body", st.Kind)
	case "affinity":
		return event{}, errAt(p+".affinity", "rt-app sets the affinity at a phase's start only (per-phase \"cpus\"): an affinity step is exported at the top of the program or as the first step of a top-level loop, not inside a loop's body")
	case "wait":
		if st.Mutex != "" {
			// pthread_cond_wait() releasing the mutex the thread locked.
			return event{key: "wait", val: fmt.Sprintf("{ \"ref\" : %s, \"mutex\" : %s }", jsonStr(st.Res), jsonStr(st.Mutex))}, nil
		}
		// rt-app's suspend locks the mutex of the same name around
		// pthread_cond_wait(), which its bare wait event leaves to the file.
		return event{key: "suspend", val: jsonStr(st.Res)}, nil
	case "lock", "unlock":
		return event{key: st.Kind, val: jsonStr(st.Res)}, nil
	case "signal":
		if !st.Cond {
			return event{}, errAt(p+".signal", "a signal that stays pending when nobody waits has no rt-app equivalent: rt-app's signal (pthread_cond_signal) is lost then (\"cond\": true gives that)")
		}
		if st.Sync {
			ex.warnOnce("sync", p+".sync", "rt-app cannot choose WF_SYNC: its futex wakeups are not sync wakeups")
		}
		return event{key: "signal", val: jsonStr(st.Res)}, nil
	case "broadcast":
		if st.Sync {
			ex.warnOnce("sync", p+".sync", "rt-app cannot choose WF_SYNC: its futex wakeups are not sync wakeups")
		}
		return event{key: "resume", val: jsonStr(st.Res)}, nil
	case "barrier":
		return event{key: "barrier", val: jsonStr(st.Res)}, nil
	}
	return event{}, errAt(p, "unknown step kind %q", st.Kind)
}

// checkTimerModes warns when one ref is used with both modes: in rt-app the
// mode belongs to the timer, which is absolute once any use says so.
func (ex *exporter) checkTimerModes(p string, phases []phase) {
	modes := map[string]map[bool]bool{}
	var order []string
	for _, ph := range phases {
		for _, ev := range ph.events {
			if ev.key != "timer" {
				continue
			}
			if modes[ev.ref] == nil {
				modes[ev.ref] = map[bool]bool{}
				order = append(order, ev.ref)
			}
			modes[ev.ref][ev.abs] = true
		}
	}
	for _, ref := range order {
		if len(modes[ref]) == 2 {
			ex.warn(p+".program", "timer %q is used both absolute and relative: in rt-app the timer is absolute for every use", ref)
		}
	}
}

// semaphorePath names where a semaphore comes from: the scenario's
// "semaphores" object or the workload whose resources are named
// "<workload>.<...>".
func semaphorePath(sc *scenario.Scenario, name string) string {
	if _, ok := sc.Semaphores[name]; ok {
		return "semaphores." + name
	}
	for i, w := range sc.Workloads {
		if strings.HasPrefix(name, w.Name+".") {
			return fmt.Sprintf("workloads[%d] (%s)", i, w.Kind)
		}
	}
	return "semaphores." + name
}

// expandedPath renames an error at "tasks[i]..." of an expanded scenario,
// where i is past the scenario's own tasks, to the workload the task group
// came from: "workloads[k] (task group NAME).program[1]...".
func expandedPath(err error, full *scenario.Scenario, own int, wls []scenario.Workload) error {
	var e *scenario.Error
	if !errors.As(err, &e) || !strings.HasPrefix(e.Path, "tasks[") {
		return err
	}
	end := strings.IndexByte(e.Path, ']')
	i, aerr := strconv.Atoi(e.Path[len("tasks["):max(end, len("tasks["))])
	if end < 0 || aerr != nil || i < own || i >= len(full.Tasks) {
		return err
	}
	name := full.Tasks[i].Name
	for k, w := range wls {
		if name == w.Name || strings.HasPrefix(name, w.Name+".") {
			return &scenario.Error{Path: fmt.Sprintf("workloads[%d] (task group %s)%s", k, name, e.Path[end+1:]), Msg: e.Msg}
		}
	}
	return err
}

// cleanTaskgroup is a taskgroup step's group as rt-app names it ("" is
// the root, "/").
func cleanTaskgroup(g string) string {
	if g == "" {
		return "/"
	}
	return g
}

func hasTaskgroupStep(steps []scenario.Step) bool {
	for _, st := range steps {
		if st.Kind == "taskgroup" || st.Kind == "loop" && hasTaskgroupStep(st.Loop.Program) {
			return true
		}
	}
	return false
}
