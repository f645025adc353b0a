package sched

// Moving a task between task groups: kernel/sched/core.c
// sched_move_task() with sched_change_group(), and fair.c
// task_change_group_fair() -> detach_task_cfs_rq() / attach_task_cfs_rq()
// with propagate_entity_cfs_rq(). rt-app changes a thread's taskgroup at a
// phase boundary by writing its tid to the group's cgroup.procs, which
// ends in sched_move_task() for the running thread itself (OpCgroup).
//
// The running task is dequeued as a move (DEQUEUE_SAVE|DEQUEUE_MOVE: not a
// sleep, so legacy CFS keeps its vruntime relative and EEVDF its lag and
// relative deadline), put, switched to the new group's cfs_rq with its
// PELT averages detached from the old one and attached to the new one,
// enqueued and set again. From v6.0 [inferred] sched_move_task() ends with
// resched_curr(): the new group may be throttled, or its entity may not be
// the one to run.

// moveTaskGroup mirrors sched_move_task() for the running task t.
func (s *Sim) moveTaskGroup(rq *rq, t *Task, cg int) {
	s.emit(Event{Kind: EvCgroupAttach, CPU: rq.cpu, Prev: NoTask, Next: t.id, Arg: int64(cg)})
	if !s.grouped() || t.isRT() || t.isDL() {
		if s.grouped() {
			if t.isRT() && rq.curr == t {
				s.updateCurrRT(rq) // the time so far is the old group's (dequeue_task_rt())
			}
			t.tg = s.tgs[cg] // another class: only the membership changes
			if t.tg == nil {
				t.tg = s.autogroupOf(s.cfg.Tasks[t.group].Session)
			}
			t.depth = s.tgDepth(t.tg)
			s.setTaskRq(t)
			if t.isRT() {
				s.moveRTGroup(rq, t) // rt_group.go
			}
		}
		return
	}
	tg := s.tgs[cg]
	if tg == nil {
		tg = s.autogroupOf(s.cfg.Tasks[t.group].Session) // autogroup_task_group()
	}
	if tg == t.tg {
		return
	}
	s.updateRqClock(rq)
	running := rq.curr == t && s.fairCurr(t)
	s.dequeueTask(rq, t, 0)
	if running {
		s.putPrev(rq, t)
	}
	// task_change_group_fair(): detach from the old cfs_rq, attach to the new.
	s.updateLoadAvg(rq, t, 0)
	s.detachEntityLoadAvg(s.cfsOf(t), t)
	s.updateTGLoadAvg(s.cfsOf(t))
	s.propagateEntityCfsRq(rq, t)
	t.tg, t.depth = tg, s.tgDepth(tg)
	s.setTaskRq(t)
	s.attachEntityLoadAvg(s.cfsOf(t), t)
	s.updateTGLoadAvg(s.cfsOf(t))
	s.propagateEntityCfsRq(rq, t)
	s.enqueueTask(rq, t, 0)
	if running {
		s.setNext(rq, t)
		if s.rules.moveResched {
			s.reschedCurr(rq, ReasonCgroupMove, NoTask, false)
		}
	}
}

// tgDepth is the depth of a task in tg.
func (s *Sim) tgDepth(tg *taskGroup) int {
	if tg == nil {
		return 0
	}
	return tg.depth + 1
}

// propagateEntityCfsRq mirrors propagate_entity_cfs_rq(): update the
// ancestors of se so that the change of its cfs_rq's sums moves up.
func (s *Sim) propagateEntityCfsRq(rq *rq, se *Task) {
	for p := s.parentOf(se); p != nil; p = s.parentOf(p) {
		if !s.cfsOf(p).bwq.throttled {
			s.updateLoadAvg(rq, p, peltUpdateTG)
		}
	}
}

// TaskCgroup is the cgroup task id is in now (0 = root).
func (s *Sim) TaskCgroup(id TaskID) int {
	if tg := s.tasks[id].tg; tg != nil && tg.id <= len(s.cfg.Cgroups) {
		return tg.id
	}
	return 0 // the root, or its autogroup
}
