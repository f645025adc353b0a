package main

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
)

func cgScenario(t *testing.T) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"smp-4","duration":"50ms",
 "tasks":[{"name":"a","program":[{"run":"1ms"},{"taskgroup":"/T/in"},{"run":"1ms"}]},{"name":"b","program":[{"run":"1ms"},{"sleep":"1ms"}]}],
 "workloads":[{"kind":"hog","name":"h"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// Add, nest, write files, rename and remove, each checked by the scenario
// layer; the tree survives the JSON and the share link.
func TestCgroupTreeEdits(t *testing.T) {
	sc := cgScenario(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	p1, err := cgAdd(sc, "/")
	must(err)
	p2, err := cgAdd(sc, p1)
	must(err)
	p3, err := cgAdd(sc, "/")
	must(err)
	if p1 != "/g1" || p2 != "/g1/g1" || p3 != "/g2" {
		t.Fatalf("added %s %s %s", p1, p2, p3)
	}
	must(cgSetFile(sc, p1, "cpu.weight", "50"))
	must(cgSetFile(sc, p2, "cpu.max", cpuMaxText("5000", "")))
	must(cgSetFile(sc, p2, "cpu.max.burst", "2000"))
	must(cgSetFile(sc, p2, "cpu.idle", "1"))
	must(cgSetFile(sc, p3, "cpuset.cpus", "0-1"))
	must(cgAssign(sc, 1, p2))
	sc.Workloads[0].Cgroup = p3
	must(sc.Validate())

	rows := cgroupRows(sc, nil, nil)
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join([]string{r.Path, strings.Repeat(">", r.Depth), r.Weight, r.Quota, r.Period, r.Burst, map[bool]string{true: "idle"}[r.Idle], r.CPUs, r.Tasks, map[bool]string{true: "implicit"}[r.Implicit]}, "|"))
	}
	want := []string{
		"/T|||||||||implicit", "/T/in|>||||||||implicit",
		"/g1||50|||||||", "/g1/g1|>||5000|100000|2000|idle||b|", "/g2|||||||0-1|h (hog)|",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The share link restores the tree, files and assignments.
	back, err := scenario.DecodeURL("#s=" + scenario.EncodeURLPayload(sc))
	must(err)
	if string(back.Encode()) != string(sc.Encode()) {
		t.Fatalf("share round trip:\n%s\nwant\n%s", back.Encode(), sc.Encode())
	}

	// Rename moves the groups inside, the task groups, steps and
	// generators that name them.
	must(cgRename(sc, p1, "web"))
	must(cgRename(sc, "/T", "batch"))
	if sc.Tasks[1].Cgroup != "/web/g1" || sc.Tasks[0].Program[1].Group != "/batch/in" {
		t.Fatalf("after rename: task b in %q, a's step to %q", sc.Tasks[1].Cgroup, sc.Tasks[0].Program[1].Group)
	}
	if paths, _ := sc.CgroupPaths(); strings.Join(paths, " ") != "/batch /batch/in /g2 /web /web/g1" {
		t.Fatalf("paths after rename: %v", paths)
	}
	must(sc.Validate())

	// Remove: refused while tasks are inside; else the subtree goes.
	err = cgRemove(sc, "/web")
	if err == nil || !strings.Contains(err.Error(), "has tasks (b)") {
		t.Fatalf("removing a busy group: %v", err)
	}
	for _, r := range cgroupRows(sc, &cgFieldErr{Path: "/web", Field: "row", Msg: err.Error()}, nil) {
		if (r.Path == "/web") != (r.Errs["row"] != "") || len(r.Texts) != 0 {
			t.Fatalf("row %s after the refused remove: errs %v, texts %v", r.Path, r.Errs, r.Texts)
		}
	}
	must(cgAssign(sc, 1, "/"))
	must(cgRemove(sc, "/web"))
	if paths, _ := sc.CgroupPaths(); strings.Join(paths, " ") != "/batch /batch/in /g2" || sc.Tasks[1].Cgroup != "" {
		t.Fatalf("paths after remove: %v", paths)
	}
	must(sc.Validate())
}

// Bad values and names come back as the scenario layer's errors, naming
// the key, and leave the scenario unchanged (markup in a name included).
func TestCgroupTreeBadInput(t *testing.T) {
	sc := cgScenario(t)
	p, err := cgAdd(sc, "/")
	if err != nil {
		t.Fatal(err)
	}
	before := string(sc.Encode())
	for _, tc := range []struct {
		err  error
		want string
	}{
		{cgSetFile(sc, p, "cpu.weight", "0"), `cgroups./g1.cpu.weight: "0": want an integer 1..10000`},
		{cgSetFile(sc, p, "cpu.weight", "x"), `cgroups./g1.cpu.weight: "x": want an integer 1..10000`},
		{cgSetFile(sc, p, "cpu.max", cpuMaxText("500", "")), `cgroups./g1.cpu.max: quota 500 µs: want at least 1000`},
		{cgSetFile(sc, p, "cpu.max", cpuMaxText("5000", "2000000")), `cgroups./g1.cpu.max:`},
		{cgSetFile(sc, p, "cpuset.cpus", "3-1"), `cgroups./g1.cpuset.cpus:`},
		{cgRename(sc, p, "<b>x</b>"), `a name, not a path`},
		{cgRename(sc, p, "a b"), `cgroups./a b: "/a b": component "a b": want 1-64 characters`},
		{cgRename(sc, p, ""), `cgroups./: `},
		{cgRename(sc, p, "T"), `cgroups./T: a cgroup of that name exists already`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
	if got := string(sc.Encode()); got != before {
		t.Fatalf("rejected edits changed the scenario:\n%s\nwant\n%s", got, before)
	}
	// A burst over the quota passes the file's check and fails the
	// scenario's (tg_set_cfs_bandwidth()); the row shows it at the field.
	if err := cgSetFile(sc, p, "cpu.max", "5000 100000"); err != nil {
		t.Fatal(err)
	}
	if err := cgSetFile(sc, p, "cpu.max.burst", "9000"); err != nil {
		t.Fatal(err)
	}
	verr := sc.Validate()
	pe := asPathError(verr)
	if verr == nil {
		t.Fatal("burst over quota validated")
	}
	var row CgroupRow
	for _, r := range cgroupRows(sc, nil, pe) {
		if r.Path == p {
			row = r
		}
	}
	if len(row.Errs) == 0 {
		t.Fatalf("validation error %q (path %q) shown at no field of %s", pe.Msg, pe.Path, p)
	}
}

// A rejected period stays in the period field (not the quota's), with
// the scenario's message on the row's cpu.max.
func TestCgroupTreeRejectedPeriod(t *testing.T) {
	sc := cgScenario(t)
	p, err := cgAdd(sc, "/")
	if err != nil {
		t.Fatal(err)
	}
	if err := cgSetFile(sc, p, "cpu.max", "5000 100000"); err != nil {
		t.Fatal(err)
	}
	c := &CgroupTree{App: &App{Sc: sc}}
	var row CgroupRow
	find := func() {
		for _, r := range c.rows() {
			if r.Path == p {
				row = r
			}
		}
	}
	find()
	c.setField(row, "period", "5")
	find()
	got := map[string]string{}
	for _, f := range cgFields(row) {
		got[f.Key] = f.Value + "|" + f.Class
	}
	if got["period"] != "5|num bad" || got["quota"] != "5000|num bad" || !strings.Contains(row.Errs["cpu.max"], "cgroups./g1.cpu.max:") {
		t.Fatalf("fields %v, errors %v", got, row.Errs)
	}
	if sc.Cgroups[0].Files["cpu.max"] != "5000 100000" {
		t.Fatalf("a rejected period reached the scenario: %v", sc.Cgroups[0].Files)
	}
}
