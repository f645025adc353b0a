package view

import (
	"strings"
	"testing"

	"schedplay/core/topology"
)

func layoutOf(t *testing.T, name string) ([]MachineBox, int, int, topology.Machine) {
	t.Helper()
	m, err := topology.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	boxes, w, h := MachineLayout(&m, 408)
	return boxes, w, h, m
}

func count(boxes []MachineBox, kind string) int {
	n := 0
	for _, b := range boxes {
		if b.Kind == kind {
			n++
		}
	}
	return n
}

// inside reports whether b lies within p.
func inside(b, p MachineBox) bool {
	return b.X >= p.X && b.Y >= p.Y && b.X+b.W <= p.X+p.W && b.Y+b.H <= p.Y+p.H
}

// Every preset: one box per CPU, every CPU inside the boxes of its package
// and LLC (and cluster, core when drawn), no two CPU boxes overlapping, and
// the drawing within the panel width.
func TestMachineLayoutNests(t *testing.T) {
	for _, name := range topology.Names() {
		boxes, w, _, m := layoutOf(t, name)
		if w > 408 {
			t.Errorf("%s: %d px wide", name, w)
		}
		cpus := map[int]MachineBox{}
		for _, b := range boxes {
			if b.Kind == "cpu" {
				if _, dup := cpus[b.CPU]; dup {
					t.Fatalf("%s: CPU %d drawn twice", name, b.CPU)
				}
				cpus[b.CPU] = b
			}
		}
		if len(cpus) != m.NumCPUs() {
			t.Fatalf("%s: %d CPU boxes for %d CPUs", name, len(cpus), m.NumCPUs())
		}
		for _, p := range boxes {
			if p.Kind == "cpu" {
				continue
			}
			// The CPUs a container lists are exactly the CPU boxes inside it.
			list := p.Title[strings.Index(p.Title, "(CPUs ")+6 : len(p.Title)-1]
			var in []int
			for id, b := range cpus {
				if inside(b, p) {
					in = append(in, id)
				}
			}
			if got := CPUList(in); got != list {
				t.Errorf("%s: %s holds CPUs %s", name, p.Title, got)
			}
		}
		for a, ba := range cpus {
			for b, bb := range cpus {
				if a < b && ba.X < bb.X+bb.W && bb.X < ba.X+ba.W && ba.Y < bb.Y+bb.H && bb.Y < ba.Y+ba.H {
					t.Fatalf("%s: CPUs %d and %d overlap", name, a, b)
				}
			}
		}
	}
}

func TestMachineLayoutStructure(t *testing.T) {
	boxes, _, _, _ := layoutOf(t, "icelake-2s32c")
	if n := count(boxes, "package"); n != 2 {
		t.Errorf("icelake-2s32c: %d package boxes, want 2", n)
	}
	if n := count(boxes, "core"); n != 64 {
		t.Errorf("icelake-2s32c: %d core boxes (SMT pairs), want 64", n)
	}
	boxes, _, _, _ = layoutOf(t, "alderlake-6p8e")
	if n := count(boxes, "cluster"); n != 2 {
		t.Errorf("alderlake-6p8e: %d cluster boxes, want 2 (E-core L2 clusters)", n)
	}
	if n := count(boxes, "core"); n != 6 {
		t.Errorf("alderlake-6p8e: %d core boxes, want 6 (SMT P-cores)", n)
	}
	found := false
	for _, b := range boxes {
		found = found || b.Label == "cluster 10 (CPUs 16-19)"
	}
	if !found {
		t.Error("alderlake-6p8e: no box labelled cluster 10 (CPUs 16-19)")
	}
	boxes, _, h, m := layoutOf(t, "epyc-milan-2s64c")
	if m.NumCPUs() != 256 || h > 900 {
		t.Errorf("epyc-milan-2s64c: %d CPUs drawn %d px high", m.NumCPUs(), h)
	}
	if got := CPUList([]int{71, 0, 1, 2, 64, 65, 9}); got != "0-2,9,64-65,71" {
		t.Errorf("CPUList: %s", got)
	}
}
