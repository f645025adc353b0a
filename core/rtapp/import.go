package rtapp

// Import: rt-app JSON -> *scenario.Scenario.
//
// The mapping follows rt-app's own parser (src/rt-app_parse_config.c):
// events are recognised by key prefix ("run0", "sleep1", "runtime2"), a
// thread without "phases" is one phase whose "loop" is the phase's loop and
// whose thread loop is then 1, a thread with "phases" loops the whole phase
// list "loop" times (default -1), timers default to relative mode and a
// timer ref is absolute if any of its uses says so (the mode belongs to the
// timer resource, not to the event).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// Warning is something the importer accepted but could not carry over
// exactly: a key the simulation ignores, an approximation, a default taken
// for what the file leaves open. Path is the JSON path in the rt-app file.
type Warning struct {
	Path string
	Msg  string
	// Keys are the scenario keys whose choice the warning is about (a
	// caller can say how to change them and drop the warning once they
	// change); Hint is the CLI's way to change them ("override with
	// -topology and -kernel"), "" if none.
	Keys []string
	Hint string
}

func (w Warning) String() string {
	msg := w.Msg
	switch {
	case strings.HasPrefix(w.Hint, "("):
		msg += " " + w.Hint
	case w.Hint != "":
		msg += "; " + w.Hint
	}
	if w.Path == "" {
		return msg
	}
	return quote.Path(w.Path) + ": " + msg
}

// Units of rt-app's integer fields.
const (
	usec = sched.Microsecond
	sec  = sched.Second
)

// MemBytesPerNs is the rate at which `mem` and `iorun` events are turned
// into `run` work: 10 bytes/ns (10 GB/s), the order of a single core's
// memset bandwidth from cache-resident buffers (rt-app's buffer is 4 MB by
// default). Writes to /dev/null (rt-app's default io_device) cost less.
const MemBytesPerNs = 10

type importer struct {
	warns     []Warning
	defPolicy string
	defPath   string
	maxCPU    int
	cpuPath   string
	tasks     []*taskIn
	byName    map[string]*taskIn
	once      map[string]bool
	barriers  map[string]int    // barrier events per ref (rt-app's participant count)
	barrierAt map[string]string // path of a ref's first barrier event
}

// taskIn is a task being imported.
type taskIn struct {
	key     string // rt-app name
	path    string
	val     *Value
	out     scenario.Task
	timers  []*timerUse
	forks   []string
	forkers []string
	pending []scenario.Step // steps an event adds after its own (sync's wait)
	held    []string        // mutexes locked so far in the current phase (deadline.go)
}

type timerUse struct {
	t        *scenario.Timer
	absolute bool
	path     string
}

// Import reads an rt-app configuration. It returns the scenario, the
// warnings (in file order) and, for input it cannot represent faithfully,
// a *scenario.Error naming the JSON path. The scenario has the default
// kernel and the smallest smp-N topology that has every CPU the file names;
// rt-app files carry neither, so callers override them (CLI flags).
func Import(data []byte) (*scenario.Scenario, []Warning, error) {
	if len(data) > scenario.MaxInput {
		return nil, nil, errAt("", "rt-app file is %d bytes; the limit is %d", len(data), scenario.MaxInput)
	}
	root, err := Parse(data)
	if err != nil {
		return nil, nil, errAt("", "not valid rt-app JSON: %v", err)
	}
	if root.Kind != Object {
		return nil, nil, errAt("", "want a JSON object with \"tasks\" at the top level")
	}
	im := &importer{defPolicy: "SCHED_OTHER", byName: map[string]*taskIn{}, once: map[string]bool{}, maxCPU: -1,
		barriers: map[string]int{}, barrierAt: map[string]string{}}
	sc := scenario.New()
	sc.Description = "Imported from an rt-app configuration."
	for _, m := range root.Members {
		switch m.Key {
		case "tasks", "global":
		case "cgroups": // cgroups.go
			if sc.Cgroups, err = importCgroups(m.Val); err != nil {
				return nil, nil, err
			}
		case "resources":
			im.warn("resources", "ignored: rt-app 1.0 creates resources from the events and keeps this section only for backward compatibility")
		default:
			im.warn(m.Key, "unknown top-level key, ignored (rt-app reads only tasks, global and resources)")
		}
	}
	if err := im.global(root.Get("global"), sc); err != nil {
		return nil, nil, err
	}
	tm := root.Get("tasks")
	if tm == nil || tm.Val == nil {
		return nil, nil, errAt("tasks", "missing; want an object of threads (rt-app: \"Cannot find key tasks\")")
	}
	if tm.Val.Kind != Object {
		return nil, nil, errAt("tasks", "want an object of threads, got %s", tm.Val.Kind)
	}
	if err := im.allTasks(tm.Val, sc); err != nil {
		return nil, nil, err
	}
	if err := im.checkBarriers(sc); err != nil {
		return nil, nil, err
	}
	if err := im.topology(sc); err != nil {
		return nil, nil, err
	}
	im.autogroupOn(sc) // cgroups.go
	if err := sc.Validate(); err != nil {
		return nil, nil, errAt("", "the imported scenario is not valid: %v", err)
	}
	return sc, im.warns, nil
}

// errAt is an error at path; %q arguments are quoted bounded
// (quote.Short), as the warnings' are.
func errAt(path, format string, args ...any) error {
	return &scenario.Error{Path: path, Msg: quote.Sprintf(format, args...)}
}

func (im *importer) warn(path, format string, args ...any) {
	im.warns = append(im.warns, Warning{Path: path, Msg: quote.Sprintf(format, args...)})
}

// warnKeys warns about a choice of the scenario keys keys, which the CLI
// changes as hint says.
func (im *importer) warnKeys(path string, keys []string, hint, format string, args ...any) {
	im.warns = append(im.warns, Warning{Path: path, Msg: quote.Sprintf(format, args...), Keys: keys, Hint: hint})
}

// warnOnce warns the first time a key is seen.
func (im *importer) warnOnce(key, path, format string, args ...any) {
	if im.once[key] {
		return
	}
	im.once[key] = true
	im.warn(path, format, args...)
}

// join appends a key to a path: `a.b` or `a["mp3.decoder"]`.
func join(path, key string) string {
	ident := key != ""
	for i, c := range key {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			ident = false
			break
		}
	}
	if !ident {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func line(v *Value) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf(" (line %d)", v.Line)
}

// intAt reads an integer member value, naming the path on a type error.
func intAt(path string, v *Value) (int, error) {
	if v == nil {
		return 0, errAt(path, "has no value; want an integer")
	}
	n, ok := v.Int()
	if !ok {
		return 0, errAt(path, "want an integer, got %s%s", describe(v), line(v))
	}
	return n, nil
}

func describe(v *Value) string {
	switch v.Kind {
	case Number:
		return quote.Clip(v.Num)
	case String:
		return quote.Short(v.Str)
	case Bool:
		return strconv.FormatBool(v.Bool)
	}
	return "a " + v.Kind.String()
}

// ---- global ----

// globalIgnored lists the global keys that mean nothing to a simulation.
var globalIgnored = map[string]string{
	"calibration":      "the simulator runs exact work, no calibrated busy loop",
	"lock_pages":       "no paging",
	"logdir":           "no log files",
	"log_basename":     "no log files",
	"log_size":         "no log files",
	"ftrace":           "use schedplay run -trace",
	"gnuplot":          "no log files",
	"io_device":        "I/O is not modelled",
	"mem_buffer_size":  "mem/iorun are converted to run",
	"cumulative_slack": "no log files",
}

func (im *importer) global(gm *Member, sc *scenario.Scenario) error {
	if gm == nil {
		im.warnKeys("", []string{"duration"}, "(rt-app runs until every thread ends; override with -duration)", "no global section: simulating %s", scenario.FormatDuration(sc.Duration))
		return nil
	}
	g := gm.Val
	if g == nil || g.Kind != Object {
		return errAt("global", "want an object")
	}
	var ignored []string
	for _, m := range g.Members {
		p := join("global", m.Key)
		switch m.Key {
		case "duration":
			d, err := intAt(p, m.Val)
			if err != nil {
				return err
			}
			if d <= 0 {
				im.warnKeys(p, []string{"duration"}, "(override with -duration)", "%d: rt-app runs until every thread ends; simulating %s instead", d, scenario.FormatDuration(sc.Duration))
				continue
			}
			if max := sched.DefaultLimits().MaxDuration; sched.Time(d)*sec > max {
				return errAt(p, "%d s is longer than the simulator's limit of %s", d, scenario.FormatDuration(max))
			}
			sc.Duration = sched.Time(d) * sec
		case "default_policy":
			if m.Val == nil || m.Val.Kind != String {
				return errAt(p, "want a policy name string")
			}
			im.defPolicy, im.defPath = m.Val.Str, p
		case "pi_enabled":
			if m.Val == nil || m.Val.Kind != Bool {
				return errAt(p, "want true or false")
			}
			sc.PI = m.Val.Bool // PTHREAD_PRIO_INHERIT on every rt-app mutex
		default:
			if _, ok := globalIgnored[m.Key]; ok {
				ignored = append(ignored, m.Key)
			} else {
				im.warn(p, "unknown global key, ignored (rt-app ignores it too)")
			}
		}
	}
	if gm.Val.Get("duration") == nil {
		im.warnKeys("global.duration", []string{"duration"}, "(override with -duration)", "missing: rt-app runs until every thread ends; simulating %s", scenario.FormatDuration(sc.Duration))
	}
	if len(ignored) > 0 {
		var why []string
		for _, k := range ignored {
			why = append(why, k+" ("+globalIgnored[k]+")")
		}
		im.warn("global", "ignored, no simulation meaning: %s", strings.Join(why, ", "))
	}
	return nil
}

// ---- tasks ----

func (im *importer) allTasks(tasks *Value, sc *scenario.Scenario) error {
	used := map[string]bool{}
	for _, m := range tasks.Members {
		p := join("tasks", m.Key)
		if m.Val == nil || m.Val.Kind != Object {
			return errAt(p, "want a thread object")
		}
		if _, dup := im.byName[m.Key]; dup {
			return errAt(p, "a second thread named %q (json-c would keep only the last one)", m.Key)
		}
		t := &taskIn{key: m.Key, path: p, val: m.Val}
		t.out.Name = sanitize(m.Key, used)
		if t.out.Name != m.Key {
			im.warn(p, "renamed %q: scenario task names are 1-64 of A-Z a-z 0-9 _ . (threads are still named <name>-<index>)", t.out.Name)
		}
		im.tasks = append(im.tasks, t)
		im.byName[m.Key] = t
	}
	if len(im.tasks) == 0 {
		return errAt("tasks", "no threads")
	}
	for _, t := range im.tasks {
		if err := im.task(t); err != nil {
			return err
		}
	}
	if err := im.resolveForks(); err != nil {
		return err
	}
	im.resolveTimers()
	for _, t := range im.tasks {
		if t.out.Instances == 0 {
			continue
		}
		sc.Tasks = append(sc.Tasks, t.out)
	}
	if len(sc.Tasks) == 0 {
		return errAt("tasks", "every thread has \"instance\": 0; nothing would run")
	}
	return nil
}

// sanitize makes an rt-app thread name a valid, unique scenario name.
func sanitize(key string, used map[string]bool) string {
	b := []byte(key)
	for i, c := range b {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		b = []byte("task")
	}
	if len(b) > 60 {
		b = b[:60]
	}
	name := string(b)
	for i := 2; used[name]; i++ {
		name = string(b) + "_" + strconv.Itoa(i)
	}
	used[name] = true
	return name
}

// legacy are the keys of the rt-app 0.x thread grammar.
var legacy = []string{"exec", "period", "deadline", "lock_order", "resources"}

// threadKeys are the non-event keys of a thread object.
var threadKeys = map[string]bool{"instance": true, "loop": true, "phases": true, "cpus": true,
	"policy": true, "priority": true, "delay": true, "dl-runtime": true, "dl-period": true, "dl-deadline": true, "taskgroup": true, "session": true, "autogroup_nice": true}

// phaseKeys are the non-event keys of a phase object.
var phaseKeys = map[string]bool{"loop": true, "cpus": true, "policy": true, "priority": true,
	"dl-runtime": true, "dl-period": true, "dl-deadline": true, "taskgroup": true}

func (im *importer) task(t *taskIn) error {
	v := t.val
	for _, k := range legacy {
		if m := v.Get(k); m != nil && !hasEvents(v) {
			return errAt(join(t.path, k), "rt-app 0.x thread grammar (exec, period, deadline, lock_order, resources): rt-app 1.0 replaced it with events (run, sleep, timer, ...); rewrite the thread with events")
		}
	}
	t.out.Instances, t.out.Loop = 1, -1
	if m := v.Get("instance"); m != nil {
		n, err := intAt(join(t.path, "instance"), m.Val)
		if err != nil {
			return err
		}
		if n < 0 || n > 10000 {
			return errAt(join(t.path, "instance"), "%d: want 0..10000", n)
		}
		t.out.Instances = n
	}
	pol, err := im.policy(t.path, v, im.defPolicy, im.defPath)
	if err != nil {
		return err
	}
	t.out.Policy = pol
	if t.out.Policy == "SCHED_OTHER" {
		t.out.Policy = ""
	}
	if m := v.Get("priority"); m != nil {
		n, err := intAt(join(t.path, "priority"), m.Val)
		if err != nil {
			return err
		}
		if pol == "SCHED_DEADLINE" {
			im.warn(join(t.path, "priority"), "ignored: SCHED_DEADLINE threads run by dl-runtime/dl-deadline/dl-period")
		} else if pol == "SCHED_FIFO" || pol == "SCHED_RR" {
			if n < 1 || n > 99 {
				return errAt(join(t.path, "priority"), "%d: for %s the priority is the RT priority, 1..99 (sched_setscheduler() fails with EINVAL)", n, pol)
			}
			t.out.Priority = n
		} else {
			if n < -20 || n > 19 {
				return errAt(join(t.path, "priority"), "%d: for %s the priority is the nice value, -20..19 (rt-app exits: \"setpriority %d nice invalid\")", n, pol, n)
			}
			t.out.Nice = n
		}
	} else if pol == "SCHED_FIFO" || pol == "SCHED_RR" {
		// rt-app parse_thread_data(): prior_def = DEFAULT_THREAD_PRIORITY
		// (10) for fifo and rr.
		t.out.Priority = 10
	}
	if err := im.deadline(t, v, pol); err != nil {
		return err
	}
	if m := v.Get("cpus"); m != nil {
		cpus, err := im.cpus(join(t.path, "cpus"), m.Val)
		if err != nil {
			return err
		}
		t.out.CPUs = cpus
	}
	if t.out.Cgroup, err = taskgroupAt(t.path, v); err != nil { // cgroups.go
		return err
	}
	if err := checkTaskgroupPolicy(t.path, policyName(t.out.Policy), t.out.Cgroup); err != nil {
		return err
	}
	if t.out.Session, err = sessionAt(t.path, v); err != nil { // cgroups.go
		return err
	}
	if t.out.AutogroupNice, err = autogroupNiceAt(t.path, v); err != nil { // cgroups.go
		return err
	}
	if m := v.Get("delay"); m != nil {
		n, err := intAt(join(t.path, "delay"), m.Val)
		if err != nil {
			return err
		}
		if n < 0 {
			return errAt(join(t.path, "delay"), "%d: want a non-negative number of microseconds", n)
		}
		t.out.Start = sched.Time(n) * usec
	}
	phases := v.Get("phases")
	if phases == nil {
		for _, m := range v.Members {
			if !threadKeys[m.Key] && classify(m.Key) == "" {
				im.warn(join(t.path, m.Key), "not an rt-app event or thread key, ignored (rt-app ignores it too)")
			}
		}
		steps, err := im.events(t, t.path, v)
		if err != nil {
			return err
		}
		if m := v.Get("loop"); m != nil {
			n, err := im.loopCount(join(t.path, "loop"), m.Val)
			if err != nil {
				return err
			}
			t.out.Loop = n
		}
		t.out.Program = steps
	} else {
		for _, m := range v.Members {
			if !threadKeys[m.Key] {
				im.warn(join(t.path, m.Key), "ignored: with \"phases\", rt-app reads events only inside the phases")
			}
		}
		pp := join(t.path, "phases")
		if phases.Val == nil || phases.Val.Kind != Object {
			return errAt(pp, "want an object of phases")
		}
		if len(phases.Val.Members) == 0 {
			return errAt(pp, "no phases")
		}
		im.duplicates(pp, phases.Val)
		var phaseCPUs [][]int // a phase's own "cpus", nil = none (affinity.go)
		var bodies [][]scenario.Step
		var phSched []*schedParams // a phase's scheduling keys, nil = none (phase_sched.go)
		cur := threadParams(t.out)
		for _, ph := range phases.Val.Members {
			p := join(pp, ph.Key)
			if ph.Val == nil || ph.Val.Kind != Object {
				return errAt(p, "want a phase object")
			}
			cpus, err := im.phaseAttrs(t, p, ph.Val)
			if err != nil {
				return err
			}
			next, has, err := im.phaseSched(p, ph.Val, cur)
			if err != nil {
				return err
			}
			if has {
				cur = next
				phSched = append(phSched, &next)
			} else {
				phSched = append(phSched, nil)
			}
			steps, err := im.events(t, p, ph.Val)
			if err != nil {
				return err
			}
			count := 1
			if m := ph.Val.Get("loop"); m != nil {
				if count, err = im.loopCount(join(p, "loop"), m.Val); err != nil {
					return err
				}
			}
			if count != 1 {
				steps = []scenario.Step{{Kind: "loop", Loop: &scenario.Loop{Count: count, Program: steps}}}
			}
			tg, err := taskgroupAt(p, ph.Val)
			if err != nil {
				return err
			}
			if err := checkTaskgroupPolicy(p, cur.policy, tg); err != nil {
				return err
			}
			if tg != "" { // set_thread_taskgroup() at the phase's start
				steps = append([]scenario.Step{{Kind: "taskgroup", Group: tg}}, steps...)
			}
			phaseCPUs, bodies = append(phaseCPUs, cpus), append(bodies, steps)
		}
		phaseSchedSteps(threadParams(t.out), phSched, bodies) // before the taskgroup step, after the affinity
		t.out.Program = phaseAffinity(t.out.CPUs, phaseCPUs, bodies)
		if m := v.Get("loop"); m != nil {
			n, err := intAt(join(t.path, "loop"), m.Val)
			if err != nil {
				return err
			}
			switch {
			case n == 0:
				return errAt(join(t.path, "loop"), "0: the thread would run none of its phases")
			case n < -1:
				im.warn(join(t.path, "loop"), "%d: rt-app counts up to it and never reaches it; runs forever", n)
				n = -1
			}
			t.out.Loop = n
		}
	}
	before := countSteps(t.out.Program)
	prog, stuck := truncateForever(t.out.Program)
	if stuck {
		if dropped := before - countSteps(prog); dropped > 0 || t.out.Loop != -1 {
			im.warn(t.path, "gets stuck in \"run\": -1 (forever): %d later event(s) never execute and the thread loop (%d) never repeats; imported with them left out and loop -1", dropped, t.out.Loop)
		}
		t.out.Program, t.out.Loop = prog, -1
	}
	return nil
}

// hasEvents reports whether a thread object has events or phases.
func hasEvents(v *Value) bool {
	for _, m := range v.Members {
		if m.Key == "phases" || classify(m.Key) != "" && m.Key != "lock_order" {
			return true
		}
	}
	return false
}

// loopCount reads a phase loop: rt-app repeats the phase until its counter
// (1, 2, ...) equals the value, so 0 and negative values never end.
func (im *importer) loopCount(path string, v *Value) (int, error) {
	n, err := intAt(path, v)
	if err != nil {
		return 0, err
	}
	if n <= 0 {
		if n != -1 {
			im.warn(path, "%d: rt-app's counter starts at 1 and never reaches it; repeats forever", n)
		}
		return -1, nil
	}
	return n, nil
}

// policy resolves a thread's or phase's policy.
func (im *importer) policy(path string, v *Value, def, defPath string) (string, error) {
	pol, pp := def, defPath
	if m := v.Get("policy"); m != nil {
		pp = join(path, "policy")
		if m.Val == nil || m.Val.Kind != String {
			return "", errAt(pp, "want a policy name string")
		}
		if m.Val.Str != "default" { // upstream: keep the current policy
			pol = m.Val.Str
		}
	}
	where := pp
	if where == "" {
		where = path
	}
	switch pol {
	case "SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE":
		return pol, nil
	}
	return "", errAt(where, "unknown policy %q: want SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE (rt-app exits: \"Invalid policy\")", pol)
}

func (im *importer) cpus(path string, v *Value) ([]int, error) {
	if v == nil || v.Kind != Array {
		return nil, errAt(path, "want an array of CPU numbers")
	}
	if len(v.Elems) == 0 {
		return nil, errAt(path, "empty: sched_setaffinity() fails on an empty set and rt-app exits")
	}
	var out []int
	seen := map[int]bool{}
	for i, e := range v.Elems {
		ep := fmt.Sprintf("%s[%d]", path, i)
		n, err := intAt(ep, e)
		if err != nil {
			return nil, err
		}
		if n < 0 || n >= 4096 {
			return nil, errAt(ep, "CPU %d: want 0..4095", n)
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
		if n > im.maxCPU {
			im.maxCPU, im.cpuPath = n, ep
		}
	}
	return out, nil
}

// phaseAttrs reads a phase's cpus (nil: none; phaseAffinity() makes them
// affinity steps); its scheduling keys are phaseSched()'s (phase_sched.go).
func (im *importer) phaseAttrs(t *taskIn, p string, v *Value) ([]int, error) {
	for _, m := range v.Members {
		if !phaseKeys[m.Key] && classify(m.Key) == "" {
			im.warn(join(p, m.Key), "not an rt-app event or phase key, ignored (rt-app ignores it too)")
		}
	}
	var cpus []int
	if m := v.Get("cpus"); m != nil {
		var err error
		if cpus, err = im.cpus(join(p, "cpus"), m.Val); err != nil {
			return nil, err
		}
		if t.out.Policy == "SCHED_DEADLINE" && !sameSet(cpus, t.out.CPUs) {
			return nil, errAt(join(p, "cpus"), "%v: a SCHED_DEADLINE thread cannot change its affinity (sched_setaffinity() fails with EBUSY unless the mask spans the root domain)", cpus)
		}
	}
	return cpus, nil
}

func policyName(p string) string {
	if p == "" {
		return "SCHED_OTHER"
	}
	return p
}

func sameSet(a, b []int) bool {
	if b == nil {
		return false
	}
	x := append([]int(nil), a...)
	y := append([]int(nil), b...)
	sort.Ints(x)
	sort.Ints(y)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// topology picks the smallest smp-N machine that has every CPU named.
func (im *importer) topology(sc *scenario.Scenario) error {
	for _, name := range topology.Names() {
		m, err := topology.Preset(name)
		if err != nil || !strings.HasPrefix(name, "smp-") {
			continue
		}
		if m.NumCPUs() > im.maxCPU {
			sc.Topology = name
			why := "no thread sets \"cpus\""
			if im.maxCPU >= 0 {
				why = fmt.Sprintf("the smallest smp-N with CPU %d", im.maxCPU)
			}
			im.warns = append(im.warns, Warning{Keys: []string{"topology", "kernel.version"}, Hint: "override with -topology and -kernel",
				Msg: fmt.Sprintf("rt-app files name no machine or kernel: using topology %s (%s) and kernel %s", name, why, sc.Kernel.Version)})
			return nil
		}
	}
	return errAt(im.cpuPath, "CPU %d: no built-in smp-N topology has that many CPUs", im.maxCPU)
}

func countSteps(steps []scenario.Step) int {
	n := len(steps)
	for _, st := range steps {
		if st.Kind == "loop" {
			n += countSteps(st.Loop.Program)
		}
	}
	return n
}

// checkBarriers compares rt-app's barrier participant count with the
// core's. rt-app's parser adds one per barrier event it parses
// (init_barrier_resource() starts at -1; the last arrival is the one that
// finds 0), so a thread description with two instances, or a phase loop
// body read once, counts once; the core counts the task instances whose
// program uses the barrier. When they differ rt-app's barrier releases at
// another arrival than the core's would, so the import is refused.
func (im *importer) checkBarriers(sc *scenario.Scenario) error {
	refs := make([]string, 0, len(im.barriers))
	for ref := range im.barriers {
		refs = append(refs, ref)
	}
	sort.Strings(refs)
	for _, ref := range refs {
		users := 0
		for _, t := range sc.Tasks {
			if usesBarrier(t.Program, ref) {
				users += t.Instances
			}
		}
		if n := im.barriers[ref]; n != users {
			return errAt(im.barrierAt[ref], "barrier %q: rt-app counts %d barrier events as its participants, but %d thread instances use it; the barrier would release at a different arrival (one barrier event per thread description with one instance is what rt-app's counter expects)", ref, n, users)
		}
	}
	return nil
}

func usesBarrier(steps []scenario.Step, ref string) bool {
	for _, st := range steps {
		if st.Kind == "barrier" && st.Res == ref {
			return true
		}
		if st.Kind == "loop" && usesBarrier(st.Loop.Program, ref) {
			return true
		}
	}
	return false
}
