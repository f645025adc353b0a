package scenario

// What a form editor of the workloads array needs beyond WorkloadKinds
// (the one table-driven description of each generator's parameters that
// the decoder, `-set`, `schedplay workloads` and the playground's
// generator forms all read): checking one field's text as the decoder
// would, a fresh workload name, and the size of each workload's expansion
// for a preview.

import (
	"fmt"
	"math"
	"strconv"

	"schedplay/core/topology"
)

// Check parses a parameter's text as `-set` and the forms give it and
// returns its canonical text; the error names path and the accepted range.
func (p Param) Check(path, text string) (string, error) { return p.fromText(path, text) }

// CheckWorkloadName checks workload k's name: 1-32 characters of
// A-Z a-z 0-9 _, unique among the workloads (other than k).
func CheckWorkloadName(sc *Scenario, k int, name string) error {
	p := fmt.Sprintf("workloads[%d].name", k)
	if !validName(name, 32, false) {
		return errAt(p, "%q: want 1-32 characters of A-Z a-z 0-9 _", name)
	}
	for j, w := range sc.Workloads {
		if j != k && w.Name == name {
			return errAt(p, "%q is used by another workload", name)
		}
	}
	return nil
}

// NewWorkloadName is a name for a new workload of kind: the kind itself,
// or the kind with the first free number.
func NewWorkloadName(sc *Scenario, kind string) string {
	used := map[string]bool{}
	for _, w := range sc.Workloads {
		used[w.Name] = true
	}
	for _, t := range sc.Tasks {
		used[t.Name] = true
	}
	if !used[kind] {
		return kind
	}
	for i := 2; ; i++ {
		if n := kind + strconv.Itoa(i); !used[n] {
			return n
		}
	}
}

// WorkloadSize is what one workload expands to.
type WorkloadSize struct {
	Groups int // task groups
	Tasks  int // tasks started with the run (instances of groups without a parent)
	Forked int // tasks forked while it runs (fork steps of its programs, loops counted)
	// ForksForever: some fork step repeats without end (Forked counts
	// none of those).
	ForksForever bool
}

// WorkloadSizes expands the scenario's workloads on its machine and
// counts each one's task groups and tasks. On an error (the first bad
// workload, naming its JSON path) the sizes are zero.
func WorkloadSizes(sc *Scenario) ([]WorkloadSize, error) {
	m, err := topology.Preset(sc.Topology)
	if err != nil {
		return nil, errAt("topology", "%v", err)
	}
	ncpu := m.NumCPUs()
	out := make([]WorkloadSize, len(sc.Workloads))
	ex, err := sc.expand(ncpu)
	if err != nil {
		return out, err
	}
	// count(i): how many tasks of group i run (instances of a group the
	// run starts; for a forked group, the forks of it by every task of its
	// parent group, so a job forked by make that forks cc1 counts both).
	byName := make(map[string]int, len(ex.Tasks))
	for i, t := range ex.Tasks {
		byName[t.Name] = i
	}
	var count func(i, depth int) int
	count = func(i, depth int) int {
		t := ex.Tasks[i]
		if t.Parent == "" {
			n := max(t.Instances, 1)
			switch {
			case t.PerCPU:
				n = ncpu
			case t.InstancesPerCPU > 0:
				n = max(1, int(math.Round(t.InstancesPerCPU*float64(ncpu))))
			}
			return n
		}
		p, ok := byName[t.Parent]
		if !ok || depth > len(ex.Tasks) {
			return 0
		}
		pt := ex.Tasks[p]
		f, forever := forks(pt.Program, t.Name)
		if forever || pt.Loop < 0 {
			return 0 // ForksForever: not counted
		}
		return count(p, depth+1) * f * max(pt.Loop, 1)
	}
	for i, k := range ex.origin {
		if k < 0 {
			continue
		}
		t := ex.Tasks[i]
		n := count(i, 0)
		out[k].Groups++
		if t.Parent == "" {
			out[k].Tasks += n
		} else {
			out[k].Forked += n
		}
		if f, forever := forks(t.Program, ""); forever || (t.Loop < 0 && f > 0) {
			out[k].ForksForever = true
		}
	}
	return out, nil
}

// forks counts the fork steps of group target (any group if "") one pass
// of prog runs (loops multiplied); forever reports a fork inside an
// endless loop.
func forks(prog []Step, target string) (n int, forever bool) {
	for _, st := range prog {
		switch {
		case st.Kind == "fork" && (target == "" || st.Fork == target):
			n++
		case st.Loop != nil:
			c, f := forks(st.Loop.Program, target)
			if st.Loop.Count < 0 && c > 0 {
				f = true
			} else {
				c *= max(st.Loop.Count, 0)
			}
			n += c
			forever = forever || f
		}
	}
	return n, forever
}
