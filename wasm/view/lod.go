package view

// Level of detail for the timeline raster: a per-lane index of slice
// starts by time bucket, so that finding the slices under a pixel column
// costs a lookup and a short binary search inside one bucket, however many
// slices the lane holds.
//
// The run's duration is cut into equal buckets (a power of two of
// nanoseconds, at most maxLODBuckets per lane and lodEntries over all
// lanes); starts[b] is the index of the lane's first slice starting at or
// after b*width. Slices arrive in time order, so the index only grows: it
// is extended by the slices appended since the previous extension, after
// each folded batch and on each redraw (amortised O(1) per slice, never a
// pass over the lane).
// Without a known duration (SetUtilGrid not called) the raster falls back
// to galloping from the previous column.

import (
	"math/bits"
	"sort"

	"schedplay/core/sched"
)

const (
	maxLODBuckets = 16384   // per lane
	lodEntries    = 1 << 20 // over all lanes (4 MB of int32)
)

// laneIndex is one lane's bucket index.
type laneIndex struct {
	starts  []int32 // per bucket; meaningful for b < filled
	filled  int     // buckets whose first slice is known
	indexed int     // slices folded into starts
}

// lod is the timeline's index: bucket width 1<<shift ns.
type lod struct {
	shift uint
	lanes []laneIndex
}

// newLOD sizes the index for a run of length end over n lanes.
func newLOD(end sched.Time, n int) *lod {
	if end <= 0 || n <= 0 {
		return nil
	}
	buckets := min(maxLODBuckets, max(64, lodEntries/n))
	width := uint64(end)/uint64(buckets) + 1
	shift := uint(bits.Len64(width - 1)) // smallest power of two >= width
	nb := int(uint64(end)>>shift) + 2
	l := &lod{shift: shift, lanes: make([]laneIndex, n)}
	for c := range l.lanes {
		l.lanes[c].starts = make([]int32, nb)
	}
	return l
}

// IndexLOD extends every lane's index by the slices appended since the
// last call (the page calls it after folding each batch, so a redraw finds
// the index ready; the raster extends it too, for timelines filled
// otherwise).
func (tl *Timeline) IndexLOD() {
	if tl.lod == nil {
		return
	}
	for c := range tl.lod.lanes {
		tl.lod.lanes[c].extend(tl.Lanes[c].Slices, tl.lod.shift)
	}
}

// extend folds the slices appended to sl since the last call.
func (li *laneIndex) extend(sl []Slice, shift uint) {
	for ; li.indexed < len(sl); li.indexed++ {
		s := sl[li.indexed].Start
		if s < 0 {
			continue
		}
		last := min(int(uint64(s)>>shift), len(li.starts)-1) // buckets whose start <= s
		for ; li.filled <= last; li.filled++ {
			li.starts[li.filled] = int32(li.indexed)
		}
	}
}

// firstStartingAt returns the index of the first slice of sl starting at or
// after t, searching from index from (the result is >= from).
func (l *lod) firstStartingAt(li *laneIndex, sl []Slice, from int, t sched.Time) int {
	if t <= 0 {
		return from
	}
	b := int(uint64(t) >> l.shift)
	lo, hi := from, len(sl)
	if b < li.filled {
		lo = max(lo, int(li.starts[b])) // starts at or after b*width <= t: not past the answer
	}
	if b+1 < li.filled {
		hi = max(lo, int(li.starts[b+1])) // starts at or after (b+1)*width > t
	}
	return lo + sort.Search(hi-lo, func(k int) bool { return sl[lo+k].Start >= t })
}
