package scenario

// Scenario support for the deadline class and mutexes: the
// SCHED_DEADLINE task parameters and the mutex resources of lock/unlock
// steps (see sched/dl.go, sched/locks.go).

import (
	"fmt"
	"sort"

	"schedplay/core/sched"
)

// buildDL checks and converts a task group's deadline parameters:
// dl_runtime is required; a missing dl_deadline or dl_period is the other
// one (rt-app's defaults, and the kernel's period 0 = deadline).
func buildDL(p string, t Task, spec *sched.TaskSpec, ncpu int) error {
	if !spec.Policy.IsDeadline() {
		for _, f := range []struct {
			key string
			v   Duration
		}{{"dl_runtime", t.DLRuntime}, {"dl_deadline", t.DLDeadline}, {"dl_period", t.DLPeriod}} {
			if f.v != 0 {
				return errAt(p+"."+f.key, "only SCHED_DEADLINE tasks have it (policy is %s)", spec.Policy)
			}
		}
		return nil
	}
	if t.Priority != 0 {
		return errAt(p+".priority", "%d: SCHED_DEADLINE tasks have dl_runtime/dl_deadline/dl_period, no priority", t.Priority)
	}
	if t.DLRuntime <= 0 {
		return errAt(p+".dl_runtime", "missing: a SCHED_DEADLINE task needs dl_runtime and dl_period (or dl_deadline)")
	}
	d := sched.DLParams{Runtime: t.DLRuntime, Deadline: t.DLDeadline, Period: t.DLPeriod}
	if d.Deadline == 0 {
		d.Deadline = d.Period
	}
	if d.Period == 0 {
		d.Period = d.Deadline
	}
	if d.Period == 0 {
		return errAt(p+".dl_period", "missing: a SCHED_DEADLINE task needs dl_period or dl_deadline")
	}
	if err := sched.CheckDLParams(d); err != nil {
		return errAt(p, "%v", err)
	}
	if t.CPUs != nil && len(t.CPUs) < ncpu {
		return errAt(p+".cpus", "a SCHED_DEADLINE task's affinity must span all %d CPUs (sched_setattr() fails with EPERM otherwise)", ncpu)
	}
	spec.DL = d
	return nil
}

// useMutex returns the index of mutex name. Mutex names are a namespace
// of their own: a mutex and an event may share a name, as rt-app's typed
// resources do.
func (rs *resTable) useMutex(path, name string) (int, error) {
	if !resNameOK(name) {
		return 0, errAt(path, "%q: want a mutex name of 1-64 printable characters", name)
	}
	i, ok := rs.mutexes[name]
	if !ok {
		i = len(rs.list)
		rs.mutexes[name] = i
		rs.list = append(rs.list, sched.Resource{Name: name, Mutex: true})
		rs.barrier = append(rs.barrier, false)
		rs.mutex = append(rs.mutex, true)
	}
	return i, nil
}

// checkLockBalance rejects a program whose locks and unlocks cannot pair
// up within one pass of the body (a task may not exit holding a mutex).
func checkLockBalance(p string, steps []Step) error {
	held := map[string]bool{}
	var walk func(string, []Step) error
	walk = func(path string, steps []Step) error {
		for i, st := range steps {
			sp := fmt.Sprintf("%s[%d]", path, i)
			switch st.Kind {
			case "lock":
				if held[st.Res] {
					return errAt(sp+".lock", "mutex %q is already held here: a default mutex deadlocks on itself", st.Res)
				}
				held[st.Res] = true
			case "unlock":
				if !held[st.Res] {
					return errAt(sp+".unlock", "mutex %q is not held here (lock it first in this program)", st.Res)
				}
				delete(held, st.Res)
			case "wait":
				if st.Mutex != "" && !held[st.Mutex] {
					return errAt(sp+".mutex", "mutex %q is not held here; a wait can release only a mutex the task holds", st.Mutex)
				}
			case "loop":
				before := len(held)
				if err := walk(sp+".loop.program", st.Loop.Program); err != nil {
					return err
				}
				if len(held) != before {
					return errAt(sp+".loop", "the loop body locks and unlocks unevenly; each iteration must release what it takes")
				}
			}
		}
		return nil
	}
	if err := walk(p, steps); err != nil {
		return err
	}
	if len(held) > 0 {
		names := make([]string, 0, len(held))
		for name := range held {
			names = append(names, name)
		}
		sort.Strings(names)
		return errAt(p, "mutex %q is still held at the end of the program: unlock it", names[0])
	}
	return nil
}
