package sched

// Autogroup (CONFIG_SCHED_AUTOGROUP, sched_autogroup_enabled):
// kernel/sched/autogroup.c sched_autogroup_create_attach() gives every
// session (setsid()) its own task group below the root, and
// autogroup_task_group() schedules a task of the root cgroup through its
// session's autogroup. An autogroup's weight follows its nice value
// (/proc/<pid>/autogroup, autogroup_nice 0 = shares 1024, the default):
// sched_autogroup_set_nice() sets the group's shares to
// scale_load(sched_prio_to_weight[nice + 20]) and refuses a nice outside
// -20..19 (-EINVAL). Config.AutogroupNice gives each session's nice; the
// write happens before the run, so the group starts with those shares.
//
// Here the tasks of the root cgroup (TaskSpec.Cgroup 0) are grouped by
// TaskSpec.Session, one autogroup per session in order of first
// appearance; tasks in a cgroup are unaffected, as in the kernel. An
// autogroup is not a cgroup: it has no number in Config.Cgroups and no
// cpu.stat (TaskCgroup() says 0, the root).

import "fmt"

// autogroup is one session's group.
type autogroup struct {
	session int
	tg      *taskGroup
}

// initAutogroups creates the autogroups of the root cgroup's sessions.
func (s *Sim) initAutogroups() {
	if !s.cfg.Autogroup {
		return
	}
	for _, spec := range s.cfg.Tasks {
		if spec.Cgroup != 0 || s.autogroupOf(spec.Session) != nil {
			continue
		}
		id := len(s.tgs)
		shares := prioToWeight[s.autogroupNice(spec.Session)+20] // sched_autogroup_set_nice()
		tg := s.newTaskGroup(id, fmt.Sprintf("/autogroup-%d", len(s.autogroups)+1), nil, s.arith.scaleLoad(shares))
		s.tgs = append(s.tgs, tg)
		s.autogroups = append(s.autogroups, autogroup{session: spec.Session, tg: tg})
	}
}

// checkAutogroupNice refuses what sched_autogroup_set_nice() refuses, and
// a nice that would have no autogroup to apply to.
func (s *Sim) checkAutogroupNice() error {
	for sess, nice := range s.cfg.AutogroupNice {
		if nice < -20 || nice > 19 {
			return fmt.Errorf("autogroup nice of session %d: %d, want -20..19 (sched_autogroup_set_nice())", sess, nice)
		}
		if nice != 0 && !s.cfg.Autogroup {
			return fmt.Errorf("autogroup nice of session %d: %d needs sched_autogroup_enabled (kernel.autogroup=on)", sess, nice)
		}
	}
	return nil
}

// autogroupNice is the autogroup nice of session (Config.AutogroupNice).
func (s *Sim) autogroupNice(session int) int {
	if session >= 0 && session < len(s.cfg.AutogroupNice) {
		return s.cfg.AutogroupNice[session]
	}
	return 0
}

// autogroupOf is the autogroup of session (nil when autogroup is off).
func (s *Sim) autogroupOf(session int) *taskGroup {
	for _, a := range s.autogroups {
		if a.session == session {
			return a.tg
		}
	}
	return nil
}
