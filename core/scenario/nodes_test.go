package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

const nodesScenario = `{ "version": 1, "name": "nodes", "topology": "xeon-4s18c", "duration": "20ms",
  "tasks": [ { "name": "a", "instances": 5, "nodes": "spread", "program": [ { "run": "300us" }, { "sleep": "100us" } ] },
             { "name": "pair", "nodes": [2], "instances": 3, "program": [ { "run": "200us" }, { "sleep": "50us" } ] },
             { "name": "b", "instances": 3, "nodes": "spread", "program": [ { "run": "300us" }, { "sleep": "100us" } ] } ] }`

// nodeSink records every CPU a task was switched in on.
type nodeSink struct {
	on map[sched.TaskID]map[sched.CPUID]bool
}

func (k *nodeSink) Event(e *sched.Event) {
	if e.Kind != sched.EvSwitch || e.Next < 0 {
		return
	}
	if k.on[e.Next] == nil {
		k.on[e.Next] = map[sched.CPUID]bool{}
	}
	k.on[e.Next][e.CPU] = true
}

// TestNodesBinding: "nodes": [n] binds a group to the node's CPUs,
// "spread" deals instances round-robin over the nodes across groups (a:
// 0 1 2 3 0, b: 1 2 3), with or without SMT; the binding survives Encode
// and the engine keeps every task on its node.
func TestNodesBinding(t *testing.T) {
	for _, tc := range []struct {
		smt     string
		perNode int
	}{{"on", 36}, {"off", 18}} {
		cfg := buildSMT(t, nodesScenario, tc.smt)
		m := cfg.Machine
		nodeOf := func(l []int) int {
			if len(l) != tc.perNode {
				t.Fatalf("hw.smt=%s: %d CPUs bound, want the %d of one node", tc.smt, len(l), tc.perNode)
			}
			n := m.CPUs[l[0]].Node
			for _, c := range l {
				if m.CPUs[c].Node != n {
					t.Fatalf("CPU %d of node %d in a node-%d binding", c, m.CPUs[c].Node, n)
				}
			}
			return n
		}
		var got []int
		for _, gi := range []int{0, 2} {
			if len(cfg.Tasks[gi].InstanceCPUs) != cfg.Tasks[gi].Instances {
				t.Fatalf("group %d: %d CPU lists for %d instances", gi, len(cfg.Tasks[gi].InstanceCPUs), cfg.Tasks[gi].Instances)
			}
			for _, l := range cfg.Tasks[gi].InstanceCPUs {
				got = append(got, nodeOf(l))
			}
		}
		want := []int{0, 1, 2, 3, 0, 1, 2, 3}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("hw.smt=%s: spread nodes %v, want %v", tc.smt, got, want)
			}
		}
		if n := nodeOf(cfg.Tasks[1].CPUs); n != 2 {
			t.Errorf("nodes [2]: bound to node %d", n)
		}
		// An id beyond the machine's 4 nodes wraps (another -topology).
		wrap, err := Decode([]byte(strings.Replace(nodesScenario, `"nodes": [2]`, `"nodes": [6]`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		wcfg, err := wrap.Build(sched.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if n := wcfg.Machine.CPUs[wcfg.Tasks[1].CPUs[0]].Node; n != 2 || len(wcfg.Tasks[1].CPUs) != 36 {
			t.Errorf("nodes [6] on 4 nodes: node %d, %d CPUs; want node 2", n, len(wcfg.Tasks[1].CPUs))
		}
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		k := &nodeSink{on: map[sched.TaskID]map[sched.CPUID]bool{}}
		s.Attach(k)
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		// Task ids in creation order: a-0..4, pair-5..7, b-8..10.
		wantNode := []int{0, 1, 2, 3, 0, 2, 2, 2, 1, 2, 3}
		for id, n := range wantNode {
			if len(k.on[sched.TaskID(id)]) == 0 {
				t.Errorf("task %d never ran", id)
			}
			for c := range k.on[sched.TaskID(id)] {
				if m.CPUs[c].Node != n {
					t.Errorf("hw.smt=%s: task %d ran on CPU %d (node %d), bound to node %d", tc.smt, id, c, m.CPUs[c].Node, n)
				}
			}
		}
	}
}

func TestNodesErrors(t *testing.T) {
	for _, tc := range []struct{ old, new, path string }{
		{`"nodes": [2],`, `"nodes": [-1],`, "tasks[1].nodes[0]"},
		{`"nodes": [2],`, `"nodes": [],`, "tasks[1].nodes"},
		{`"nodes": [2],`, `"nodes": ["2"],`, "tasks[1].nodes[0]"},
		{`"nodes": [2],`, `"nodes": "all",`, "tasks[1].nodes"},
		{`"nodes": [2],`, `"nodes": [2], "cpus": [0],`, "tasks[1].nodes"},
		{`"instances": 5, "nodes": "spread",`, `"per_cpu": true, "nodes": "spread",`, "tasks[0].nodes"},
		{`"instances": 3, "program": [ { "run": "200us" }`, `"instances": 3, "policy": "SCHED_DEADLINE", "dl_runtime": "100us", "dl_period": "10ms", "program": [ { "run": "20us" }`, "tasks[1].nodes"},
	} {
		src := strings.Replace(nodesScenario, tc.old, tc.new, 1)
		if src == nodesScenario {
			t.Fatalf("%s: no replacement", tc.new)
		}
		sc, err := Decode([]byte(src))
		if err == nil {
			_, err = sc.Build(sched.DefaultLimits())
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.new)
			continue
		}
		if e := asError(t, tc.new, err); e.Path != tc.path {
			t.Errorf("%s: path %q, want %q (%v)", tc.new, e.Path, tc.path, err)
		}
	}
}
