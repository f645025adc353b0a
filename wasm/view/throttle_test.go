package view

import (
	"reflect"
	"testing"
)

// A cpu.max group throttled in most periods: the streamed timeline's
// throttled intervals equal those of a timeline attached to the engine;
// on v5.8 (throttled time counted from throttle to unthrottle, the
// intervals still open at the end up to it) they add up to the report's
// throttled_ns; the raster underlines
// exactly the throttled columns, and the tooltip's lookup names the group.
func TestThrottledIntervals(t *testing.T) {
	r := presetRun(t, "cgroup/throttled-within-quota", "duration=600ms", `cgroups./svc.cpu.max=5000 100000`)
	direct := NewTimeline(r.NumCPUs())
	r.eng.Sim.Attach(direct)
	for !r.Advance(501) {
	}
	if !reflect.DeepEqual(r.Timeline.Lanes, direct.Lanes) {
		t.Fatal("streamed lanes differ from the engine's")
	}
	rep := r.Report()
	if len(rep.Cgroups) != 1 || rep.Cgroups[0].NrThrottled == 0 {
		t.Fatalf("cgroups %+v: want /svc throttled", rep.Cgroups)
	}
	var sum, n int64
	lane := -1
	for c, l := range r.Timeline.Lanes {
		if len(l.Throttled) > 1 {
			t.Fatalf("cpu %d: throttled lists for %d cgroups, want 1", c, len(l.Throttled))
		}
		for _, th := range append([][]Throttle{}, l.Throttled...) {
			for i, x := range th {
				if x.End == Open || x.End < x.Start || (i > 0 && x.Start < th[i-1].End) {
					t.Fatalf("cpu %d interval %d: %+v", c, i, x)
				}
				sum += int64(x.End - x.Start)
				n++
				if lane < 0 {
					lane = c
				}
			}
		}
	}
	if n == 0 || sum != rep.Cgroups[0].ThrottledNs {
		t.Fatalf("%d intervals of %d ns in all, report throttled_ns %d", n, sum, rep.Cgroups[0].ThrottledNs)
	}
	th := r.Timeline.Lanes[lane].Throttled[0][0]
	mid := (th.Start + th.End) / 2
	if got := r.Timeline.ThrottledAt(lane, mid); !reflect.DeepEqual(got, []int{1}) {
		t.Fatalf("throttled at %s on cpu %d: %v, want [1]", mid, lane, got)
	}
	if got := r.Timeline.ThrottledAt(lane, th.Start-1); len(got) != 0 {
		t.Fatalf("throttled just before the interval: %v", got)
	}

	// The band under the lane: on where ThrottledAt says so, at a column's
	// start, and nowhere on a lane with no throttling.
	lo := Layout{Width: 600, Height: r.NumCPUs() * 20, LaneHeight: 20}
	pix := make([]byte, 4*lo.Width*lo.Height)
	vp := Viewport{0, r.Duration()}
	Raster(pix, lo, vp, r.Timeline, r.Colors)
	for c := range r.Timeline.Lanes {
		y := lo.LaneTop(c) + lo.LaneHeight - 2 - 1 // the bar's last row
		on := 0
		for x := 0; x < lo.Width; x++ {
			p := pix[4*(y*lo.Width+x):]
			band := (RGB{p[0], p[1], p[2]}) == throttleColor
			t0 := vp.TimeAt(float64(x), lo.Width)
			t1 := vp.TimeAt(float64(x+1), lo.Width)
			want := false
			for _, ts := range r.Timeline.Lanes[c].Throttled {
				for _, x := range ts {
					want = want || (x.Start < t1 && x.End > t0)
				}
			}
			if band != want {
				t.Fatalf("cpu %d column %d: band %v, want %v", c, x, band, want)
			}
			if band {
				on++
			}
		}
		if (on > 0) != (len(r.Timeline.Lanes[c].Throttled) > 0) {
			t.Fatalf("cpu %d: %d band columns", c, on)
		}
	}
}
