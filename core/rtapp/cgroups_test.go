package rtapp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// TestImportTaskgroups: thread-level taskgroup, the cgroups object, and
// the errors rt-app itself gives.
func TestImportTaskgroups(t *testing.T) {
	sc, _ := mustImport(t, `{ "cgroups": { "/A": { "cpu.weight": 25 }, "/Q": { "cpu.max": "25000 100000" } },
		"tasks": { "a": { "taskgroup": "/A", "run": 1000 }, "q": { "taskgroup": "/Q/sub", "policy": "SCHED_IDLE", "run": 1000 }, "r": { "run": 10 } } }`)
	if got := []string{sc.Tasks[0].Cgroup, sc.Tasks[1].Cgroup, sc.Tasks[2].Cgroup}; got[0] != "/A" || got[1] != "/Q/sub" || got[2] != "" {
		t.Errorf("taskgroups %q", got)
	}
	if len(sc.Cgroups) != 2 || sc.Cgroups[0].Files["cpu.weight"] != "25" || sc.Cgroups[1].Files["cpu.max"] != "25000 100000" {
		t.Errorf("cgroups %+v", sc.Cgroups)
	}
	for _, c := range []struct{ src, path, msg string }{
		{`{ "tasks": { "a": { "taskgroup": "A", "run": 10 } } }`, "tasks.a.taskgroup", "has to start with [/]"},
		{`{ "tasks": { "a": { "taskgroup": 3, "run": 10 } } }`, "tasks.a.taskgroup", "want a cgroup path string"},
		{`{ "tasks": { "a": { "taskgroup": "/A//B", "run": 10 } } }`, "tasks.a.taskgroup", "empty path component"},
		{`{ "tasks": { "a": { "taskgroup": "/A", "policy": "SCHED_FIFO", "run": 10 } } }`, "tasks.a.taskgroup", "No taskgroup support for policy SCHED_FIFO"},
		{`{ "tasks": { "a": { "policy": "SCHED_RR", "phases": { "p0": { "taskgroup": "/B", "run": 10 } } } } }`, "tasks.a.phases.p0.taskgroup", "No taskgroup support for policy SCHED_RR"},
		{`{ "cgroups": { "/A": { "cpu.weight": 0 } }, "tasks": { "a": { "run": 10 } } }`, "cgroups./A.cpu.weight", "want an integer 1..10000"},
		{`{ "cgroups": [], "tasks": { "a": { "run": 10 } } }`, "cgroups", "want an object of cgroup paths"},
	} {
		se := importErr(t, c.src)
		if se.Path != c.path || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s\n got %q\nwant path %q and %q", c.src, se, c.path, c.msg)
		}
	}
}

// TestImportPhaseTaskgroup: a phase's taskgroup is a step at the phase's
// start, outside its loop; a phase without one keeps the group.
func TestImportPhaseTaskgroup(t *testing.T) {
	sc, _, err := Import([]byte(`{ "tasks": { "m": { "taskgroup": "/A", "loop": 2, "phases": {
		"p0": { "run": 1000 }, "p1": { "taskgroup": "/B", "loop": 3, "run": 500, "sleep": 500 }, "p2": { "taskgroup": "/", "run": 100 } } } } }`))
	if err != nil {
		t.Fatal(err)
	}
	got := describeSteps(sc.Tasks[0].Program)
	want := "run taskgroup:/B loop(run sleep) taskgroup:/ run"
	if got != want || sc.Tasks[0].Cgroup != "/A" {
		t.Errorf("program %s in %q, want %s in /A", got, sc.Tasks[0].Cgroup, want)
	}
}

func describeSteps(steps []scenario.Step) string {
	var out []string
	for _, st := range steps {
		switch st.Kind {
		case "taskgroup":
			out = append(out, "taskgroup:"+st.Group)
		case "loop":
			out = append(out, "loop("+describeSteps(st.Loop.Program)+")")
		default:
			out = append(out, st.Kind)
		}
	}
	return strings.Join(out, " ")
}

// TestExportTaskgroups: the thread's taskgroup and the cgroups object are
// written, and import reads back the same groups and settings.
func TestExportTaskgroups(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"smp-2","duration":"2s",
		"cgroups":{"/A":{"cpu.weight":300},"/Q":{"cpu.max":"25000 100000","cpu.max.burst":5000},"/P/B":{"cpu.idle":1}},
		"tasks":[{"name":"a","taskgroup":"/A","program":[{"run":"10ms"}]},{"name":"b","taskgroup":"/P/B","policy":"SCHED_IDLE","program":[{"run":"1ms"},{"sleep":"1ms"}]},
			{"name":"r","policy":"SCHED_FIFO","priority":5,"program":[{"run":"1ms"},{"sleep":"9ms"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"taskgroup" : "/A"`, `"taskgroup" : "/P/B"`, `"cgroups" : {`, `"/Q" : { "cpu.max" : "25000 100000", "cpu.max.burst" : "5000" }`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %s:\n%s", want, out)
		}
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("import of the export: %v\n%s", err, out)
	}
	if len(back.Cgroups) != 3 || back.Tasks[0].Cgroup != "/A" || back.Tasks[1].Cgroup != "/P/B" || back.Tasks[2].Cgroup != "" {
		t.Errorf("round trip: cgroups %+v tasks %q %q", back.Cgroups, back.Tasks[0].Cgroup, back.Tasks[1].Cgroup)
	}
	for i, cg := range sc.Cgroups {
		if back.Cgroups[i].Path != cg.Path || len(back.Cgroups[i].Files) != len(cg.Files) {
			t.Errorf("cgroup %d: %+v, want %+v", i, back.Cgroups[i], cg)
		}
		for k, v := range cg.Files {
			if back.Cgroups[i].Files[k] != v {
				t.Errorf("%s %s = %q, want %q", cg.Path, k, back.Cgroups[i].Files[k], v)
			}
		}
	}
	// rt-app refuses an RT thread with a taskgroup.
	rt := sc.Clone()
	if err := rt.Set("tasks.r.taskgroup=/A"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Export(rt); err == nil || !strings.Contains(err.Error(), "tasks[2].taskgroup") || !strings.Contains(err.Error(), "No taskgroup support for policy SCHED_FIFO") {
		t.Errorf("RT thread in a taskgroup: %v", err)
	}
}

// TestExportPhaseTaskgroup: taskgroup steps become phase-level taskgroups
// and read back as the same program.
func TestExportPhaseTaskgroup(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"version":1,"duration":"1s","tasks":[{"name":"m","taskgroup":"/A","loop":-1,"program":[
		{"run":"1ms"},{"taskgroup":"/B"},{"loop":{"count":3,"program":[{"run":"500us"},{"sleep":"500us"}]}},{"taskgroup":"/"},{"run":"100us"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"loop" : 3,
					"taskgroup" : "/B"`) || !strings.Contains(string(out), `"taskgroup" : "/",`) {
		t.Errorf("phase taskgroups missing:\n%s", out)
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describeSteps(back.Tasks[0].Program), "run taskgroup:/B loop(run sleep) taskgroup:/ run"; got != want {
		t.Errorf("round trip program %s, want %s", got, want)
	}
}

// TestCgroupScript: the script configures each group on the hierarchy the
// cpu controller is mounted on, and sh parses it.
func TestCgroupScript(t *testing.T) {
	// Built by hand: this build's engine refuses cpuset, so Decode would.
	sc := scenario.New()
	sc.Name, sc.Topology = "s", "smp-4"
	sc.Cgroups = []scenario.Cgroup{
		{Path: "/A", Files: map[string]string{"cpu.weight": "300"}},
		{Path: "/C", Files: map[string]string{"cpuset.cpus": "2-3", "cpuset.cpus.partition": "isolated"}},
		{Path: "/Q", Files: map[string]string{"cpu.max": "25000 100000", "cpu.max.burst": "5000"}},
		{Path: "/S", Files: map[string]string{"cpu.shares": "500"}},
	}
	sc.Tasks = []scenario.Task{{Name: "a", Instances: 1, Loop: -1, Cgroup: "/P/B", Program: []scenario.Step{{Kind: "run", Run: 10 * sched.Millisecond}}}}
	script, warns, err := CgroupScript(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`mkdir -p "$cpu/A"`, `echo 3072 > "$cpu/A/cpu.shares"`, // v1: cpu.weight 300 -> shares
		`echo 100000 > "$cpu/Q/cpu.cfs_period_us"`, `echo 25000 > "$cpu/Q/cpu.cfs_quota_us"`, `echo 5000 > "$cpu/Q/cpu.cfs_burst_us"`,
		`echo 2-3 > "$cpuset/C/cpuset.cpus"`, `echo 0 > "$cpuset/C/cpuset.sched_load_balance"`,
		`mkdir -p "$cpu/P/B"`,
		`echo '+cpu +cpuset' > "$d/cgroup.subtree_control"`, `echo '+cpu +cpuset' > "$v2/P/cgroup.subtree_control"`,
		`echo 300 > "$v2/A/cpu.weight"`, `echo '25000 100000' > "$v2/Q/cpu.max"`, `echo 5000 > "$v2/Q/cpu.max.burst"`,
		`echo 49 > "$v2/S/cpu.weight"`, `echo isolated > "$v2/C/cpuset.cpus.partition"`,
	} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %s:\n%s", want, script)
		}
	}
	if !strings.Contains(script, `[ -d "$h/P/B" ]; then rmdir "$h/P/B"; fi; done`) || strings.Index(script, `"$h/P/B"`) > strings.Index(script, `"$h/P" ]`) {
		t.Errorf("remove: want /P/B removed before /P:\n%s", script)
	}
	if !hasWarning(warns, "cgroups./S", "cpu.shares 500 has no exact cgroup v2 weight") {
		t.Errorf("warnings %v", warns)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	f := filepath.Join(t.TempDir(), "cg.sh")
	os.WriteFile(f, []byte(script), 0o644)
	if out, err := exec.Command(sh, "-n", f).CombinedOutput(); err != nil {
		t.Errorf("sh -n: %v\n%s", err, out)
	}
	if s, _, _ := CgroupScript(scenario.New()); s != "" {
		t.Errorf("a scenario without cgroups has a script:\n%s", s)
	}
}

// TestAutogroupNiceRoundTrip: the scenario's per-session autogroup nice
// is written as the thread key "autogroup_nice" (rt-app ignores it, with
// a warning saying how to set it on a real machine) and read back by the
// import; the import refuses a nice outside -20..19.
func TestAutogroupNiceRoundTrip(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"smp-1","duration":"1s","kernel":{"autogroup":"on"},
		"tasks":[{"name":"make","session":"build","autogroup_nice":5,"program":[{"run":"10ms"}]},
			{"name":"shell","session":"tty","program":[{"run":"1ms"},{"sleep":"9ms"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"autogroup_nice" : 5`) {
		t.Errorf("export lacks the autogroup nice:\n%s", out)
	}
	warned := false
	for _, w := range warns {
		if strings.Contains(w.Path, "autogroup_nice") && strings.Contains(w.Msg, "/proc/<pid>/autogroup") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning that rt-app ignores autogroup_nice: %v", warns)
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("import of the export: %v\n%s", err, out)
	}
	if n := back.Tasks[0].AutogroupNice; n == nil || *n != 5 || back.Tasks[0].Session != "build" || back.Tasks[1].AutogroupNice != nil {
		t.Errorf("round trip: make %v in %q, shell %v", back.Tasks[0].AutogroupNice, back.Tasks[0].Session, back.Tasks[1].AutogroupNice)
	}
	cfg, err := back.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.AutogroupNice) < 2 || cfg.AutogroupNice[1] != 5 || !cfg.Autogroup {
		t.Errorf("imported run: AutogroupNice %v (autogroup %v), want 5 for session build (1) with autogroup on", cfg.AutogroupNice, cfg.Autogroup)
	}
	se := importErr(t, `{ "tasks": { "a": { "session": "s", "autogroup_nice": 20, "run": 10 } } }`)
	if se.Path != "tasks.a.autogroup_nice" || !strings.Contains(se.Msg, "-20..19") {
		t.Errorf("autogroup_nice 20: %q", se)
	}
}
