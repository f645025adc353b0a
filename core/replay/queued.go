package replay

// Queued wakeups. try_to_wake_up() of a task whose CPU is another one
// (and, on most machines, idle) does not activate it there: with
// TTWU_QUEUE, ttwu_queue_wakelist() puts it on that CPU's wake list and
// sends an IPI, and sched_wakeup is printed later by the IPI handler on
// the wakee's CPU (sched_ttwu_pending()). sched_waking is printed in the
// waker's context when the wakeup is made. A pipe ping-pong across two
// CPUs shows it every round trip: the writer's sched_waking, the writer
// blocking in its read, then the reader's sched_wakeup in hardirq context
// on the other CPU. By the wakeup line the waker is no longer running, so
// reading the wakeup at that line's time would lose the causal chain and
// make the block an outside wakeup at a fixed time.
//
// The inference therefore takes such a wakeup at its sched_waking's time
// (ftraceimport.WakeSource.Time): the signal goes into the waker's program
// at the point it made the wakeup, and the block ends at the wakeup line,
// as any other block.

import (
	"cmp"
	"slices"

	"schedplay/core/sched"
)

// queuedSignal is a signal put into a waker's program at a sched_waking
// before the wakeup line, event, that will end the wakee's block.
type queuedSignal struct {
	event       int // the wakeup's event index; -1: none
	waker, slot int // the waker's workload index and its signal step
}

// queuedWakes returns the event indices of the wakeups whose context is a
// sched_waking with other events between it and the wakeup line, in
// sched_waking order.
func (in *inferrer) queuedWakes() []int {
	var q []int
	for i, e := range in.tr.Events {
		ws := in.tr.Wakes[i]
		if e.Kind == sched.EvWakeup && ws.FromWaking && ws.IRQ != 1 && ws.Before < i {
			q = append(q, i)
		}
	}
	slices.SortStableFunc(q, func(a, b int) int { return cmp.Compare(in.tr.Wakes[a].Before, in.tr.Wakes[b].Before) })
	return q
}

// wakingsBefore takes the queued wakeups whose sched_waking came before
// the event at index i, before that event is read.
func (in *inferrer) wakingsBefore(i int) {
	for in.nextQueued < len(in.queued) {
		j := in.queued[in.nextQueued]
		if in.tr.Wakes[j].Before > i {
			return
		}
		in.nextQueued++
		in.waking(i, j)
	}
}

// waking puts the signal of wakeup j into its waker's program when the
// waker runs (in process context) and the wakee is blocked, and nothing
// before event j, from event i on, switches the wakee in or wakes it.
func (in *inferrer) waking(i, j int) {
	e, ws := &in.tr.Events[j], in.tr.Wakes[j]
	n, w := e.Next, ws.Waker
	if n == sched.NoTask || w == sched.NoTask || w == n || int(w) >= len(in.st) || int(n) >= len(in.st) {
		return
	}
	ns, wst := &in.st[n], &in.st[w]
	if wst.idx < 0 || !wst.running || ns.idx < 0 || !ns.blocked || ns.blockStep < 0 {
		return
	}
	for k := i; k < j; k++ {
		if ek := &in.tr.Events[k]; ek.Next == n && (ek.Kind == sched.EvSwitch || ek.Kind == sched.EvWakeup) {
			return
		}
	}
	in.account(w, ws.Time)
	in.flush(w)
	pt := in.push(w, Step{Kind: StepSignal, Peer: ns.idx, At: ws.Time})
	ns.queued = queuedSignal{event: j, waker: wst.idx, slot: pt}
}
