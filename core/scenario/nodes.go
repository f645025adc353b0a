package scenario

// NUMA binding of a task group, key "nodes": what `numactl --cpunodebind`
// does to a process (its affinity becomes the CPUs of the given nodes), and
// "spread", the way rteval starts its loads: one kernel build (make -j) and
// one hackbench per NUMA node, each bound to its node with numactl
// (rteval/modules/loads/kcompile.py KBuildJob, hackbench.py __starton()).
// With "spread" every instance is bound to one node; the nodes are dealt
// round-robin, instance by instance, continuing across all spread groups of
// the scenario in order, so a load split into several groups stays even
// over the nodes. Node ids are the machine's (topology presets); hw.smt=off
// keeps the nodes and drops the sibling threads from them. An id beyond the
// machine's nodes wraps (id mod nodes), so that a scenario written for a
// NUMA machine still runs with another -topology (numactl would refuse);
// SIMPLIFIED in that sense.

import (
	"encoding/json"
	"fmt"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// decodeNodes reads "nodes": an array of node ids or "spread".
func decodeNodes(path string, x any, t *Task) error {
	if s, ok := x.(string); ok {
		if s != "spread" {
			return errAt(path, "%q: want \"spread\" or an array of NUMA node ids", s)
		}
		t.SpreadNodes = true
		return nil
	}
	arr, ok := x.([]any)
	if !ok || len(arr) == 0 {
		return errAt(path, "want \"spread\" or a non-empty array of NUMA node ids")
	}
	t.Nodes = []int{}
	for i, v := range arr {
		if _, isNum := v.(json.Number); !isNum {
			return errAt(fmt.Sprintf("%s[%d]", path, i), "want a NUMA node id (integer)")
		}
		n, err := asInt(fmt.Sprintf("%s[%d]", path, i), v)
		if err != nil {
			return err
		}
		t.Nodes = append(t.Nodes, n)
	}
	return nil
}

// bindNodes resolves "nodes" of task group t on machine m into spec's
// affinity; *next is the next node of "spread".
func bindNodes(p string, t Task, spec *sched.TaskSpec, m *topology.Machine, next *int) error {
	if t.Nodes == nil && !t.SpreadNodes {
		return nil
	}
	switch {
	case t.CPUs != nil:
		return errAt(p+".nodes", "give one of cpus and nodes")
	case t.PerCPU:
		return errAt(p+".nodes", "per_cpu pins each instance to its CPU; drop nodes")
	case spec.Policy.IsDeadline():
		return errAt(p+".nodes", "a SCHED_DEADLINE task's affinity must span all CPUs of the root domain")
	case t.SpreadNodes && t.Parent != "":
		return errAt(p+".nodes", "\"spread\" binds instances created at the start; a forked task group (parent %q) cannot spread", t.Parent)
	}
	nn := m.NumNodes()
	if t.SpreadNodes {
		spec.InstanceCPUs = make([][]int, spec.Instances)
		for k := range spec.Instances {
			spec.InstanceCPUs[k] = nodeCPUs(m, []int{*next % nn})
			*next++
		}
		return nil
	}
	nodes := make([]int, len(t.Nodes))
	for i, n := range t.Nodes {
		if n < 0 {
			return errAt(fmt.Sprintf("%s.nodes[%d]", p, i), "%d: want a NUMA node id >= 0", n)
		}
		nodes[i] = n % nn // a scenario written for more nodes (-topology)
	}
	spec.CPUs = nodeCPUs(m, nodes)
	return nil
}

// nodeCPUs lists the CPUs of the given nodes in CPU order.
func nodeCPUs(m *topology.Machine, nodes []int) []int {
	var cpus []int
	for i, c := range m.CPUs {
		for _, n := range nodes {
			if c.Node == n {
				cpus = append(cpus, i)
				break
			}
		}
	}
	return cpus
}
