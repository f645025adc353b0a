package view

// The timeline model: the event stream folded into what the timeline canvas
// draws. One lane per CPU holds the slices during which a task ran there,
// in time order (events arrive in time order, so appending keeps each lane
// sorted and lookups are binary searches). A slice records the rule that
// put its task on the CPU (the switch's Reason and Pick) and the rule that
// took it off, which the tooltip shows.
//
// Throttled cgroup intervals are kept per CPU and cgroup (throttle.go).
//
// Runqueue waits (wakeup or preemption until the next switch-in) are kept
// per CPU too, so that the time cursor can list the runqueue at an instant.

import (
	"sort"

	"schedplay/core/sched"
)

// Open marks the end of a slice or wait that has not ended yet.
const Open sched.Time = -1

// Slice is one stretch of a task running on a CPU.
type Slice struct {
	Start, End sched.Time // End == Open while running
	Task       sched.TaskID
	InReason   sched.Reason   // why the previous task left (the switch that started this slice)
	Pick       sched.PickRule // which rule picked this task
	OutReason  sched.Reason   // why this task left (0 while open)
	OutState   byte           // 'R' preempted, 'S' slept, 'X' exited
}

// Mark is a wakeup: Task woken onto CPU at Time.
type Mark struct {
	Time sched.Time
	Task sched.TaskID
	New  bool // sched_wakeup_new
}

// Wait is a stretch of a task runnable but not running on a CPU.
type Wait struct {
	Start, End sched.Time
	Task       sched.TaskID
}

// Lane is one CPU's history.
type Lane struct {
	Slices []Slice
	Marks  []Mark
	Waits  []Wait
	// Throttled holds, per cgroup (index: cgroup number - 1), the
	// intervals its cfs_rq on this CPU was throttled (throttle.go).
	Throttled [][]Throttle
}

// Timeline accumulates lanes from events. It implements sched.Sink.
type Timeline struct {
	Lanes []Lane
	Now   sched.Time // time of the latest event seen
	Ended bool
	// Per task (dense TaskIDs, slices rather than maps: a map operation
	// per streamed event was a large share of the page's folding cost in
	// WASM): its open wait (idx -1: none) and its pending wakeup (Open:
	// none).
	waiting []waitRef
	woken   []sched.Time
	// Latency counts wakeup latencies (wakeup to switch-in) per log
	// bucket as they occur (fold.go).
	Latency LatHist
	grid    *utilGrid // per-CPU busy time per bucket (SetUtilGrid), or nil
	lod     *lod      // slice-start index for the raster (lod.go), or nil
	nslices int
}

type waitRef struct {
	cpu int
	idx int
}

// NewTimeline returns an empty timeline for ncpu CPUs.
func NewTimeline(ncpu int) *Timeline {
	return &Timeline{Lanes: make([]Lane, ncpu)}
}

// NumSlices is the total number of slices over all lanes.
func (tl *Timeline) NumSlices() int { return tl.nslices }

// Event implements sched.Sink.
func (tl *Timeline) Event(e *sched.Event) {
	tl.Now = e.Time
	switch e.Kind {
	case sched.EvSwitch:
		tl.onSwitch(e)
	case sched.EvWakeup, sched.EvWakeupNew:
		l := &tl.Lanes[e.CPU]
		l.Marks = append(l.Marks, Mark{Time: e.Time, Task: e.Next, New: e.Kind == sched.EvWakeupNew})
		if e.Kind == sched.EvWakeup {
			tl.grow(e.Next)
			tl.woken[e.Next] = e.Time
		}
		tl.openWait(int(e.CPU), e.Next, e.Time)
	case sched.EvMigrate:
		if tl.isWaiting(e.Next) {
			tl.closeWait(e.Next, e.Time)
			tl.openWait(int(e.CPU), e.Next, e.Time)
		}
	case sched.EvCgroupThrottle, sched.EvCgroupUnthrottle:
		tl.onThrottle(e, e.Kind == sched.EvCgroupThrottle)
	case sched.EvEnd:
		for c := range tl.Lanes {
			l := &tl.Lanes[c]
			l.closeThrottles(e.Time)
			if n := len(l.Slices); n > 0 && l.Slices[n-1].End == Open {
				l.Slices[n-1].End = e.Time
				tl.closed(c, &l.Slices[n-1])
			}
		}
		for id := range tl.waiting {
			tl.closeWait(sched.TaskID(id), e.Time)
		}
		tl.Ended = true
	}
}

func (tl *Timeline) onSwitch(e *sched.Event) {
	l := &tl.Lanes[e.CPU]
	if n := len(l.Slices); n > 0 && l.Slices[n-1].End == Open {
		s := &l.Slices[n-1]
		s.End, s.OutReason, s.OutState = e.Time, e.Reason, e.PrevState
		tl.closed(int(e.CPU), s)
	}
	if e.Prev != sched.NoTask && e.PrevState == 'R' {
		tl.openWait(int(e.CPU), e.Prev, e.Time)
	}
	if e.Next == sched.NoTask {
		return
	}
	tl.closeWait(e.Next, e.Time)
	tl.grow(e.Next)
	if w := tl.woken[e.Next]; w != Open {
		tl.Latency.Add(int64(e.Time - w))
		tl.woken[e.Next] = Open
	}
	l.Slices = append(l.Slices, Slice{Start: e.Time, End: Open, Task: e.Next, InReason: e.Reason, Pick: e.Pick})
	tl.nslices++
}

// closed folds a slice that just ended into the running summaries.
func (tl *Timeline) closed(cpu int, s *Slice) {
	if tl.grid != nil {
		tl.grid.add(cpu, s.Start, s.End)
	}
}

func (tl *Timeline) openWait(cpu int, id sched.TaskID, t sched.Time) {
	if id < 0 || tl.isWaiting(id) {
		return
	}
	tl.grow(id)
	l := &tl.Lanes[cpu]
	l.Waits = append(l.Waits, Wait{Start: t, End: Open, Task: id})
	tl.waiting[id] = waitRef{cpu: cpu, idx: len(l.Waits) - 1}
}

func (tl *Timeline) closeWait(id sched.TaskID, t sched.Time) {
	if !tl.isWaiting(id) {
		return
	}
	ref := tl.waiting[id]
	tl.Lanes[ref.cpu].Waits[ref.idx].End = t
	tl.waiting[id].idx = -1
}

// grow makes room for task id in the per-task slices.
func (tl *Timeline) grow(id sched.TaskID) {
	for int(id) >= len(tl.waiting) {
		tl.waiting = append(tl.waiting, waitRef{idx: -1})
		tl.woken = append(tl.woken, Open)
	}
}

func (tl *Timeline) isWaiting(id sched.TaskID) bool {
	return id >= 0 && int(id) < len(tl.waiting) && tl.waiting[id].idx >= 0
}

// end returns the slice's end, treating an open slice as ending now.
func (tl *Timeline) end(s *Slice) sched.Time {
	if s.End == Open {
		return tl.Now
	}
	return s.End
}

// firstEndingAfter is the index of the first slice of lane c that ends
// after t (len if none). Slices never overlap, so ends are sorted too.
func (tl *Timeline) firstEndingAfter(c int, t sched.Time) int {
	sl := tl.Lanes[c].Slices
	return sort.Search(len(sl), func(i int) bool { return tl.end(&sl[i]) > t })
}

// SliceAt returns the slice running on CPU c at time t.
func (tl *Timeline) SliceAt(c int, t sched.Time) (Slice, bool) {
	if c < 0 || c >= len(tl.Lanes) {
		return Slice{}, false
	}
	sl := tl.Lanes[c].Slices
	i := tl.firstEndingAfter(c, t)
	if i < len(sl) && sl[i].Start <= t {
		return sl[i], true
	}
	return Slice{}, false
}

// Runqueue lists the tasks waiting on CPU c at time t (not the running one),
// in the order they became runnable.
func (tl *Timeline) Runqueue(c int, t sched.Time) []sched.TaskID {
	if c < 0 || c >= len(tl.Lanes) {
		return nil
	}
	ws := tl.Lanes[c].Waits
	// Waits are appended in start order; scan those that started by t.
	n := sort.Search(len(ws), func(i int) bool { return ws[i].Start > t })
	var out []sched.TaskID
	for i := 0; i < n; i++ {
		w := ws[i]
		if w.End == Open || w.End > t {
			out = append(out, w.Task)
		}
	}
	return out
}

// Busy returns how long CPU c ran tasks within [t0, t1).
func (tl *Timeline) Busy(c int, t0, t1 sched.Time) sched.Time {
	sl := tl.Lanes[c].Slices
	var busy sched.Time
	for i := tl.firstEndingAfter(c, t0); i < len(sl) && sl[i].Start < t1; i++ {
		busy += min(tl.end(&sl[i]), t1) - max(sl[i].Start, t0)
	}
	return busy
}
