package view

import (
	"testing"

	"schedplay/core/sched"
)

// The timeline must not depend on how the run is chunked.
func TestChunkingDoesNotChangeTimeline(t *testing.T) {
	a := presetRun(t, "demo/fork-burst", "duration=200ms")
	for !a.Advance(1 << 30) {
	}
	b := presetRun(t, "demo/fork-burst", "duration=200ms")
	for !b.Advance(7) {
	}
	if a.Timeline.NumSlices() == 0 || a.Timeline.NumSlices() != b.Timeline.NumSlices() {
		t.Fatalf("slices: %d vs %d", a.Timeline.NumSlices(), b.Timeline.NumSlices())
	}
	for c := range a.Timeline.Lanes {
		la, lb := a.Timeline.Lanes[c], b.Timeline.Lanes[c]
		for i := range la.Slices {
			if la.Slices[i] != lb.Slices[i] {
				t.Fatalf("cpu %d slice %d: %+v vs %+v", c, i, la.Slices[i], lb.Slices[i])
			}
		}
	}
}

func TestSlicesAndRunqueue(t *testing.T) {
	r := presetRun(t, "demo/nice-shares", "duration=100ms")
	for !r.Advance(1000) {
	}
	tl := r.Timeline
	if !tl.Ended {
		t.Fatal("timeline not ended")
	}
	var prevEnd sched.Time
	for i, s := range tl.Lanes[0].Slices {
		if s.End == Open || s.End < s.Start || s.Start < prevEnd {
			t.Fatalf("slice %d out of order: %+v (prev end %d)", i, s, prevEnd)
		}
		prevEnd = s.End
	}
	// Two hogs on one CPU: at any instant one runs and the other waits.
	at := 50 * sched.Millisecond
	run, ok := tl.SliceAt(0, at)
	rq := tl.Runqueue(0, at)
	if !ok || len(rq) != 1 || rq[0] == run.Task {
		t.Fatalf("at %s: running %+v (ok=%v), runqueue %v", at, run, ok, rq)
	}
	// The CPU is busy from the first slice to the end: only the idle exit
	// at the start (C-state exit, tick restart, pick: a few us with the
	// default hw costs) is idle.
	first := tl.Lanes[0].Slices[0].Start
	if first > 10*sched.Microsecond {
		t.Fatalf("first slice starts at %s, want within the idle-exit costs", first)
	}
	if busy := tl.Busy(0, 0, 100*sched.Millisecond); busy != 100*sched.Millisecond-first {
		t.Fatalf("busy %s, want the whole run after the first slice at %s", busy, first)
	}
}

func TestRasterDrawsEveryBusyCPU(t *testing.T) {
	r := presetRun(t, "demo/fork-burst", "duration=200ms")
	for !r.Advance(1 << 20) {
	}
	lo := Layout{Width: 400, Height: 4 * 20, LaneHeight: 20}
	pix := make([]byte, 4*lo.Width*lo.Height)
	n := Raster(pix, lo, Viewport{0, 200 * sched.Millisecond}, r.Timeline, r.Colors)
	if n[0] == 0 {
		t.Fatal("nothing drawn on CPU 0")
	}
	// The core has no load balancing yet: everything stays where it
	// started. Expect drawing exactly on the CPUs that were busy.
	for c := 0; c < 4; c++ {
		busy := r.Timeline.Busy(c, 0, 200*sched.Millisecond) > 0
		y := c*20 + 10
		coloured := 0
		for x := 0; x < lo.Width; x++ {
			p := pix[4*(y*lo.Width+x):]
			if (RGB{p[0], p[1], p[2]}) != laneColor {
				coloured++
			}
		}
		if busy != (coloured > 0) || (coloured > 0) != (n[c] > 0) {
			t.Errorf("cpu %d: busy=%v but %d columns drawn", c, busy, coloured)
		}
	}
}

func TestHistogramAndUtilisation(t *testing.T) {
	r := presetRun(t, "demo/periodic-vs-hog", "duration=200ms")
	for !r.Advance(1 << 20) {
	}
	h := r.Timeline.Latency.Buckets()
	if len(h) == 0 || h[len(h)-1].CDF != 1 {
		t.Fatalf("histogram %+v", h)
	}
	u := Utilisation(r.Timeline, 200*sched.Millisecond, 10)
	for k, v := range u[0] {
		if v < 0.999 || v > 1.001 {
			t.Fatalf("bucket %d utilisation %v, want 1", k, v)
		}
	}
	if len(TasksCSV(r.Report())) == 0 {
		t.Fatal("empty CSV")
	}
}

func TestTaskColorStable(t *testing.T) {
	if TaskColor("hog-0") != TaskColor("hog-0") || TaskColor("hog-0") == TaskColor("periodic-1") {
		t.Fatal("colours not stable or not distinct")
	}
	if got := (RGB{0x12, 0xab, 0xff}).Hex(); got != "#12abff" {
		t.Fatal(got)
	}
}

// BenchmarkRasterMillionSlices measures one redraw of the whole run at a
// million slices (the budget is 16 ms).
func BenchmarkRasterMillionSlices(b *testing.B) {
	tl := NewTimeline(8)
	for c := 0; c < 8; c++ {
		sl := make([]Slice, 125_000)
		for i := range sl {
			sl[i] = Slice{Start: sched.Time(i) * 8000, End: sched.Time(i)*8000 + 6000, Task: sched.TaskID(i % 16)}
		}
		tl.Lanes[c].Slices = sl
	}
	tl.Now = 125_000 * 8000
	tl.SetUtilGrid(tl.Now, UtilBuckets) // sizes the level-of-detail index
	colors := make([]RGB, 16)
	for i := range colors {
		colors[i] = TaskColor(string(rune('a' + i)))
	}
	lo := Layout{Width: 1600, Height: 8 * 28, LaneHeight: 28}
	pix := make([]byte, 4*lo.Width*lo.Height)
	// One task group, as the budget's yielders; the page keeps the
	// palette (and its density index) between redraws.
	pal := &Palette{Task: colors, Group: make([]int32, 16), GroupColor: []RGB{GroupColor("yielder")}}
	RasterPalette(pix, lo, Viewport{0, tl.Now}, tl, pal)
	b.ResetTimer()
	for range b.N {
		RasterPalette(pix, lo, Viewport{0, tl.Now}, tl, pal)
	}
}

func TestLatencyHistogramBuckets(t *testing.T) {
	h := LatencyHistogram([]int64{10, 999, 1000, 1777, 1778, 10_000, 10_001, 5_000_000})
	total := 0
	for _, b := range h {
		total += b.Count
	}
	if total != 8 || h[0].Lo != 0 || h[0].Count != 2 || h[len(h)-1].CDF != 1 {
		t.Fatalf("histogram %+v", h)
	}
	for _, b := range h {
		if b.Lo >= b.Hi {
			t.Fatalf("bad bucket %+v", b)
		}
	}
	// Every value lands in the bucket whose range holds it.
	for _, v := range []int64{1000, 1777, 1778, 10_000, 10_001, 5_000_000} {
		found := false
		for _, b := range LatencyHistogram([]int64{v}) {
			if b.Count == 1 && (v < b.Lo || v >= b.Hi) {
				t.Fatalf("%d in bucket %+v", v, b)
			}
			found = found || b.Count == 1
		}
		if !found {
			t.Fatalf("%d not counted", v)
		}
	}
}
