package sched

// Autogroup (CONFIG_SCHED_AUTOGROUP, sched_autogroup_enabled):
// kernel/sched/autogroup.c sched_autogroup_create_attach() gives every
// session (setsid()) its own task group below the root, and
// autogroup_task_group() schedules a task of the root cgroup through its
// session's autogroup. An autogroup's weight follows its nice value
// (/proc/<pid>/autogroup, autogroup_nice 0 = shares 1024, the default).
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
		tg := s.newTaskGroup(id, fmt.Sprintf("/autogroup-%d", len(s.autogroups)+1), nil, s.arith.scaleLoad(1024))
		s.tgs = append(s.tgs, tg)
		s.autogroups = append(s.autogroups, autogroup{session: spec.Session, tg: tg})
	}
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
