package replay

// Hidden replies of a request/reply pair on one CPU. A pipe ping-pong
// pinned to one CPU: A writes (try_to_wake_up() of B, which
// check_preempt_wakeup_fair() lets preempt A: A is switched out R), B
// reads, writes its reply and blocks in its next read; A is switched back
// in and its read returns at once, the reply already in the pipe. B's
// write woke nobody (A was not on the pipe's wait queue, so
// __wake_up_common() traced nothing) and A never blocked: the trace shows
// neither the reply nor the wait, and a replay without them lets A run
// ahead of B, far fewer switches than the trace.
//
// The inference restores them where the trace shows the pattern of a
// pair that answers each other: A switched out runnable right after
// waking B (its last step a signal to B), B switched in on A's CPU in the
// same sched_switch, A switched back in by B blocking, and B having woken
// A by a traced wakeup before (the pair talks both ways). Then B's
// program gets a signal to A just before its block and A's a wait on B
// at its switch-in: the replay's A resumes only once B has answered, as
// the kernel's A only found the answer because B had written it. A task
// preempted by a wakee that never wakes it back (a producer and its
// consumer) gets nothing: its work does not wait for the consumer.

import "schedplay/core/sched"

// preemptedByWakee records that p, switched out with state, was preempted
// by next, the task it had just woken.
func (in *inferrer) preemptedByWakee(p sched.TaskID, state byte, next sched.TaskID) {
	s := &in.st[p]
	s.preemptedBy = sched.NoTask
	if state != 'R' || next == sched.NoTask || next == p {
		return
	}
	t := in.task(p)
	for k := len(t.Steps) - 1; k >= 0; k-- {
		switch st := t.Steps[k]; st.Kind {
		case StepSignal:
			if st.Peer == in.st[next].idx {
				s.preemptedBy = next
				return
			}
			continue // other wakeups of the same burst
		}
		return
	}
}

// hiddenReply handles a sched_switch of prev (state) to next before prev
// is switched out: if prev blocks and next is the task that prev's
// wakeup had preempted, and prev has woken next before, prev answered
// next without a wakeup.
func (in *inferrer) hiddenReply(prev sched.TaskID, state byte, next sched.TaskID, now sched.Time) {
	if next == sched.NoTask || next == prev || state == 'R' || state == 'X' {
		return
	}
	ns, ps := &in.st[next], &in.st[prev]
	if ns.preemptedBy != prev || ns.running || ns.blocked || ps.blocked || !ps.running {
		return
	}
	if !in.woke[[2]int{ps.idx, ns.idx}] {
		return
	}
	ns.preemptedBy = sched.NoTask
	in.account(prev, now)
	in.flush(prev)
	in.push(prev, Step{Kind: StepSignal, Peer: ns.idx, At: now})
	in.flush(next)
	in.push(next, Step{Kind: StepWait, Peer: ps.idx, At: now})
	in.w.HiddenReplies++
}
