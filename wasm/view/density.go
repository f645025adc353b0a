package view

// Density: what the timeline draws where a lane's slices are narrower than
// a pixel. A column holding several slices (or one that covers it only in
// part) is painted with the colour of the task group that ran longest in
// the column's time range, at an intensity set by the column's busy
// fraction: a 144-CPU run zoomed out reads as which workload ran where and
// how busy each CPU was, instead of merged busy/idle stripes. Zoomed in, a
// column lies inside one slice and gets that task's own colour.
//
// Exact, from the records: the busy time of each group in [c0, c1) is the
// sum of its slices' overlaps, the figure a walk over the slices gives.
// The walk is not what runs, though: per lane, a prefix sum of slice
// durations (cum) and the runs of consecutive slices of one group let a
// column cost one term per group run in it, so a zoomed-out lane of one
// workload costs a few lookups per column whatever its slice count. The
// index grows with the closed slices (amortised O(1) per slice, as lod.go)
// and lives in the Palette, which knows the task -> group mapping it was
// built for. Only a column of more than walkMax slices uses the index (a
// lane that never has one never builds it); the others, and a column
// holding an open slice, are walked. While a run streams in, a column of
// more than walkMax slices is previewed by its middle slice (raster.go):
// building the index frame by frame doubled the streaming frames' cost.
// A finished run's long lane gets its index in pieces, one drawing step
// each (paint.go), so no browser task builds every lane's index at once.

import (
	"sort"

	"schedplay/core/sched"
)

// walkMax is the most slices a column sums by walking them.
const walkMax = 32

// Palette maps tasks to colours and task groups.
type Palette struct {
	Task []RGB // by TaskID: the task's own colour (a column inside one slice)
	// Group is each task's group (by TaskID, dense from 0), GroupColor each
	// group's colour (the legend's swatch). Nil Group: every task is its
	// own group, coloured as the task.
	Group      []int32
	GroupColor []RGB

	dens []laneDens   // per lane, for the timeline drawn with this palette
	acc  []sched.Time // per group, the column's busy time (scratch)
	on   []bool       // per group: in seen
	seen []int32
	work int // work units spent so far (paint.go): slices indexed or walked, group runs summed
}

// laneDens is one lane's density index over its closed slices.
type laneDens struct {
	cum  []sched.Time // cum[k]: busy time of slices [0, k)
	runs []densRun    // maximal runs of one group, in slice order
}

type densRun struct{ first, group int32 }

func (p *Palette) groupOf(id sched.TaskID) int32 {
	if p.Group == nil {
		return int32(id)
	}
	if int(id) >= 0 && int(id) < len(p.Group) {
		return p.Group[id]
	}
	return -1
}

func (p *Palette) groupColor(g int32) RGB {
	if p.Group == nil {
		return colorOf(p.Task, sched.TaskID(g))
	}
	if g >= 0 && int(g) < len(p.GroupColor) {
		return p.GroupColor[g]
	}
	return RGB{0x88, 0x88, 0x88}
}

// index extends lane c's density index by the slices closed since the
// last call (a slice's group must be known: tasks arrive before their
// slices).
func (p *Palette) index(tl *Timeline, c int) *laneDens { return p.indexUpTo(tl, c, -1) }

// indexUpTo is index extending by at most limit slices (all of them with
// a negative limit): a drawing in steps builds a long lane's index over
// several steps (paint.go). The index is the same however it was built.
func (p *Palette) indexUpTo(tl *Timeline, c, limit int) *laneDens {
	if len(p.dens) != len(tl.Lanes) {
		p.dens = make([]laneDens, len(tl.Lanes))
	}
	d := &p.dens[c]
	if d.cum == nil {
		d.cum = make([]sched.Time, 1, len(tl.Lanes[c].Slices)+1) // one allocation for a finished run
	}
	sl := tl.Lanes[c].Slices
	from := len(d.cum)
	stop := len(sl)
	if limit >= 0 {
		stop = min(stop, from-1+limit)
	}
	for k := len(d.cum) - 1; k < stop && sl[k].End != Open; k++ {
		s := &sl[k]
		d.cum = append(d.cum, d.cum[k]+s.End-s.Start)
		g := p.groupOf(s.Task)
		if n := len(d.runs); n == 0 || d.runs[n-1].group != g {
			d.runs = append(d.runs, densRun{first: int32(k), group: g})
		}
	}
	p.work += len(d.cum) - from
	return d
}

// unindexed is how many closed slices of lane c the density index does
// not hold yet (an upper bound: the lane's last slice may be open).
func (p *Palette) unindexed(tl *Timeline, c int) int {
	n := len(tl.Lanes[c].Slices)
	if len(p.dens) == len(tl.Lanes) && p.dens[c].cum != nil {
		n -= len(p.dens[c].cum) - 1
	}
	return n
}

// column returns the colour of a column [c0, c1) holding slices [i, j) of
// lane c (slice i ends after c0, slice j-1 starts before c1): the dominant
// group's colour, mixed into the lane's colour by the busy fraction.
func (p *Palette) column(tl *Timeline, c int, d *laneDens, i, j int, c0, c1 sched.Time) RGB {
	p.accumulate(tl, c, d, i, j, c0, c1)
	return p.finish(c1 - c0)
}

// accumulate adds each group's busy time in [c0, c1) from slices [i, j)
// of lane c to the column being summed (several lanes for a group's
// summary lane: lanegroups.go).
func (p *Palette) accumulate(tl *Timeline, c int, d *laneDens, i, j int, c0, c1 sched.Time) {
	ng := len(p.GroupColor)
	if p.Group == nil {
		ng = len(p.Task)
	}
	if len(p.acc) < ng {
		p.acc, p.on = make([]sched.Time, ng), make([]bool, ng)
	}
	sl := tl.Lanes[c].Slices
	add := func(g int32, t sched.Time) {
		if g < 0 || int(g) >= len(p.acc) {
			return
		}
		if !p.on[g] {
			p.on[g] = true
			p.seen = append(p.seen, g)
		}
		p.acc[g] += t
	}
	if d != nil && j < len(d.cum) {
		// Whole slices [i, j) by group run, then the parts of the first
		// and last slice outside the column taken off.
		r := sort.Search(len(d.runs), func(k int) bool { return int(d.runs[k].first) > i }) - 1
		for ; r < len(d.runs) && int(d.runs[r].first) < j; r++ {
			p.work++
			a := max(int(d.runs[r].first), i)
			b := j
			if r+1 < len(d.runs) {
				b = min(b, int(d.runs[r+1].first))
			}
			add(d.runs[r].group, d.cum[b]-d.cum[a])
		}
		if s := &sl[i]; s.Start < c0 {
			add(p.groupOf(s.Task), -(c0 - s.Start))
		}
		if s := &sl[j-1]; s.End > c1 {
			add(p.groupOf(s.Task), -(s.End - c1))
		}
		return
	}
	// The walk, written out (the common case: a few slices per column).
	p.work += j - i
	acc, on, grp := p.acc, p.on, p.Group
	for k := i; k < j; k++ {
		s := &sl[k]
		e := s.End
		if e == Open || e > c1 {
			e = min(tl.end(s), c1)
		}
		g := int32(s.Task)
		if grp != nil {
			if g < 0 || int(g) >= len(grp) {
				continue
			}
			g = grp[g]
		}
		if g < 0 || int(g) >= len(acc) {
			continue
		}
		if !on[g] {
			on[g] = true
			p.seen = append(p.seen, g)
		}
		acc[g] += e - max(s.Start, c0)
	}
}

// finish returns the colour of the column summed so far over span (the
// column's width times its lanes) and starts the next.
func (p *Palette) finish(span sched.Time) RGB {
	best, busy := int32(-1), sched.Time(0)
	for _, g := range p.seen {
		v := p.acc[g]
		busy += v
		if best < 0 || v > p.acc[best] || (v == p.acc[best] && g < best) {
			best = g
		}
	}
	col := p.groupColor(best)
	for _, g := range p.seen {
		p.acc[g], p.on[g] = 0, false
	}
	p.seen = p.seen[:0]
	return shade(col, float64(busy)/float64(span))
}

// shade mixes col into the lane colour: a third at the lowest busy
// fraction (so any busy column reads as busy), all of it when busy
// throughout.
func shade(col RGB, frac float64) RGB {
	f := 1.0/3 + 2.0/3*min(max(frac, 0), 1)
	mix := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*f + 0.5) }
	return RGB{mix(laneColor.R, col.R), mix(laneColor.G, col.G), mix(laneColor.B, col.B)}
}
