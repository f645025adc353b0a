package view

// Throttled intervals: while a cgroup's cfs_rq on a CPU is throttled
// (kernel/sched/fair.c throttle_cfs_rq() to unthrottle_cfs_rq(), the
// engine's EvCgroupThrottle and EvCgroupUnthrottle with the cgroup number
// in Arg), the group's tasks queued there wait for the next period's
// runtime. The timeline keeps those intervals per lane and per cgroup, so
// the raster shades them on the lane and the tooltip names the group.
//
// One cgroup's intervals on one CPU never overlap and arrive in time
// order, so each list is sorted by start and by end: lookups are binary
// searches, and the raster visits at most one interval per pixel column
// (ThrottledColumns). Scenarios have few cgroups (the decoder limits them),
// so the per-lane lists are indexed by cgroup number.

import (
	"sort"

	"schedplay/core/sched"
)

// Throttle is one interval of a cgroup's cfs_rq throttled on a CPU.
type Throttle struct {
	Start, End sched.Time // End == Open while throttled
}

// onThrottle handles EvCgroupThrottle (open) and EvCgroupUnthrottle
// (close). A throttle of an already throttled cfs_rq, or an unthrottle of
// one that is not, changes nothing.
func (tl *Timeline) onThrottle(e *sched.Event, open bool) {
	g := int(e.Arg)
	if g < 1 {
		return
	}
	l := &tl.Lanes[e.CPU]
	for len(l.Throttled) < g {
		l.Throttled = append(l.Throttled, nil)
	}
	ts := l.Throttled[g-1]
	isOpen := len(ts) > 0 && ts[len(ts)-1].End == Open
	switch {
	case open && !isOpen:
		l.Throttled[g-1] = append(ts, Throttle{Start: e.Time, End: Open})
	case !open && isOpen:
		ts[len(ts)-1].End = e.Time
	}
}

// closeThrottles ends the intervals still open at t (the run's end).
func (l *Lane) closeThrottles(t sched.Time) {
	for _, ts := range l.Throttled {
		if n := len(ts); n > 0 && ts[n-1].End == Open {
			ts[n-1].End = t
		}
	}
}

func (tl *Timeline) throttleEnd(th *Throttle) sched.Time {
	if th.End == Open {
		return tl.Now
	}
	return th.End
}

// ThrottledAt lists the cgroups (numbers from 1) whose cfs_rq on CPU c
// was throttled at time t, in cgroup order.
func (tl *Timeline) ThrottledAt(c int, t sched.Time) []int {
	if c < 0 || c >= len(tl.Lanes) {
		return nil
	}
	var out []int
	for k, ts := range tl.Lanes[c].Throttled {
		i := sort.Search(len(ts), func(i int) bool { return tl.throttleEnd(&ts[i]) > t })
		if i < len(ts) && ts[i].Start <= t {
			out = append(out, k+1)
		}
	}
	return out
}

// ThrottledColumns marks in mask (one entry per pixel column of vp) the
// columns during which some cgroup's cfs_rq on CPU c was throttled, and
// reports whether any was. Per cgroup it visits at most one interval per
// column: after an interval, it searches for the first one ending after
// the next column starts.
func (tl *Timeline) ThrottledColumns(mask []bool, vp Viewport, c int) bool {
	clear(mask)
	w := len(mask)
	if w == 0 || vp.T1 <= vp.T0 || c < 0 || c >= len(tl.Lanes) {
		return false
	}
	perPx := float64(vp.T1-vp.T0) / float64(w)
	col := func(t sched.Time) int { return int(float64(t-vp.T0) / perPx) }
	found := false
	for _, ts := range tl.Lanes[c].Throttled {
		from := vp.T0
		for {
			i := sort.Search(len(ts), func(i int) bool { return tl.throttleEnd(&ts[i]) > from })
			if i >= len(ts) || ts[i].Start >= vp.T1 {
				break
			}
			x0 := max(0, col(ts[i].Start))
			end := tl.throttleEnd(&ts[i])
			x1 := min(w-1, col(end-1))
			for x := x0; x <= x1; x++ {
				mask[x] = true
			}
			found = found || x1 >= x0
			// The next column's start: later intervals inside column x1
			// add nothing.
			from = max(end, vp.T0+sched.Time(float64(x1+1)*perPx))
			if x1 >= w-1 {
				break
			}
		}
	}
	return found
}

// shadeThrottled paints the throttled columns of a lane's pixel row:
// idle columns (the group's tasks waiting, nothing of theirs running) in
// the throttled tint; and the bar's bottom throttleBand rows (bar ends
// at row bot; rows outside [ya, yb) are clipped) in the throttled colour
// under every throttled column, busy ones too (another group's task may
// run on the CPU meanwhile).
func shadeThrottled(pix, row []byte, mask []bool, w, ya, yb, bot int) {
	for x, on := range mask {
		if !on {
			continue
		}
		p := row[4*x : 4*x+4 : 4*x+4]
		if (RGB{p[0], p[1], p[2]}) == laneColor {
			p[0], p[1], p[2] = throttleTint.R, throttleTint.G, throttleTint.B
		}
	}
	for y := ya; y < yb; y++ {
		copy(pix[4*y*w:4*(y+1)*w], row)
	}
	for y := max(ya, bot-throttleBand); y < min(yb, bot); y++ {
		for x, on := range mask {
			if on {
				p := pix[4*(y*w+x) : 4*(y*w+x)+4 : 4*(y*w+x)+4]
				p[0], p[1], p[2], p[3] = throttleColor.R, throttleColor.G, throttleColor.B, 255
			}
		}
	}
}

const throttleBand = 3 // pixel rows of the throttled band at a lane's bottom

var (
	throttleTint  = RGB{0x4a, 0x22, 0x2a} // an idle column while throttled
	throttleColor = RGB{0xe5, 0x48, 0x4d} // the throttled band
)
