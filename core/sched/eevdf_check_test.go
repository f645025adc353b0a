package sched

// fairChecker is a Sink that, at every event, compares the fair runqueues'
// state with the brute-force references of eevdf_ref_test.go:
//
//   - every profile: min_vruntime never goes backwards (update_min_vruntime());
//   - EEVDF: avgVruntimeOf() == floor(Σ v w / Σ w); eligible() == (v <= V)
//     exactly; for v6.12+, eevdfPick(q, false) == the reference
//     __pick_eevdf(); for v6.6, the pick is eligible and no eligible entity
//     has an earlier deadline;
//   - EEVDF placement (place_entity()): a task woken or created (not a
//     delayed one requeued) gets v = V - vlag * (W + w) / W (div_s64
//     truncation; V and W over the entities queued before it, lag only with
//     PLACE_LAG and a non-empty queue) and deadline = v + vslice, halved for
//     a new task under PLACE_DEADLINE_INITIAL from v6.12;
//   - EEVDF lag: a task dequeued for sleep or exit has
//     vlag == clamp(V - v, ±calc_delta_fair(max(2*slice, TICK_NSEC))), with V
//     over the entities queued at that dequeue; every dequeued task keeps
//     |vlag| within that limit; with DELAY_ZERO a delayed task that is
//     finally dequeued keeps no positive lag.

import (
	"fmt"
	"math/big"
	"testing"
)

type taskSnap struct {
	onRq, delayed bool
	cpu           CPUID
}

type checkStats struct {
	events, picks, placements, lagExact, lagClamped, lagAmbiguous, delayedZero int
}

func (a *checkStats) add(b checkStats) {
	a.events += b.events
	a.picks += b.picks
	a.placements += b.placements
	a.lagExact += b.lagExact
	a.lagClamped += b.lagClamped
	a.lagAmbiguous += b.lagAmbiguous
	a.delayedZero += b.delayedZero
}

type fairChecker struct {
	t      testing.TB
	s      *Sim
	replay string // how to replay a failure
	fails  int
	snap   map[TaskID]taskSnap
	minV   []int64
	stats  checkStats
	// pulledAt[cpu] is when newidle balance last pulled a task to cpu:
	// the switch that follows sees a queue the dequeue did not.
	pulledAt map[CPUID]Time
}

func newFairChecker(t testing.TB, s *Sim, replay string) *fairChecker {
	c := &fairChecker{t: t, s: s, replay: replay, snap: map[TaskID]taskSnap{}, pulledAt: map[CPUID]Time{}}
	for _, fq := range s.fairRqs() {
		c.minV = append(c.minV, fq.q.minVruntime)
	}
	return c
}

const maxCheckFailures = 5

func (c *fairChecker) failf(e *Event, format string, args ...any) {
	c.t.Helper()
	c.fails++
	if c.fails > maxCheckFailures {
		return
	}
	c.t.Errorf("at %s after %q: %s\n\treplay: %s", e.Time, e.Describe(), fmt.Sprintf(format, args...), c.replay)
}

// Event implements Sink.
func (c *fairChecker) Event(e *Event) {
	c.stats.events++
	s := c.s
	if e.Kind == EvMigrate && e.Reason == ReasonNewidleBalance {
		c.pulledAt[e.CPU] = e.Time
	}
	fqs := s.fairRqs()
	for _, fq := range fqs {
		if fq.q.minVruntime < c.minV[fq.cpu] {
			c.failf(e, "cpu %d min_vruntime went back from %d to %d", fq.cpu, c.minV[fq.cpu], fq.q.minVruntime)
		}
		c.minV[fq.cpu] = fq.q.minVruntime
		if s.isEEVDF() {
			c.checkQueue(e, fq)
		}
	}
	if s.isEEVDF() {
		c.checkLag(e, fqs)
		if e.Kind == EvWakeup || e.Kind == EvWakeupNew {
			c.checkPlacement(e, fqs[e.CPU])
		}
	}
	for _, t := range s.allTasks() {
		c.snap[t.id] = taskSnap{onRq: t.se.onRq, delayed: t.se.delayed, cpu: t.cpu}
	}
}

func (c *fairChecker) checkQueue(e *Event, fq fairRq) {
	s := c.s
	if len(fq.entities) == 0 {
		return
	}
	want, _ := refAvgVruntime(s, fq.entities)
	if got := fq.q.avgVruntimeOf(s); got != want {
		c.failf(e, "cpu %d avg_vruntime %d, brute force floor(Σvw/Σw) = %d", fq.cpu, got, want)
	}
	for _, t := range fq.entities {
		if got, want := fq.q.eligible(s, t), refEligible(s, fq.entities, t.se.vruntime); got != want {
			c.failf(e, "cpu %d task %s (v=%d): eligible=%v, exact v<=V says %v", fq.cpu, t.name, t.se.vruntime, got, want)
		}
	}
	got, _ := s.eevdfPick(fq.q, false)
	c.stats.picks++
	if s.rules.deadlineTree {
		if want := refPick612(s, fq); got != want {
			c.failf(e, "cpu %d __pick_eevdf picked %s, brute force picks %s", fq.cpu, taskName(got), taskName(want))
		}
		return
	}
	// v6.6: some eligible entity exists whenever one is queued (the minimum
	// vruntime is at most the average), and the pick is one with the
	// earliest deadline among the eligible.
	if got == nil || !refEligible(s, fq.entities, got.se.vruntime) {
		c.failf(e, "cpu %d pick_eevdf picked %s, which is not eligible", fq.cpu, taskName(got))
		return
	}
	for _, t := range fq.entities {
		if refEligible(s, fq.entities, t.se.vruntime) && t.se.deadline < got.se.deadline {
			c.failf(e, "cpu %d pick_eevdf picked %s (deadline %d) over eligible %s (deadline %d)",
				fq.cpu, got.name, got.se.deadline, t.name, t.se.deadline)
		}
	}
}

func taskName(t *Task) string {
	if t == nil {
		return "<nil>"
	}
	return t.name
}

// lagLimit is calc_delta_fair(max(2*slice, TICK_NSEC), se).
func (c *fairChecker) lagLimit(t *Task) int64 {
	return refCalcDeltaFair(max(2*t.se.slice, int64(c.s.tickPeriod())), t.se.load.weight, uint64(t.se.load.invWeight))
}

func (c *fairChecker) checkLag(e *Event, fqs []fairRq) {
	s := c.s
	if e.Kind == EvSwitch && (e.PrevState == 'S' || e.PrevState == 'X') {
		if prev := s.task(e.Prev); !prev.se.onRq {
			c.checkDequeueLag(e, fqs[e.CPU], prev)
		}
	}
	for _, t := range s.allTasks() {
		if t.se.onRq || t.state == stateUnborn {
			continue
		}
		lim := c.lagLimit(t)
		if t.se.vlag > lim || t.se.vlag < -lim {
			c.failf(e, "dequeued task %s has vlag %d outside ±%d", t.name, t.se.vlag, lim)
		}
		if was := c.snap[t.id]; was.onRq && was.delayed && !t.se.delayed {
			// finish_delayed_dequeue_entity(): DELAY_ZERO clips positive lag.
			// A delayed task the balancer moves (v6.12, and v6.14+ under
			// migrate_load) is dequeued without DEQUEUE_DELAYED: it stays
			// delayed, keeps its lag and is placed with it on the new CPU.
			c.stats.delayedZero++
			if s.features().Has(DelayZero) && t.se.vlag > 0 {
				c.failf(e, "delayed task %s left with positive vlag %d under DELAY_ZERO", t.name, t.se.vlag)
			}
		}
	}
}

// checkDequeueLag checks the lag saved when prev was dequeued in this
// schedule(): V over the entities queued at that moment, which are prev and
// those queued now. When a delayed entity of this CPU left the queue since
// the previous event, it may have left before or after prev (schedule() can
// run several times between two events when it keeps curr), so the set is
// ambiguous and only the bound is checked. Likewise when prev was
// ineligible under DELAY_DEQUEUE: it was delayed and then dequeued by the
// pick, with the lag of that later moment.
func (c *fairChecker) checkDequeueLag(e *Event, fq fairRq, prev *Task) {
	s := c.s
	if at, ok := c.pulledAt[fq.cpu]; ok && at == e.Time {
		c.stats.lagAmbiguous++
		return
	}
	for _, t := range s.allTasks() {
		if was := c.snap[t.id]; t != prev && !t.se.onRq && was.onRq && was.delayed && was.cpu == fq.cpu {
			c.stats.lagAmbiguous++
			return
		}
	}
	set := append([]*Task{prev}, fq.entities...)
	if e.PrevState == 'S' && s.features().Has(DelayDequeue) && !refEligible(s, set, prev.se.vruntime) {
		c.stats.lagAmbiguous++
		return
	}
	v, _ := refAvgVruntime(s, set)
	lag := v - prev.se.vruntime
	lim := c.lagLimit(prev)
	want := min(max(lag, -lim), lim)
	c.stats.lagExact++
	if want != lag {
		c.stats.lagClamped++
	}
	if prev.se.vlag != want {
		c.failf(e, "task %s dequeued with vlag %d; V-v = %d, limit %d: want %d", prev.name, prev.se.vlag, lag, lim, want)
	}
}

// checkPlacement checks place_entity() for the task just enqueued by a
// wakeup or creation (the event follows the enqueue immediately).
func (c *fairChecker) checkPlacement(e *Event, fq fairRq) {
	s := c.s
	t := s.task(e.Next)
	if c.snap[t.id].onRq {
		return // a delayed task requeued in place (ttwu_runnable)
	}
	var rest []*Task
	for _, o := range fq.entities {
		if o != t {
			rest = append(rest, o)
		}
	}
	v, ok := refAvgVruntime(s, rest)
	if !ok {
		v = fq.q.minVruntime // avg_vruntime() of an empty queue
	}
	if s.features().Has(PlaceLag) && ok && t.se.vlag != 0 {
		_, load := refSums(s, rest)
		l := new(big.Int).Mul(big.NewInt(t.se.vlag), new(big.Int).Add(load, big.NewInt(s.scaledWeight(t))))
		l.Quo(l, load) // truncation toward zero
		v -= l.Int64()
	}
	vslice := refCalcDeltaFair(t.se.slice, t.se.load.weight, uint64(t.se.load.invWeight))
	if e.Kind == EvWakeupNew && s.rules.newTaskInitial && s.features().Has(PlaceDeadlineInitial) {
		vslice /= 2
	}
	c.stats.placements++
	if t.se.vruntime != v || t.se.deadline != v+vslice {
		c.failf(e, "task %s placed at v=%d deadline=%d, want v=%d deadline=%d (vlag %d, vslice %d)",
			t.name, t.se.vruntime, t.se.deadline, v, v+vslice, t.se.vlag, vslice)
	}
}
