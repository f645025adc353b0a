package view

// The machine drawing: the topology as nested boxes, the way the kernel
// sees it when it builds sched domains (core/topology holds the facts):
// package, last-level cache, cluster (CPUs sharing an L2 on hybrid and Arm
// parts), core and its SMT threads. Each CPU box is also a cell of the
// utilisation heat map during playback.
//
// Levels that add nothing are left out: a cluster box only when some
// cluster of the machine has more than one core, a core box only when some
// core has more than one thread. Dies and NUMA nodes other than one per
// package are not drawn: core/topology does not describe dies, and every
// preset has one node per package.
//
// Layout is a flow: each box places its children left to right and wraps
// at the width available inside it, so any machine fits the side panel's
// width and grows downwards. Above 64 CPUs the drawing is compact (small
// unlabelled CPU cells, short box labels; the full text is in the box's
// tooltip), which keeps a 256-CPU machine on about one screen.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"schedplay/core/topology"
)

// MachineBox is one box of the drawing.
type MachineBox struct {
	Kind       string // "package", "llc", "cluster", "core", "cpu"
	X, Y, W, H int
	Label      string // drawn in the box (may be short)
	Title      string // tooltip: the full description
	CPU        int    // the CPU of a "cpu" box, -1 otherwise
}

// CompactCPUs is the CPU count above which the drawing is compact.
const CompactCPUs = 64

type mnode struct {
	kind string
	id   int
	cpus []int
	kids []*mnode
	w, h int
}

type mstyle struct {
	cell, cellH, gap, pad, head int
	compact                     bool
}

// MachineLayout lays out m within width maxW and returns the boxes
// (parents before their children) and the drawing's size.
func MachineLayout(m *topology.Machine, maxW int) ([]MachineBox, int, int) {
	st := mstyle{cell: 26, cellH: 18, gap: 3, pad: 4, head: 13}
	if m.NumCPUs() > CompactCPUs {
		st = mstyle{cell: 8, cellH: 8, gap: 2, pad: 2, head: 11, compact: true}
	}
	root := machineTree(m)
	var out []MachineBox
	w, h := 0, 0
	y := 0
	for _, pkg := range root {
		measure(pkg, maxW, st)
		out = place(pkg, 0, y, st, out)
		w = max(w, pkg.w)
		y += pkg.h + st.gap + 2
		h = y
	}
	return out, w, h
}

// machineTree groups the CPUs: package > LLC > cluster > core > CPU.
func machineTree(m *topology.Machine) []*mnode {
	multiCoreCluster, smt := false, false
	coresOf := map[int]map[int]bool{}
	threads := map[int]int{}
	for _, c := range m.CPUs {
		if coresOf[c.Cluster] == nil {
			coresOf[c.Cluster] = map[int]bool{}
		}
		coresOf[c.Cluster][c.Core] = true
		threads[c.Core]++
	}
	for _, c := range m.CPUs {
		multiCoreCluster = multiCoreCluster || len(coresOf[c.Cluster]) > 1
		smt = smt || threads[c.Core] > 1
	}
	levels := []struct {
		kind string
		key  func(c topology.CPU) int
		on   bool
	}{
		{"package", func(c topology.CPU) int { return c.Package }, true},
		{"llc", func(c topology.CPU) int { return c.LLC }, true},
		{"cluster", func(c topology.CPU) int { return c.Cluster }, multiCoreCluster},
		{"core", func(c topology.CPU) int { return c.Core }, smt},
	}
	var build func(cpus []int, lvl int) []*mnode
	build = func(cpus []int, lvl int) []*mnode {
		for lvl < len(levels) && !levels[lvl].on {
			lvl++
		}
		if lvl == len(levels) {
			out := make([]*mnode, len(cpus))
			for i, id := range cpus {
				out[i] = &mnode{kind: "cpu", id: id, cpus: []int{id}}
			}
			return out
		}
		// Groups in the order of their lowest CPU (slices, not a map walk).
		var groups []*mnode
		index := map[int]*mnode{}
		for _, id := range cpus {
			k := levels[lvl].key(m.CPUs[id])
			g := index[k]
			if g == nil {
				g = &mnode{kind: levels[lvl].kind, id: k}
				index[k] = g
				groups = append(groups, g)
			}
			g.cpus = append(g.cpus, id)
		}
		var out []*mnode
		for _, g := range groups {
			g.kids = build(g.cpus, lvl+1)
			// A cluster of one core or a core of one thread says
			// nothing: draw its content in its place.
			if (g.kind == "cluster" && distinctCores(m, g.cpus) == 1) || (g.kind == "core" && len(g.cpus) == 1) {
				out = append(out, g.kids...)
				continue
			}
			out = append(out, g)
		}
		return out
	}
	all := make([]int, m.NumCPUs())
	for i := range all {
		all[i] = i
	}
	// SMT siblings are numbered far apart (0 and 64): order cores by
	// their first thread, so a core's threads sit side by side.
	sort.Ints(all)
	return build(all, 0)
}

func distinctCores(m *topology.Machine, cpus []int) int {
	var cores []int
	for _, id := range cpus {
		if !slices.Contains(cores, m.CPUs[id].Core) {
			cores = append(cores, m.CPUs[id].Core)
		}
	}
	return len(cores)
}

// measure computes the size of n and its subtree within width maxW.
func measure(n *mnode, maxW int, st mstyle) {
	if n.kind == "cpu" {
		n.w, n.h = st.cell, st.cellH
		return
	}
	pad, head := st.pad, st.head
	if n.kind == "core" {
		pad, head = 1, 0
	}
	inner := maxW - 2*pad
	x, rowH, w, y := 0, 0, 0, 0
	for _, k := range n.kids {
		measure(k, inner, st)
		if x > 0 && x+k.w > inner {
			y += rowH + st.gap
			x, rowH = 0, 0
		}
		x += k.w + st.gap
		rowH = max(rowH, k.h)
		w = max(w, x-st.gap)
	}
	n.w, n.h = w+2*pad, head+y+rowH+2*pad
	// Wide enough for its label (about 6 px per character at 10 px, 5.5
	// at the compact 9 px), within the width available.
	_, label := boxText(n, st)
	perChar := 6.0
	if st.compact {
		perChar = 5.5
	}
	n.w = max(n.w, min(maxW, int(float64(len(label))*perChar)+10))
}

var levelNames = map[string]string{"package": "package", "llc": "LLC", "cluster": "cluster", "core": "core"}

// boxText is a container's tooltip and drawn label.
func boxText(n *mnode, st mstyle) (title, label string) {
	title = fmt.Sprintf("%s %d (CPUs %s)", levelNames[n.kind], n.id, CPUList(n.cpus))
	switch {
	case n.kind == "core":
		return title, ""
	case st.compact && n.kind != "package":
		return title, fmt.Sprintf("%s %d", levelNames[n.kind], n.id)
	}
	return title, title
}

// place emits n at (x, y) and its children in the same flow as measure.
func place(n *mnode, x0, y0 int, st mstyle, out []MachineBox) []MachineBox {
	b := MachineBox{Kind: n.kind, X: x0, Y: y0, W: n.w, H: n.h, CPU: -1}
	if n.kind == "cpu" {
		b.CPU = n.id
		b.Title = fmt.Sprintf("CPU%d", n.id)
		if !st.compact {
			b.Label = fmt.Sprint(n.id)
		}
		return append(out, b)
	}
	b.Title, b.Label = boxText(n, st)
	out = append(out, b)
	pad, head := st.pad, st.head
	if n.kind == "core" {
		pad, head = 1, 0
	}
	inner := n.w - 2*pad
	x, y, rowH := 0, 0, 0
	for _, k := range n.kids {
		if x > 0 && x+k.w > inner {
			y += rowH + st.gap
			x, rowH = 0, 0
		}
		out = place(k, x0+pad+x, y0+pad+head+y, st, out)
		x += k.w + st.gap
		rowH = max(rowH, k.h)
	}
	return out
}

// CPUList renders CPU ids as ranges the way Linux prints cpulists:
// 0-7,64-71.
func CPUList(ids []int) string {
	s := append([]int(nil), ids...)
	sort.Ints(s)
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", s[i], s[j]))
		} else {
			parts = append(parts, fmt.Sprint(s[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
