package view

// Lane groups: the timeline's lanes ordered and grouped by last-level
// cache, the unit the kernel's LLC sched domain balances within
// (sd_llc; core/topology gives each CPU's package and LLC). A machine of
// several LLCs draws its lanes LLC by LLC (an SMT machine's siblings,
// numbered N apart, beside their cores' other threads), and a group can be
// collapsed into one summary lane: per column, the group's busy fraction
// over all its CPUs and the dominant task group's colour (density.go).
// With one LLC the rows are the CPUs in order.

import (
	"fmt"
	"sort"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// LaneGroup is one LLC's CPUs.
type LaneGroup struct {
	Package, LLC int
	CPUs         []int // ascending
}

// Label names the group: "LLC 3 (package 1): CPUs 24-31,152-159".
func (g LaneGroup) Label() string {
	return fmt.Sprintf("LLC %d (package %d): CPUs %s", g.LLC, g.Package, cpuRanges(g.CPUs))
}

// Row is one lane of the drawing: a CPU, or (CPU < 0) the summary of
// group Group.
type Row struct {
	CPU, Group int
}

// LaneGroups returns m's CPUs by LLC, in order of (package, LLC); nil for
// a machine of one LLC.
func LaneGroups(m *topology.Machine) []LaneGroup {
	at := map[int]int{}
	var gs []LaneGroup
	for _, c := range m.CPUs {
		k, ok := at[c.LLC]
		if !ok {
			k = len(gs)
			at[c.LLC] = k
			gs = append(gs, LaneGroup{Package: c.Package, LLC: c.LLC})
		}
		gs[k].CPUs = append(gs[k].CPUs, c.ID)
	}
	if len(gs) < 2 {
		return nil
	}
	sort.SliceStable(gs, func(a, b int) bool {
		if gs[a].Package != gs[b].Package {
			return gs[a].Package < gs[b].Package
		}
		return gs[a].LLC < gs[b].LLC
	})
	for k := range gs {
		sort.Ints(gs[k].CPUs)
	}
	return gs
}

// Rows lays the groups out, a collapsed group (collapsed(k)) as one
// summary row; without groups, ncpu CPU rows in order.
func Rows(groups []LaneGroup, ncpu int, collapsed func(k int) bool) []Row {
	var rows []Row
	if groups == nil {
		for c := 0; c < ncpu; c++ {
			rows = append(rows, Row{CPU: c, Group: -1})
		}
		return rows
	}
	for k, g := range groups {
		if collapsed != nil && collapsed(k) {
			rows = append(rows, Row{CPU: -1, Group: k})
			continue
		}
		for _, c := range g.CPUs {
			rows = append(rows, Row{CPU: c, Group: k})
		}
	}
	return rows
}

// cpuRanges renders ascending CPU numbers as "0-7,128-135".
func cpuRanges(cpus []int) string {
	s := ""
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if s != "" {
			s += ","
		}
		if j > i {
			s += fmt.Sprintf("%d-%d", cpus[i], cpus[j])
		} else {
			s += fmt.Sprint(cpus[i])
		}
		i = j + 1
	}
	return s
}

// summaryRow colours one pixel row for a collapsed group: per column, the
// busy time of every task group over the group's CPUs, shown as the
// dominant one at the busy fraction of the CPUs' combined time. It returns
// the number of coloured columns and the work done (paint.go).
func summaryRow(row []byte, vp Viewport, tl *Timeline, cpus []int, pal *Palette) (n, work int) {
	work0 := pal.work
	w := len(row) / 4
	fill(row, w, 0, 0, w, 1, laneColor)
	perPx := float64(vp.T1-vp.T0) / float64(w)
	at := make([]int, len(cpus))
	dens := make([]*laneDens, len(cpus))
	for k, c := range cpus {
		at[k] = tl.firstEndingAfter(c, vp.T0)
		if tl.lod != nil {
			tl.lod.lanes[c].extend(tl.Lanes[c].Slices, tl.lod.shift)
		}
	}
	for x := 0; x < w; x++ {
		c0 := vp.T0 + sched.Time(float64(x)*perPx)
		c1 := vp.T0 + sched.Time(float64(x+1)*perPx)
		if c1 <= c0 {
			c1 = c0 + 1
		}
		busy := false
		for k, c := range cpus {
			sl := tl.Lanes[c].Slices
			i := at[k]
			for i < len(sl) && tl.end(&sl[i]) <= c0 {
				i++
			}
			at[k] = i
			if i >= len(sl) || sl[i].Start >= c1 {
				continue
			}
			var j int
			if tl.lod != nil {
				j = tl.lod.firstStartingAt(&tl.lod.lanes[c], sl, i+1, c1)
			} else {
				j = gallop(sl, i+1, c1)
			}
			if dens[k] == nil && j-i > walkMax {
				dens[k] = pal.index(tl, c)
			}
			pal.accumulate(tl, c, dens[k], i, j, c0, c1)
			busy = true
			at[k] = max(i, j-1)
		}
		if busy {
			col := pal.finish(sched.Time(len(cpus)) * (c1 - c0))
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0], p[1], p[2], p[3] = col.R, col.G, col.B, 255
			n++
		}
	}
	return n, w*len(cpus) + pal.work - work0
}
