package rtapp

import (
	"strings"
	"testing"
)

// TestExportNodes: rt-app has no NUMA binding; "nodes" is exported as the
// nodes' CPUs and "spread" as one thread per instance pinned to its node.
func TestExportNodes(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "xeon-4s18c", "duration": "1s", "hw": { "smt": "off" }, "tasks": [
		{ "name": "a", "instances": 3, "nodes": "spread", "program": [ { "run": "300us" }, { "sleep": "100us" } ] },
		{ "name": "p", "instances": 2, "nodes": [2], "program": [ { "run": "200us" }, { "sleep": "50us" } ] } ] }`)
	out, warns, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(warns, "tasks[0].nodes", "3 threads a_iK") || !hasWarning(warns, "tasks[1].nodes", "18 CPUs") {
		t.Errorf("warnings %v", warns)
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("Import(Export): %v\n%s", err, out)
	}
	want := map[string][2]int{"a_i0": {0, 17}, "a_i1": {18, 35}, "a_i2": {36, 53}, "p": {36, 53}}
	for _, tk := range back.Tasks {
		w, ok := want[tk.Name]
		if !ok {
			t.Errorf("unexpected thread %q", tk.Name)
			continue
		}
		if len(tk.CPUs) != 18 || tk.CPUs[0] != w[0] || tk.CPUs[17] != w[1] {
			t.Errorf("%s: cpus %v, want %d-%d", tk.Name, tk.CPUs, w[0], w[1])
		}
		delete(want, tk.Name)
	}
	if len(want) > 0 {
		t.Errorf("missing threads %v in\n%s", want, out)
	}
	if strings.Contains(string(out), "nodes") {
		t.Errorf("rt-app output names nodes:\n%s", out)
	}
}
