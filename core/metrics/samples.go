package metrics

// Samples: the few things an experiment needs that the report
// summarises away — each task's wakeup and timer latency histogram (to
// pool them over a task group or the whole run; hist.go) and when the last
// task exited.

import "schedplay/core/sched"

// Samples is a sched.Sink that keeps each task's wakeup latency samples
// (in a [Hist], with a budget of [DefaultExactEntries] for the run) and
// the exits. Attach one per run, beside the Collector; the zero value is
// ready to use.
//
// A latency sample is the time from sched_wakeup to the task's next
// sched_switch in, exactly as the Collector defines it (new tasks'
// sched_wakeup_new is not a sample).
type Samples struct {
	woken    []sched.Time // per task: pending wakeup time, -1 = none
	lat      []Hist       // per task: samples in ns
	due      []sched.Time // per task: hard expiry of the waking hrtimer, -1 = none
	tlat     []Hist       // per task: timer latency samples in ns
	exits    int
	lastExit sched.Time
	exact    *Budget // the run's exact entries, made on the first sample
}

func (r *Samples) grow(id sched.TaskID) {
	for int(id) >= len(r.woken) {
		r.woken = append(r.woken, -1)
		r.lat = append(r.lat, Hist{})
		r.due = append(r.due, -1)
		r.tlat = append(r.tlat, Hist{})
	}
	if r.exact == nil {
		r.exact = NewBudget(DefaultExactEntries)
	}
}

// Event implements sched.Sink.
func (r *Samples) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvWakeup:
		r.grow(e.Next)
		r.woken[e.Next] = e.Time
	case sched.EvSwitch:
		if e.Next == sched.NoTask {
			return
		}
		r.grow(e.Next)
		if w := r.woken[e.Next]; w >= 0 {
			r.lat[e.Next].Add(int64(e.Time-w), r.exact)
			r.woken[e.Next] = -1
		}
		if d := r.due[e.Next]; d >= 0 {
			r.tlat[e.Next].Add(int64(e.Time-d), r.exact)
			r.due[e.Next] = -1
		}
	case sched.EvTimerExpire:
		r.grow(e.Next)
		r.due[e.Next] = sched.Time(e.Arg)
	case sched.EvExit:
		r.exits++
		r.lastExit = e.Time
	}
}

// Latencies is task id's wakeup latency histogram (ns); nil if the task
// has none.
func (r *Samples) Latencies(id sched.TaskID) *Hist {
	if int(id) >= len(r.lat) {
		return nil
	}
	return &r.lat[id]
}

// TimerLatencies is task id's timer latency histogram (hrtimer hard
// expiry to switch-in, cyclictest's measure, ns); nil if the task has none.
func (r *Samples) TimerLatencies(id sched.TaskID) *Hist {
	if int(id) >= len(r.tlat) {
		return nil
	}
	return &r.tlat[id]
}

// Exits is the number of tasks that exited.
func (r *Samples) Exits() int { return r.exits }

// LastExit is the time of the last exit (0 if none).
func (r *Samples) LastExit() sched.Time { return r.lastExit }
