package scenario

// The setattr and nice program events: sched_setattr() /
// sched_setscheduler() and setpriority() during a run, of the task itself
// or (with "task") of every instance of another task group
// (core/sched/setattr.go).

import (
	"fmt"

	"schedplay/core/sched"
)

// SetAttr is a setattr event: the new policy and its parameter.
type SetAttr struct {
	Policy string
	// Nice is the new nice of a fair policy; nil keeps the task's
	// (sched_setscheduler() passes the task's own nice).
	Nice     *int
	Priority int // rt_priority of SCHED_FIFO/SCHED_RR
	// DLRuntime, DLDeadline and DLPeriod are SCHED_DEADLINE's parameters
	// (a missing deadline is the period, a missing period the deadline).
	DLRuntime, DLDeadline, DLPeriod Duration
}

// decodeSetAttr reads the object of a setattr event at kp.
func decodeSetAttr(kp string, x any) (*SetAttr, error) {
	m, err := asObject(kp, x)
	if err != nil {
		return nil, err
	}
	if err := onlyKeys(kp, m, "policy", "nice", "priority", "dl_runtime", "dl_deadline", "dl_period"); err != nil {
		return nil, err
	}
	a := &SetAttr{}
	pv, ok := m["policy"].(string)
	if !ok {
		return nil, errAt(kp+".policy", "missing; want SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE")
	}
	pol, err := sched.ParsePolicy(pv)
	if err != nil {
		return nil, errAt(kp+".policy", "%v", err)
	}
	a.Policy = pol.String()
	if v, ok := m["nice"]; ok {
		n, err := asInt(kp+".nice", v)
		if err != nil {
			return nil, err
		}
		if n < -20 || n > 19 {
			return nil, errAt(kp+".nice", "%d: want -20..19", n)
		}
		if !pol.IsRT() && !pol.IsDeadline() {
			a.Nice = &n
		} else {
			return nil, errAt(kp+".nice", "%s takes no nice (only the fair policies have one)", pol)
		}
	}
	if v, ok := m["priority"]; ok {
		if a.Priority, err = asInt(kp+".priority", v); err != nil {
			return nil, err
		}
	}
	switch {
	case pol.IsRT() && (a.Priority < 1 || a.Priority > 99):
		return nil, errAt(kp+".priority", "%d: %s needs an rt_priority 1..99", a.Priority, pol)
	case !pol.IsRT() && a.Priority != 0:
		return nil, errAt(kp+".priority", "%s takes no priority (only SCHED_FIFO and SCHED_RR have one)", pol)
	}
	for _, k := range [...]string{"dl_runtime", "dl_deadline", "dl_period"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		if !pol.IsDeadline() {
			return nil, errAt(kp+"."+k, "%s takes no deadline parameters (only SCHED_DEADLINE has them)", pol)
		}
		d, err := asDuration(kp+"."+k, v)
		if err != nil {
			return nil, err
		}
		switch k {
		case "dl_runtime":
			a.DLRuntime = d
		case "dl_deadline":
			a.DLDeadline = d
		default:
			a.DLPeriod = d
		}
	}
	if pol.IsDeadline() {
		if a.DLRuntime == 0 {
			return nil, errAt(kp+".dl_runtime", "missing; SCHED_DEADLINE needs dl_runtime and dl_deadline or dl_period")
		}
		if a.DLDeadline == 0 {
			a.DLDeadline = a.DLPeriod
		}
		if a.DLPeriod == 0 {
			a.DLPeriod = a.DLDeadline
		}
		if err := sched.CheckDLParams(a.dlParams()); err != nil {
			return nil, errAt(kp, "%v", err)
		}
	}
	return a, nil
}

func (a *SetAttr) dlParams() sched.DLParams {
	return sched.DLParams{Runtime: a.DLRuntime, Deadline: a.DLDeadline, Period: a.DLPeriod}
}

// decodeNice reads a nice event's value at kp.
func decodeNice(kp string, x any) (int, error) {
	n, err := asInt(kp, x)
	if err != nil {
		return 0, err
	}
	if n < -20 || n > 19 {
		return 0, errAt(kp, "%d: want -20..19", n)
	}
	return n, nil
}

// decodeTaskModifier takes the "task" of a setattr or nice event out of m.
func decodeTaskModifier(p string, m map[string]any, st *Step) error {
	x, ok := m["task"]
	if !ok {
		return nil
	}
	_, sa := m["setattr"]
	_, ni := m["nice"]
	if !sa && !ni {
		return errAt(p+".task", "only a setattr or nice event takes task (the task group it changes)")
	}
	name, ok := x.(string)
	if !ok || name == "" {
		return errAt(p+".task", "want the name of a task group")
	}
	st.Task = name
	delete(m, "task")
	return nil
}

// setattrOp compiles a setattr or nice event at sp.
func setattrOp(sp string, st Step, groups map[string]int) (sched.Op, error) {
	a := &sched.Attr{Group: -1, Nice: st.Nice}
	kind := sched.OpNice
	if st.Task != "" {
		gi, ok := groups[st.Task]
		if !ok {
			return sched.Op{}, errAt(sp+".task", "no task group named %q", st.Task)
		}
		a.Group = gi
	}
	if st.Kind == "setattr" {
		kind = sched.OpSetattr
		sa := st.SetAttr
		pol, err := sched.ParsePolicy(sa.Policy)
		if err != nil {
			return sched.Op{}, errAt(sp+".setattr.policy", "%v", err)
		}
		a.Policy, a.RTPrio, a.Nice, a.KeepNice = pol, sa.Priority, 0, sa.Nice == nil
		if sa.Nice != nil {
			a.Nice = *sa.Nice
		}
		if pol.IsDeadline() {
			a.DL = sa.dlParams()
		}
	}
	if err := a.Check(kind == sched.OpNice); err != nil {
		return sched.Op{}, errAt(sp+"."+st.Kind, "%v", err)
	}
	return sched.Op{Kind: kind, Attr: a}, nil
}

// encodeSetAttr writes a setattr event's object.
func encodeSetAttr(w *jw, a *SetAttr) {
	f := true
	w.b.WriteByte('{')
	w.key("policy", &f)
	w.str(a.Policy)
	if a.Nice != nil {
		w.key("nice", &f)
		w.b.WriteString(fmt.Sprint(*a.Nice))
	}
	if a.Priority != 0 {
		w.key("priority", &f)
		w.b.WriteString(fmt.Sprint(a.Priority))
	}
	for _, d := range [...]struct {
		k string
		v Duration
	}{{"dl_runtime", a.DLRuntime}, {"dl_deadline", a.DLDeadline}, {"dl_period", a.DLPeriod}} {
		if d.v != 0 {
			w.key(d.k, &f)
			w.str(FormatDuration(d.v))
		}
	}
	w.b.WriteByte('}')
}
