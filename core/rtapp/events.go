package rtapp

// Events: the members of a phase object, in file order, to program steps.

import (
	"strings"

	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// eventNames are rt-app's event keys. rt-app recognises an event by prefix
// (strncmp), so "run0", "sleep1" and "runtime2" are events too; "runtime"
// is tried before "run" because rt-app checks it inside the run branch.
var eventNames = []string{"runtime", "run", "sleep", "mem", "iorun", "lock", "unlock",
	"signal", "broad", "wait", "sync", "barrier", "timer", "resume", "suspend", "yield", "fork"}

// classify returns the event a key names, or "".
func classify(key string) string {
	for _, e := range eventNames {
		if strings.HasPrefix(key, e) {
			return e
		}
	}
	return ""
}

// events converts the events of one phase (or of a thread without phases).
func (im *importer) events(t *taskIn, path string, v *Value) ([]scenario.Step, error) {
	var steps []scenario.Step
	im.duplicates(path, v)
	t.held = t.held[:0]
	for _, m := range v.Members {
		kind := classify(m.Key)
		if kind == "" {
			continue
		}
		p := join(path, m.Key)
		if m.Val == nil && kind != "suspend" && kind != "yield" {
			return nil, errAt(p, "has no value%s", line(&Value{Line: m.Line}))
		}
		if m.Val == nil { // workgen fills in the value
			m.Val = &Value{Kind: String, Line: m.Line, Col: m.Col}
		}
		st, err := im.event(t, p, kind, m.Val)
		if err != nil {
			return nil, err
		}
		if st != nil {
			steps = append(steps, *st)
		}
		steps = append(steps, t.pending...) // the wait of a sync
		t.pending = t.pending[:0]
	}
	if len(t.held) > 0 {
		return nil, errAt(path, "the phase ends holding mutex %q: unlock it in the same phase (the simulator needs a thread to release what it locks before it moves on or exits)", t.held[0])
	}
	if len(steps) == 0 {
		return nil, errAt(path, "no events (rt-app exits: \"No events found. Task must have events or it's useless\")")
	}
	return steps, nil
}

func (im *importer) event(t *taskIn, p, kind string, v *Value) (*scenario.Step, error) {
	switch kind {
	case "run", "runtime":
		n, err := intAt(p, v)
		if err != nil {
			return nil, err
		}
		if kind == "runtime" {
			im.warnOnce("runtime", p, "\"runtime\" (wall-clock busy time) is imported as \"run\" (work at capacity 1024); they differ only on CPUs of lower capacity or frequency")
		}
		switch {
		case n == -1:
			return &scenario.Step{Kind: "run", Run: sched.Forever}, nil
		case n < 0:
			return nil, errAt(p, "%d: want microseconds >= 0, or -1 for forever%s", n, line(v))
		}
		return &scenario.Step{Kind: "run", Run: sched.Time(n) * usec}, nil
	case "sleep":
		n, err := intAt(p, v)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, errAt(p, "%d: want microseconds >= 0%s", n, line(v))
		}
		return &scenario.Step{Kind: "sleep", Sleep: sched.Time(n) * usec}, nil
	case "mem", "iorun":
		n, err := intAt(p, v)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, errAt(p, "%d: want a byte count >= 0%s", n, line(v))
		}
		im.warnOnce(kind+"\x00"+t.key, p, "%q (%d bytes) is imported as run of the time a %d GB/s memset takes; the memory and I/O subsystems are not modelled", kind, n, MemBytesPerNs)
		d := (sched.Time(n) + MemBytesPerNs - 1) / MemBytesPerNs
		return &scenario.Step{Kind: "run", Run: d}, nil
	case "timer":
		return im.timer(t, p, v)
	case "yield":
		return &scenario.Step{Kind: "yield"}, nil
	case "fork":
		if v.Kind != String {
			return nil, errAt(p, "want the name of a thread to fork, got %s%s", describe(v), line(v))
		}
		im.warnOnce("fork", p, "\"fork\" is an upstream rt-app event newer than 1.0; Debian's rt-app 1.0 ignores the key")
		t.forks = append(t.forks, v.Str)
		return &scenario.Step{Kind: "fork", Fork: v.Str}, nil
	case "lock", "unlock":
		// pthread_mutex_lock()/unlock() (core/sched/locks.go).
		if v.Kind != String || v.Str == "" {
			return nil, errAt(p, "want the name of a mutex, got %s%s", describe(v), line(v))
		}
		if kind == "lock" {
			if t.holds(v.Str) {
				return nil, errAt(p, "mutex %q is already locked in this phase: a default mutex deadlocks on itself%s", v.Str, line(v))
			}
			t.held = append(t.held, v.Str)
		} else {
			if !t.holds(v.Str) {
				return nil, errAt(p, "mutex %q is not locked earlier in this phase: unlocking a mutex the thread does not hold is undefined (the simulator needs each phase to lock before it unlocks)%s", v.Str, line(v))
			}
			t.dropHeld(v.Str)
		}
		return &scenario.Step{Kind: kind, Res: v.Str}, nil
	}
	return im.syncEvent(t, p, kind, v)
}

// syncEvent maps rt-app's inter-task events (src/rt-app.c run_event()) to
// the core's wait resources (core/sched/ipc.go). rt-app's condition
// variables keep no state: pthread_cond_signal() and _broadcast() with
// nobody waiting are lost, and pthread_cond_wait() always blocks, so
// signals are imported with cond (lost when nobody waits) and nothing ever
// leaves a pending signal for a wait to consume.
//
//	"signal": "q"                   -> {"signal": "q", "cond": true}
//	"broad": "q"                    -> {"broadcast": "q"}
//	"wait": {"ref": "q", "mutex": "m"} -> {"wait": "q", "mutex": "m"}
//	"sync": {"ref": "q", "mutex": "m"} -> signal (cond) then that wait
//	"suspend": "q"                  -> {"wait": "q"} (pthread_cond_wait)
//	"resume": "q"                   -> {"broadcast": "q"} (pthread_cond_broadcast)
//	"barrier": "b"                  -> {"barrier": "b"}
//
// suspend/resume and signal/wait share rt-app's resource namespace (both
// are rtapp_wait resources), as here. The mutex rt-app passes to
// pthread_cond_wait() is released while waiting and taken again when
// woken, if the thread locked it earlier in the phase; otherwise (rt-app's
// call is undefined then) it is left out with a warning. The mutex rt-app's
// suspend and resume lock around their condition variable is held for no
// time and left out.
func (im *importer) syncEvent(t *taskIn, p, kind string, v *Value) (*scenario.Step, error) {
	switch kind {
	case "wait", "sync":
		if v.Kind != Object {
			return nil, errAt(p, "want an object {\"ref\", \"mutex\"}, got %s%s", describe(v), line(v))
		}
		ref, mutex := "unknown", "" // rt-app's default ref
		for _, m := range v.Members {
			mp := join(p, m.Key)
			switch m.Key {
			case "ref":
				if m.Val == nil || m.Val.Kind != String {
					return nil, errAt(mp, "want a string")
				}
				ref = m.Val.Str
			case "mutex":
				if m.Val == nil || m.Val.Kind != String {
					return nil, errAt(mp, "want the name of a mutex")
				}
				if t.holds(m.Val.Str) {
					mutex = m.Val.Str
				} else {
					im.warn(mp, "mutex %q is not locked before this %s in the phase: pthread_cond_wait() on an unlocked mutex is undefined; the mutex is left out", m.Val.Str, kind)
				}
			default:
				im.warn(mp, "unknown %s key, ignored", kind)
			}
		}
		if kind == "sync" {
			t.pending = append(t.pending, scenario.Step{Kind: "wait", Res: ref, Mutex: mutex})
			return &scenario.Step{Kind: "signal", Res: ref, Cond: true}, nil
		}
		return &scenario.Step{Kind: "wait", Res: ref, Mutex: mutex}, nil
	}
	if v.Kind != String {
		return nil, errAt(p, "want the name of a resource, got %s%s", describe(v), line(v))
	}
	ref := v.Str
	if ref == "" && kind == "suspend" {
		ref = t.key // workgen's bare "suspend": the thread's own name
	}
	switch kind {
	case "signal":
		return &scenario.Step{Kind: "signal", Res: ref, Cond: true}, nil
	case "broad", "resume":
		return &scenario.Step{Kind: "broadcast", Res: ref}, nil
	case "suspend":
		return &scenario.Step{Kind: "wait", Res: ref}, nil
	}
	// barrier
	im.barriers[ref]++
	if im.barrierAt[ref] == "" {
		im.barrierAt[ref] = p
	}
	return &scenario.Step{Kind: "barrier", Res: ref}, nil
}

func (im *importer) timer(t *taskIn, p string, v *Value) (*scenario.Step, error) {
	if v.Kind != Object {
		return nil, errAt(p, "want an object {\"ref\", \"period\", \"mode\"}, got %s%s", describe(v), line(v))
	}
	tm := &scenario.Timer{Ref: "unknown", Mode: "relative"} // rt-app's defaults
	use := &timerUse{t: tm, path: p}
	for _, m := range v.Members {
		mp := join(p, m.Key)
		switch m.Key {
		case "ref":
			if m.Val == nil || m.Val.Kind != String {
				return nil, errAt(mp, "want a string")
			}
			tm.Ref = m.Val.Str
		case "period":
			n, err := intAt(mp, m.Val)
			if err != nil {
				return nil, err
			}
			if n <= 0 {
				return nil, errAt(mp, "%d: want a positive period in microseconds (a timer that never sleeps is not modelled)%s", n, line(m.Val))
			}
			tm.Period = sched.Time(n) * usec
		case "mode":
			if m.Val == nil || m.Val.Kind != String {
				return nil, errAt(mp, "want \"absolute\" or \"relative\"")
			}
			// rt-app: strncmp(mode, "absolute"); anything else is relative.
			if strings.HasPrefix(m.Val.Str, "absolute") {
				use.absolute = true
			} else if m.Val.Str != "relative" {
				im.warn(mp, "%q: rt-app treats anything but \"absolute\" as relative", m.Val.Str)
			}
		default:
			im.warn(mp, "unknown timer key, ignored")
		}
	}
	if tm.Period == 0 {
		return nil, errAt(join(p, "period"), "missing: rt-app defaults it to 0, a timer that never sleeps, which is not modelled")
	}
	t.timers = append(t.timers, use)
	return &scenario.Step{Kind: "timer", Timer: tm}, nil
}

// resolveTimers applies rt-app's timer-resource rules. The mode belongs to
// the resource: once any use says absolute, the timer is absolute. Refs
// starting with "unique" are per thread; other refs name one timer shared
// by every thread that uses it, which the core (one timer set per task)
// cannot share: it keeps one per thread and warns.
func (im *importer) resolveTimers() {
	type shared struct {
		abs     bool
		threads int
		tasks   []string
		first   string
	}
	global := map[string]*shared{}
	var order []string
	for _, t := range im.tasks {
		local := map[string]bool{}
		counted := map[string]bool{}
		for _, u := range t.timers {
			ref := u.t.Ref
			if strings.HasPrefix(ref, "unique") {
				local[ref] = local[ref] || u.absolute
				continue
			}
			s := global[ref]
			if s == nil {
				s = &shared{first: u.path}
				global[ref] = s
				order = append(order, ref)
			}
			s.abs = s.abs || u.absolute
			if !counted[ref] {
				counted[ref] = true
				s.threads += max(t.out.Instances, 1)
				s.tasks = append(s.tasks, t.key)
			}
		}
		for _, u := range t.timers {
			if abs, ok := local[u.t.Ref]; ok && abs {
				u.t.Mode = "absolute"
			}
		}
	}
	for _, t := range im.tasks {
		for _, u := range t.timers {
			if s, ok := global[u.t.Ref]; ok && s.abs {
				u.t.Mode = "absolute"
			}
		}
	}
	for _, ref := range order {
		s := global[ref]
		if s.threads > 1 {
			im.warn(s.first, "timer ref %q is shared by %d threads in rt-app (%s): one timer whose period every use advances; the core keeps one timer per thread (prefix the ref with \"unique\" to get that in rt-app)", ref, s.threads, quote.List(s.tasks))
		}
	}
}

// resolveForks maps upstream rt-app's fork: the forked thread is a task
// with "instance": 0, created by the fork event of one parent task.
func (im *importer) resolveForks() error {
	for _, t := range im.tasks {
		for _, f := range t.forks {
			c, ok := im.byName[f]
			if !ok {
				return errAt(t.path, "forks %q, which is not a thread of this file", f)
			}
			if c.out.Instances != 0 {
				return errAt(join(c.path, "instance"), "thread %q is forked by %q and also started at launch; want \"instance\": 0 for a forked thread", f, t.key)
			}
			if c.out.Parent != "" && c.out.Parent != t.out.Name {
				return errAt(c.path, "forked by both %q and %q: the core has one parent task per forked group", c.forkers[0], t.key)
			}
			c.out.Parent = t.out.Name
			c.forkers = append(c.forkers, t.key)
		}
		renameForks(t.out.Program, im.byName)
	}
	for _, t := range im.tasks {
		if t.out.Instances == 0 {
			if t.out.Parent == "" {
				im.warn(join(t.path, "instance"), "0 and no thread forks it: the thread never runs and is left out")
				continue
			}
			t.out.Instances = 1
		}
	}
	return nil
}

func renameForks(steps []scenario.Step, byName map[string]*taskIn) {
	for i := range steps {
		switch steps[i].Kind {
		case "fork":
			steps[i].Fork = byName[steps[i].Fork].out.Name
		case "loop":
			renameForks(steps[i].Loop.Program, byName)
		}
	}
}

// truncateForever drops the events after a run of -1, which never execute,
// and reports whether the program gets stuck in such a run.
func truncateForever(steps []scenario.Step) ([]scenario.Step, bool) {
	for i := range steps {
		switch steps[i].Kind {
		case "run":
			if steps[i].Run == sched.Forever {
				return steps[:i+1], true
			}
		case "loop":
			body, stuck := truncateForever(steps[i].Loop.Program)
			if stuck {
				steps[i].Loop.Program = body
				return steps[:i+1], true
			}
		}
	}
	return steps, false
}

// duplicates warns about repeated keys, which this importer keeps in order
// (as workgen does by renaming them) but rt-app run directly on the file
// would not: json-c keeps one member per key.
func (im *importer) duplicates(path string, v *Value) {
	seen := map[string]bool{}
	var dups []string
	for _, m := range v.Members {
		if seen[m.Key] && !contains(dups, m.Key) {
			dups = append(dups, m.Key)
		}
		seen[m.Key] = true
	}
	if len(dups) > 0 {
		im.warn(path, "repeated keys %s kept in file order, as workgen (rt-app's front end) renames them; rt-app run directly on this file keeps only one of each (json-c)", quote.List(dups))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
