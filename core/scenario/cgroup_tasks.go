package scenario

// Tasks in cgroups: a task group's "taskgroup" (the cgroup its instances
// start in, TaskSpec.Cgroup), its "session" (TaskSpec.Session, the
// autogroup of a root-cgroup task) and the "taskgroup" step, which moves
// the running task to another cgroup as rt-app does at a phase boundary
// (writing its tid into the group's cgroup.procs: cpu_cgroup_attach() ->
// sched_move_task()).

import (
	"strconv"

	"schedplay/core/quote"
	"schedplay/core/sched"
)

// placeTask sets the start cgroup and session of a task group.
func (rs *resTable) placeTask(p string, t Task, spec *sched.TaskSpec) error {
	k, err := rs.cgroupOf(p+".taskgroup", t.Cgroup, t)
	if err != nil {
		return err
	}
	spec.Cgroup = k
	if t.Session != "" {
		if !resNameOK(t.Session) {
			return errAt(p+".session", "%q: want a session name of 1-64 printable characters", t.Session)
		}
		n, ok := rs.sessions[t.Session]
		if !ok {
			n = len(rs.sessions) + 1
			rs.sessions[t.Session] = n
		}
		spec.Session = n
	}
	return rs.setSessionNice(p, t, spec.Session)
}

// setSessionNice records the "autogroup_nice" of task group t for its
// session (sched_autogroup_set_nice() on the session's autogroup); two
// task groups of one session naming different values are refused.
func (rs *resTable) setSessionNice(p string, t Task, session int) error {
	if t.AutogroupNice == nil {
		return nil
	}
	for len(rs.sessionNice) <= session {
		rs.sessionNice = append(rs.sessionNice, 0)
		rs.niceFrom = append(rs.niceFrom, "")
	}
	nice := *t.AutogroupNice
	if from := rs.niceFrom[session]; from != "" && rs.sessionNice[session] != nice {
		return errAt(p+".autogroup_nice", "%d: %s set this session's autogroup nice to %d; task groups of one session share one autogroup", nice, from, rs.sessionNice[session])
	}
	rs.sessionNice[session], rs.niceFrom[session] = nice, p+".autogroup_nice"
	return nil
}

// cgroupOf returns the number of the cgroup at path for task group t,
// refusing what the kernel refuses when such a task joins it: with RT
// group scheduling, an RT task may only join a group with RT runtime
// (sched_rt_can_attach(): -EINVAL from cgroup.procs, EPERM from
// sched_setscheduler()).
func (rs *resTable) cgroupOf(p, path string, t Task) (int, error) {
	k, ok := rs.cgroups.index[cleanGroup(path)]
	if !ok {
		panic("cgroupOf: " + path + " was not resolved by buildCgroups")
	}
	if k == 0 || !rs.cgroups.rtGroup {
		return k, nil
	}
	if pol, _ := sched.ParsePolicy(t.Policy); pol.IsRT() && rs.cgroups.specs[k-1].RTRuntime == 0 {
		return 0, errAt(p, "%s is an RT task and %s has no RT runtime (cpu.rt_runtime_us 0 with kernel.rt_group_sched=on): the kernel refuses it (sched_rt_can_attach())", quote.Clip(t.Name), quote.Clip(path))
	}
	return k, nil
}

// cgroupMove is the op of a taskgroup step of task group t.
func (rs *resTable) cgroupMove(p, path string, t Task) (sched.Op, error) {
	k, err := rs.cgroupOf(p, path, t)
	if err != nil {
		return sched.Op{}, err
	}
	return cgroupMoveOp(p, k)
}

// setAutogroupNice applies -set tasks.NAME.autogroup_nice=N.
func (sc *Scenario) setAutogroupNice(key, group, val string) error {
	n, err := strconv.Atoi(val)
	if err != nil || n < -20 || n > 19 {
		return errAt(key, "%q: want an autogroup nice -20..19 (sched_autogroup_set_nice())", val)
	}
	// Copy the slice first: cloned scenarios share it.
	sc.Tasks = append([]Task(nil), sc.Tasks...)
	found := false
	for i := range sc.Tasks {
		if sc.Tasks[i].Name == group {
			sc.Tasks[i].AutogroupNice, found = &n, true
		}
	}
	if !found {
		return errAt(key, "no task group %q in the scenario", group)
	}
	return nil
}
