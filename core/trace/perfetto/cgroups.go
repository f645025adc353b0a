package perfetto

// Cgroup tracks: with [Writer.SetCgroups], a process "cgroups" holds one
// track per cgroup of the run, and a slice "throttled" on a group's track
// covers each interval in which some cfs_rq of the group was throttled
// (EvCgroupThrottle on a CPU opens it if none was, the EvCgroupUnthrottle
// that leaves none throttled closes it; args: the most CPUs throttled at
// once). There is no kernel tracepoint for throttling (throttle_cfs_rq()
// has none; tools kprobe it), so the ftrace text has no such lines and
// this track is where the throttled intervals show.

import "schedplay/core/sched"

// cgroupsPID is the process holding the cgroup tracks.
const cgroupsPID = 2

// cgTrack is one cgroup's throttling state.
type cgTrack struct {
	path      string
	throttled map[sched.CPUID]bool
	start     sched.Time
	peak      int
}

// SetCgroups names the run's cgroups (paths[k-1] is cgroup k) and writes
// their tracks. Call it before the first event; without it cgroup events
// are ignored, so the output of a run without cgroups is unchanged.
func (w *Writer) SetCgroups(paths []string) {
	if len(paths) == 0 {
		return
	}
	b := append(w.buf[:0], ",\n"...)
	b = append(b, `{"name":"process_name","ph":"M","pid":2,"args":{"name":"cgroups"}}`...)
	w.write(b)
	for k, p := range paths {
		w.cgroups = append(w.cgroups, cgTrack{path: p, throttled: map[sched.CPUID]bool{}})
		b = w.cgBegin("thread_name", "M", k+1)
		b = append(b, `,"args":{"name":`...)
		b = appendString(b, p)
		b = append(b, `}}`...)
		w.write(b)
		b = w.cgBegin("thread_sort_index", "M", k+1)
		b = append(b, `,"args":{"sort_index":`...)
		b = appendInt(b, int64(k+1))
		b = append(b, `}}`...)
		w.write(b)
	}
}

// cgBegin starts an event on cgroup k's track.
func (w *Writer) cgBegin(name, ph string, k int) []byte {
	b := append(w.buf[:0], ",\n"...)
	b = append(b, `{"name":"`...)
	b = append(b, name...)
	b = append(b, `","ph":"`...)
	b = append(b, ph...)
	b = append(b, `","pid":2,"tid":`...)
	return appendInt(b, int64(k))
}

// cgroupEvent handles EvCgroupThrottle and EvCgroupUnthrottle.
func (w *Writer) cgroupEvent(e *sched.Event) {
	k := int(e.Arg)
	if k < 1 || k > len(w.cgroups) {
		return
	}
	g := &w.cgroups[k-1]
	if e.Kind == sched.EvCgroupThrottle {
		if len(g.throttled) == 0 {
			g.start, g.peak = e.Time, 0
		}
		g.throttled[e.CPU] = true
		g.peak = max(g.peak, len(g.throttled))
		return
	}
	if !g.throttled[e.CPU] {
		return
	}
	delete(g.throttled, e.CPU)
	if len(g.throttled) == 0 {
		w.writeThrottled(k, e.Time)
	}
}

// writeThrottled writes cgroup k's open throttled slice, ending at t.
func (w *Writer) writeThrottled(k int, t sched.Time) {
	g := &w.cgroups[k-1]
	b := w.cgBegin("throttled", "X", k)
	b = append(b, `,"cat":"cgroup","ts":`...)
	b = appendMicros(b, g.start)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, t-g.start)
	b = append(b, `,"args":{"cgroup":`...)
	b = appendString(b, g.path)
	b = append(b, `,"cpus":`...)
	b = appendInt(b, int64(g.peak))
	w.write(append(b, "}}"...))
}

// closeCgroups ends the throttled slices still open at t.
func (w *Writer) closeCgroups(t sched.Time) {
	for k := range w.cgroups {
		if len(w.cgroups[k].throttled) > 0 {
			w.writeThrottled(k+1, t)
			clear(w.cgroups[k].throttled)
		}
	}
}
