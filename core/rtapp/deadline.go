package rtapp

// SCHED_DEADLINE threads and mutexes: rt-app's dl-runtime, dl-period and
// dl-deadline thread keys (µs; doc/tutorial.txt: the period defaults to the
// runtime and the deadline to the period) become the scenario's dl_runtime,
// dl_period and dl_deadline; the mutexes of lock/unlock events are tracked
// per phase so that a wait names the mutex it releases only when the
// thread holds it.

import (
	"schedplay/core/sched"
)

// deadline reads the deadline keys of a thread of policy pol.
func (im *importer) deadline(t *taskIn, v *Value, pol string) error {
	var vals [3]int64
	keys := [3]string{"dl-runtime", "dl-period", "dl-deadline"}
	var given [3]bool
	for i, k := range keys {
		m := v.Get(k)
		if m == nil {
			continue
		}
		p := join(t.path, k)
		if pol != "SCHED_DEADLINE" {
			im.warn(p, "ignored: only SCHED_DEADLINE threads use it")
			continue
		}
		n, err := intAt(p, m.Val)
		if err != nil {
			return err
		}
		if n <= 0 {
			return errAt(p, "%d: want a positive number of microseconds%s", n, line(m.Val))
		}
		vals[i], given[i] = int64(n), true
	}
	if pol != "SCHED_DEADLINE" {
		return nil
	}
	if !given[0] {
		return errAt(t.path, "a SCHED_DEADLINE thread needs dl-runtime (rt-app's default 0 makes sched_setattr() fail with EINVAL)")
	}
	if !given[1] {
		vals[1] = vals[0]
	}
	if !given[2] {
		vals[2] = vals[1]
	}
	t.out.DLRuntime = sched.Time(vals[0]) * usec
	t.out.DLPeriod = sched.Time(vals[1]) * usec
	t.out.DLDeadline = sched.Time(vals[2]) * usec
	if err := sched.CheckDLParams(sched.DLParams{Runtime: t.out.DLRuntime, Deadline: t.out.DLDeadline, Period: t.out.DLPeriod}); err != nil {
		return errAt(t.path, "%v (sched_setattr() fails with EINVAL and rt-app exits)", err)
	}
	return nil
}

// holds reports whether the thread locked mutex m earlier in the phase.
func (t *taskIn) holds(m string) bool {
	for _, h := range t.held {
		if h == m {
			return true
		}
	}
	return false
}

func (t *taskIn) dropHeld(m string) {
	for i, h := range t.held {
		if h == m {
			t.held = append(t.held[:i], t.held[i+1:]...)
			return
		}
	}
}
