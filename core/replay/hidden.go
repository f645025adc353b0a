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
//
// "B answers A" is read from the rounds the trace does show: a block of A
// that follows a burst in which A woke B is a request to B; it is
// answered when B's traced wakeup ends it. A background thread that A
// wakes (a kworker, a logger) and that once woke A for some other reason
// is no partner: A's blocks after waking it end by other wakeups. The
// pair qualifies once B answered at least MinAnswered of A's requests
// and at least half of them, as the rounds seen so far say (the pass is
// one: a pair's first hidden replies, before its answered rounds, are
// not restored).

import (
	"slices"

	"schedplay/core/sched"
)

// MinAnswered is the fewest traced answers of B to A's requests that make
// (A, B) a request/reply pair for the hidden replies.
const MinAnswered = 2

// pairStat counts A's requests to B (blocks after a burst that woke B)
// and those B answered (B's wakeup ended the block).
type pairStat struct{ asked, answered int }

// askedIn lists the tasks p woke in its burst since its last block (the
// workload indices of the signals after its last wait, timer or block).
func (in *inferrer) askedIn(p sched.TaskID) []int {
	t := in.task(p)
	var out []int
	for k := len(t.Steps) - 1; k >= 0; k-- {
		switch st := t.Steps[k]; st.Kind {
		case StepSignal:
			if !slices.Contains(out, st.Peer) {
				out = append(out, st.Peer)
			}
			continue
		case StepRun, StepFork:
			continue
		}
		break
	}
	return out
}

// answered counts the block of n that ended now (by the workload task
// waker, -1 from outside) against the requests n made before it.
func (in *inferrer) answered(n sched.TaskID, waker int) {
	s := &in.st[n]
	for _, b := range s.asked {
		ps := in.pairs[[2]int{s.idx, b}]
		ps.asked++
		if b == waker {
			ps.answered++
		}
		in.pairs[[2]int{s.idx, b}] = ps
	}
	s.asked = s.asked[:0]
}

// partners reports whether b answers a's requests (see above).
func (in *inferrer) partners(a, b int) bool {
	ps := in.pairs[[2]int{a, b}]
	return ps.answered >= MinAnswered && 2*ps.answered >= ps.asked
}

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
// wakeup had preempted, and prev answers next's requests (partners),
// prev answered next without a wakeup.
func (in *inferrer) hiddenReply(prev sched.TaskID, state byte, next sched.TaskID, now sched.Time) {
	if next == sched.NoTask || next == prev || state == 'R' || state == 'X' {
		return
	}
	ns, ps := &in.st[next], &in.st[prev]
	if ns.preemptedBy != prev || ns.running || ns.blocked || ps.blocked || !ps.running {
		return
	}
	if !in.partners(ns.idx, ps.idx) {
		return
	}
	ns.preemptedBy = sched.NoTask
	in.account(prev, now)
	in.flush(prev)
	in.push(prev, Step{Kind: StepSignal, Peer: ns.idx, At: now, Hidden: true})
	in.flush(next)
	in.push(next, Step{Kind: StepWait, Peer: ps.idx, At: now, Hidden: true})
	in.w.HiddenReplies++
}
