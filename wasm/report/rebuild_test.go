package report

import (
	"encoding/json"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
)

// TestRebuildWithProvenance: a report made without provenance (as the
// worker makes it), crossed as JSON and rebuilt with it, equals the report
// made with it in the first place: the same cells, checks and Markdown.
func TestRebuildWithProvenance(t *testing.T) {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("kernel.hz=1000"); err != nil {
		t.Fatal(err)
	}
	const runs = 2
	e := sc.Experiment
	cfgs := experiment.ThreadConfigs(e)
	jobs, err := experiment.Plan(sc, sc.Name, cfgs, runs)
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, tk := range sc.Tasks {
		groups = append(groups, tk.Name)
	}
	names, err := experiment.Resolve(e.Metrics, groups, experiment.MaxCPUs(jobs))
	if err != nil {
		t.Fatal(err)
	}
	var vals []experiment.Values
	label := ""
	for _, j := range jobs {
		r, err := experiment.Execute(j)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, experiment.Measure(r))
		label = "topology " + r.Report.Topology + ", kernel " + r.Report.Kernel
	}
	res, err := experiment.EvaluateThread(e, names, experiment.ThreadCube(e, vals, runs), experiment.CenterMean)
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{jobs[0].Seed, jobs[1].Seed}
	prov := scenario.ProvenanceOf(sc)
	want := NewThreadReport(&experiment.ThreadRender{Name: sc.Name, Runs: runs, Seeds: seeds, Labels: []string{label}, Res: res, Prov: prov, Build: "v1.2.3 abc"})
	bare := NewThreadReport(&experiment.ThreadRender{Name: sc.Name, Runs: runs, Seeds: seeds, Labels: []string{label}, Res: res})
	js, err := json.Marshal(bare)
	if err != nil {
		t.Fatal(err)
	}
	var crossed ThreadReport
	if err := json.Unmarshal(js, &crossed); err != nil {
		t.Fatal(err)
	}
	got, err := Rebuild(&crossed, e, prov, "v1.2.3 abc")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Fatalf("rebuilt report differs:\n%s\nwant\n%s", a, b)
	}
	if got.Changed == "" || got.Checks[0].NotApplying == "" || bare.Checks[0].NotApplying != "" {
		t.Errorf("changed %q, first check not applying %q (bare %q)", got.Changed, got.Checks[0].NotApplying, bare.Checks[0].NotApplying)
	}
}
