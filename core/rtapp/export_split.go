package rtapp

// Export of the machine-sized task keys, which rt-app does not have.
//
// per_cpu becomes one thread per CPU named NAME_cpuN pinned to N,
// instances_per_cpu its instance count on the scenario's machine (hw.smt
// applied), "nodes" the CPUs of the nodes, and "spread" one thread NAME_iK
// per instance pinned to its node (rt-app's "cpus" is per thread
// description, so instances with different affinities need one description
// each).
//
// A group split that way may fork children (its "fork" steps name a group
// whose "parent" is it). The scenario allows any instance of the parent
// group to fork the child group; rt-app's importer, like the core, gives a
// forked thread one parent, so one child description forked by every copy
// would not import ("forked by both"). Each copy K therefore forks its own
// copy of every descendant group, CHILD_iK / CHILD_cpuN, forked only by it.
// A forked task takes its own group's affinity, not its parent's
// (sched.Sim.forkTask), so the copies keep the child's own "cpus" and the
// round trip runs the same tasks on the same CPUs under other names.
//
// A generated name that is used by another group, or longer than the 60
// characters the importer keeps, is an error naming the group.

import (
	"fmt"
	"slices"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// maxExportName is the longest name the importer keeps (sanitize()).
const maxExportName = 60

// copies is how one task group is written: one description per suffix.
type copies struct {
	suffixes []string
	cpus     [][]int // per copy, or nil: the group's own
}

func (ex *exporter) resolveMachineKeys(sc *scenario.Scenario) ([]scenario.Task, []string, error) {
	n := len(sc.Tasks)
	resolved := make([]scenario.Task, n)
	split := make([]*copies, n)
	byName := map[string]int{}
	var cfg sched.Config
	built := false
	for i, t := range sc.Tasks {
		byName[t.Name] = i
		p := fmt.Sprintf("tasks[%d]", i)
		if (t.PerCPU || t.InstancesPerCPU > 0 || t.Nodes != nil || t.SpreadNodes) && !built {
			var err error
			if cfg, err = sc.Build(sched.DefaultLimits()); err != nil {
				return nil, nil, err
			}
			built = true
		}
		if t.InstancesPerCPU > 0 {
			t.Instances = max(1, int(t.InstancesPerCPU*float64(cfg.Machine.NumCPUs())+0.5))
			t.InstancesPerCPU = 0
			ex.warn(p+".instances_per_cpu", "exported as %d instances (the count on %s)", t.Instances, sc.Topology)
		}
		switch {
		case t.SpreadNodes:
			spec := specOf(cfg, t.Name)
			t.SpreadNodes = false
			t.Instances = 1
			c := &copies{cpus: spec.InstanceCPUs}
			for k := range spec.InstanceCPUs {
				c.suffixes = append(c.suffixes, fmt.Sprintf("_i%d", k))
			}
			split[i] = c
			ex.warn(p+".nodes", "exported as %d threads %s_iK, each pinned to its node's CPUs", len(c.suffixes), t.Name)
		case t.Nodes != nil:
			t.Nodes, t.CPUs = nil, specOf(cfg, t.Name).CPUs
			ex.warn(p+".nodes", "exported as the %d CPUs of the nodes on %s", len(t.CPUs), sc.Topology)
		case t.PerCPU:
			t.PerCPU = false
			c := &copies{}
			for cpu := range cfg.Machine.NumCPUs() {
				c.suffixes = append(c.suffixes, fmt.Sprintf("_cpu%d", cpu))
				c.cpus = append(c.cpus, []int{cpu})
			}
			split[i] = c
			ex.warn(p+".per_cpu", "exported as %d threads %s_cpuN, each pinned to its CPU", len(c.suffixes), t.Name)
		}
		resolved[i] = t
	}
	// Descendants of a split group are split the same way. A chain is at
	// most n long (the scenario refuses cycles; the bound keeps a bad one
	// from looping).
	var splitOf func(i, depth int) *copies
	splitOf = func(i, depth int) *copies {
		if split[i] != nil || depth > n {
			return split[i]
		}
		pi, ok := byName[resolved[i].Parent]
		if !ok || resolved[i].Parent == "" {
			return nil
		}
		if ps := splitOf(pi, depth+1); ps != nil {
			split[i] = &copies{suffixes: ps.suffixes}
			ex.warn(fmt.Sprintf("tasks[%d].parent", i), "%q is exported as %d threads: each forks its own copy of %q (%s%s ...), as an rt-app thread has one parent",
				resolved[i].Parent, len(ps.suffixes), resolved[i].Name, resolved[i].Name, ps.suffixes[0])
		}
		return split[i]
	}
	for i := range resolved {
		splitOf(i, 0)
	}
	var tasks []scenario.Task
	var paths []string
	names := map[string]int{}
	for i, t := range resolved {
		names[t.Name] = i
	}
	for i, t := range resolved {
		p := fmt.Sprintf("tasks[%d]", i)
		c := split[i]
		if c == nil {
			tasks, paths = append(tasks, t), append(paths, p)
			continue
		}
		for k, suf := range c.suffixes {
			u := t
			u.Name = t.Name + suf
			if j, dup := names[u.Name]; dup && j != i {
				return nil, nil, errAt(p+".name", "exported as %d threads %s%s ..., but tasks[%d] is also exported as %q: rename one of them", len(c.suffixes), t.Name, c.suffixes[0], j, u.Name)
			}
			names[u.Name] = i
			if len(u.Name) > maxExportName {
				return nil, nil, errAt(p+".name", "%q is too long to export as %d threads %s%s ...: rt-app import keeps %d characters", t.Name, len(c.suffixes), t.Name, c.suffixes[0], maxExportName)
			}
			if c.cpus != nil {
				u.CPUs = c.cpus[k]
			}
			if t.Parent != "" {
				u.Parent = t.Parent + suf // split with the same suffixes (splitOf)
			}
			u.Program = forkCopies(t.Program, suf, split, byName)
			tasks, paths = append(tasks, u), append(paths, p)
		}
	}
	return tasks, paths, nil
}

// forkCopies returns steps with every fork of a split group renamed to its
// copy with suffix suf (a copy of the program; the scenario's is shared).
func forkCopies(steps []scenario.Step, suf string, split []*copies, byName map[string]int) []scenario.Step {
	out := slices.Clone(steps)
	for i := range out {
		switch out[i].Kind {
		case "fork":
			if ci, ok := byName[out[i].Fork]; ok && split[ci] != nil {
				out[i].Fork += suf
			}
		case "loop":
			l := *out[i].Loop
			l.Program = forkCopies(l.Program, suf, split, byName)
			out[i].Loop = &l
		}
	}
	return out
}

func specOf(cfg sched.Config, name string) sched.TaskSpec {
	for _, s := range cfg.Tasks {
		if s.Name == name {
			return s
		}
	}
	return sched.TaskSpec{}
}
