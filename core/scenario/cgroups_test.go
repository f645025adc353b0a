package scenario

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// cgDoc is a document with a cgroups object and tasks.
func cgDoc(extra, cgroups string, tasks ...string) string {
	return doc(extra+`"cgroups":`+cgroups+`,`, tasks...)
}

// buildCg decodes js and builds it.
func buildCg(t *testing.T, js string) sched.Config {
	t.Helper()
	sc, err := Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestCgroupConversions checks each interface file's conversion into the
// task_group fields against the kernel's write handlers.
func TestCgroupConversions(t *testing.T) {
	tests := []struct {
		files string
		want  sched.CgroupSpec
	}{
		{`{}`, sched.CgroupSpec{Shares: 1024, Quota: sched.Unlimited, Period: 100 * sched.Millisecond}},
		// sched_weight_from_cgroup(): DIV_ROUND_CLOSEST_ULL(w * 1024, 100).
		{`{"cpu.weight":100}`, sched.CgroupSpec{Shares: 1024}},
		{`{"cpu.weight":1}`, sched.CgroupSpec{Shares: 10}},
		{`{"cpu.weight":300}`, sched.CgroupSpec{Shares: 3072}},
		{`{"cpu.weight":25}`, sched.CgroupSpec{Shares: 256}},
		{`{"cpu.weight":"10000"}`, sched.CgroupSpec{Shares: 102400}},
		{`{"cpu.weight":3}`, sched.CgroupSpec{Shares: 31}}, // 30.72 rounds to 31
		// cpu_weight_nice_write_s64(): sched_prio_to_weight[].
		{`{"cpu.weight.nice":5}`, sched.CgroupSpec{Shares: 335}},
		{`{"cpu.weight.nice":-20}`, sched.CgroupSpec{Shares: 88761}},
		{`{"cpu.shares":2}`, sched.CgroupSpec{Shares: 2}},
		// cpu.max: quota and period in µs; "max" = RUNTIME_INF.
		{`{"cpu.max":"25000 100000"}`, sched.CgroupSpec{Quota: 25 * sched.Millisecond, Period: 100 * sched.Millisecond}},
		{`{"cpu.max":"max 50000"}`, sched.CgroupSpec{Quota: sched.Unlimited, Period: 50 * sched.Millisecond}},
		{`{"cpu.max":"20000"}`, sched.CgroupSpec{Quota: 20 * sched.Millisecond, Period: 100 * sched.Millisecond}},
		{`{"cpu.max":"200000 100000","cpu.max.burst":50000}`, sched.CgroupSpec{Quota: 200 * sched.Millisecond, Period: 100 * sched.Millisecond, Burst: 50 * sched.Millisecond}},
		// v1 files.
		{`{"cpu.cfs_quota_us":-1,"cpu.cfs_period_us":1000000}`, sched.CgroupSpec{Quota: sched.Unlimited, Period: sched.Second}},
		{`{"cpu.cfs_quota_us":5000,"cpu.cfs_burst_us":5000}`, sched.CgroupSpec{Quota: 5 * sched.Millisecond, Period: 100 * sched.Millisecond, Burst: 5 * sched.Millisecond}},
		{`{"cpu.idle":1}`, sched.CgroupSpec{Idle: true, Shares: 3}}, // WEIGHT_IDLEPRIO
		{`{"cpu.idle":0,"cpu.weight":50}`, sched.CgroupSpec{Shares: 512}},
		{`{"cpuset.cpus":"2-3,1"}`, sched.CgroupSpec{CPUs: []int{1, 2, 3}}},
		{`{"cpuset.cpus":"0-1","cpuset.cpus.partition":"isolated"}`, sched.CgroupSpec{CPUs: []int{0, 1}, Partition: "isolated"}},
	}
	prof, _ := sched.ProfileByName(DefaultKernel)
	m, _ := topology.Preset("smp-4")
	for _, tc := range tests {
		sc, err := decodeScenario(numbers(mustJSON(t, cgDoc(`"topology":"smp-4",`, `{"/A":`+tc.files+`}`, hog))).(map[string]any))
		if err != nil {
			t.Fatal(err)
		}
		got, err := cgroupSpec("cgroups./A", "/A", 0, sc.Cgroups[0].Files, prof, &m, false)
		if err != nil {
			t.Fatalf("%s: %v", tc.files, err)
		}
		want := tc.want
		want.Path = "/A"
		if want.Shares == 0 {
			want.Shares = 1024
		}
		if want.Quota == 0 {
			want.Quota = sched.Unlimited
		}
		if want.Period == 0 {
			want.Period = 100 * sched.Millisecond
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.files, got, want)
		}
	}
}

// TestCgroupTree checks the numbering (parents first, from 1), the groups
// created for taskgroup keys and intermediate components, and the tasks'
// start cgroups and sessions.
func TestCgroupTree(t *testing.T) {
	cfg := buildCg(t, cgDoc("", `{"/P/B":{"cpu.weight":50},"/A":{}}`,
		task("a", `"taskgroup":"/A","session":"s1",`, `{"run":-1}`),
		task("b", `"taskgroup":"/P/B",`, `{"run":-1}`),
		task("c", `"taskgroup":"/Q/R/S","session":"s2",`, `{"run":-1}`),
		task("d", `"session":"s1",`, `{"run":-1}`),
		task("e", `"taskgroup":"/",`, `{"run":-1}`)))
	var paths []string
	for _, c := range cfg.Cgroups {
		paths = append(paths, c.Path+"<"+cfg.Cgroups[max(c.Parent-1, 0)].Path)
	}
	// Parents named by index: "/A<..." for parent 0 shows the first entry.
	wantOrder := []string{"/A", "/P", "/P/B", "/Q", "/Q/R", "/Q/R/S"}
	wantParent := []int{0, 0, 2, 0, 4, 5}
	for i, c := range cfg.Cgroups {
		if i >= len(wantOrder) || c.Path != wantOrder[i] || c.Parent != wantParent[i] {
			t.Fatalf("cgroups: %v; want paths %v with parents %v", paths, wantOrder, wantParent)
		}
	}
	if len(cfg.Cgroups) != len(wantOrder) {
		t.Fatalf("%d cgroups, want %d", len(cfg.Cgroups), len(wantOrder))
	}
	if cfg.Cgroups[2].Shares != 512 || cfg.Cgroups[1].Shares != 1024 {
		t.Errorf("shares /P/B %d /P %d, want 512 and the default 1024", cfg.Cgroups[2].Shares, cfg.Cgroups[1].Shares)
	}
	wantCg := []int{1, 3, 6, 0, 0}
	wantSess := []int{1, 0, 2, 1, 0}
	for i, ts := range cfg.Tasks {
		if ts.Cgroup != wantCg[i] || ts.Session != wantSess[i] {
			t.Errorf("task %s: cgroup %d session %d, want %d and %d", ts.Name, ts.Cgroup, ts.Session, wantCg[i], wantSess[i])
		}
	}
}

// TestNoCgroupsNoChange: a scenario without cgroups builds no cgroups and
// encodes without any cgroup key.
func TestNoCgroupsNoChange(t *testing.T) {
	for _, p := range Presets() {
		sc := mustPreset(t, p.Name)
		if len(sc.Cgroups) > 0 || strings.HasPrefix(p.Name, "cgroup/") {
			continue
		}
		cfg, err := sc.Build(sched.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Cgroups != nil {
			t.Errorf("%s: %d cgroups from a scenario without any", p.Name, len(cfg.Cgroups))
		}
		for _, k := range []string{`"cgroups"`, `"taskgroup"`, `"session"`, `"autogroup"`, `"rt_group_sched"`} {
			if strings.Contains(string(sc.Encode()), k) {
				t.Errorf("%s: encoding has %s", p.Name, k)
			}
		}
	}
}

// TestCgroupRoundTrip: Encode writes what Decode reads back, in the
// canonical form of each file.
func TestCgroupRoundTrip(t *testing.T) {
	js := cgDoc(`"topology":"smp-4","kernel":{"autogroup":"off","rt_group_sched":false},`,
		`{"/Q":{"cpu.max":"  25000   100000 ","cpu.max.burst":"20000"},"/A":{"cpu.weight":25},"/I":{"cpu.idle":1},"/P/B":{},"/S":{"cpuset.cpus":"3,2","cpuset.cpus.partition":"root"}}`,
		task("a", `"taskgroup":"/A","session":"x",`, `{"run":"1ms"},{"taskgroup":"/Q"},{"run":"1ms"},{"taskgroup":"/"}`))
	var root any
	if err := json.Unmarshal([]byte(js), &root); err != nil {
		t.Fatal(err)
	}
	// decodeScenario: the codec alone (Build refuses a taskgroup step
	// until the engine moves tasks between groups).
	sc, err := decodeScenario(numbers(root).(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	enc := string(sc.Encode())
	for _, want := range []string{
		`"kernel":{"version":"v6.18","autogroup":"off","rt_group_sched":"off"}`,
		`"cgroups":{"/A":{"cpu.weight":25},"/I":{"cpu.idle":1},"/P/B":{},"/Q":{"cpu.max":"25000 100000","cpu.max.burst":20000},"/S":{"cpuset.cpus":"2-3","cpuset.cpus.partition":"root"}}`,
		`"taskgroup":"/A","session":"x"`,
		`{"run":"1ms"},{"taskgroup":"/Q"},{"run":"1ms"},{"taskgroup":"/"}`,
	} {
		if !strings.Contains(enc, want) {
			t.Errorf("encoding lacks %s:\n%s", want, enc)
		}
	}
	if err := json.Unmarshal([]byte(enc), &root); err != nil {
		t.Fatal(err)
	}
	back, err := decodeScenario(numbers(root).(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, sc) || string(back.Encode()) != enc {
		t.Errorf("round trip changed the scenario:\n%s\n%s", enc, back.Encode())
	}
}

// TestTaskgroupStep: a phase-level taskgroup decodes and encodes as a
// program step.
func TestTaskgroupStep(t *testing.T) {
	m := map[string]any{"program": []any{map[string]any{"run": json1ms()}, map[string]any{"taskgroup": "/B"}}}
	steps, err := decodeProgram("p", m["program"], 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[1].Kind != "taskgroup" || steps[1].Group != "/B" {
		t.Fatalf("steps %+v", steps)
	}
	var w jw
	encodeProgram(&w, steps)
	if got := w.b.String(); got != `[{"run":"1ms"},{"taskgroup":"/B"}]` {
		t.Errorf("encoded %s", got)
	}
}

func json1ms() any { return "1ms" }

// mustJSON decodes a JSON document into generic values.
func mustJSON(t *testing.T, js string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// numbers re-decodes float64s as json.Number, as Decode's UseNumber does.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	}
	return v
}

// TestCgroupErrors: each bad input fails with the JSON path and what was
// expected.
func TestCgroupErrors(t *testing.T) {
	deep := "/" + strings.Repeat("d/", MaxCgroupDepth) + "x"
	var many []string
	for i := range MaxCgroups + 1 {
		many = append(many, `"/g`+strconv.Itoa(i)+`":{}`)
	}
	tests := []struct {
		name, in, path, msg string
	}{
		{"not object", cgDoc("", `[]`, hog), "cgroups", "want an object of cgroup paths"},
		{"relative", cgDoc("", `{"A":{}}`, hog), "cgroups.A", "want an absolute cgroup path"},
		{"root", cgDoc("", `{"/":{"cpu.weight":5}}`, hog), "cgroups./", "root cgroup"},
		{"empty component", cgDoc("", `{"/A//B":{}}`, hog), "cgroups./A//B", "empty path component"},
		{"trailing slash", cgDoc("", `{"/A/":{}}`, hog), "cgroups./A/", "empty path component"},
		{"dotdot", cgDoc("", `{"/A/..":{}}`, hog), "cgroups./A/..", `component ".."`},
		{"bad char", cgDoc("", `{"/A B":{}}`, hog), "cgroups./A B", "want 1-64 characters"},
		{"too deep", cgDoc("", `{"`+deep+`":{}}`, hog), "cgroups." + deep, "levels deep; the limit is 16"},
		{"too many", cgDoc("", `{`+strings.Join(many, ",")+`}`, hog), "cgroups", "257 cgroups; the limit is 256"},
		{"files not object", cgDoc("", `{"/A":5}`, hog), "cgroups./A", "want an object of interface files"},
		{"unknown file", cgDoc("", `{"/A":{"cpu.wieght":5}}`, hog), "cgroups./A.cpu.wieght", "unknown interface file (known: cpu.weight,"},
		{"memory file", cgDoc("", `{"/A":{"memory.max":"1G"}}`, hog), "cgroups./A.memory.max", "unknown interface file"},
		{"weight 0", cgDoc("", `{"/A":{"cpu.weight":0}}`, hog), "cgroups./A.cpu.weight", "want an integer 1..10000"},
		{"weight big", cgDoc("", `{"/A":{"cpu.weight":10001}}`, hog), "cgroups./A.cpu.weight", "want an integer 1..10000"},
		{"weight float", cgDoc("", `{"/A":{"cpu.weight":1.5}}`, hog), "cgroups./A.cpu.weight", "want an integer 1..10000"},
		{"weight bool", cgDoc("", `{"/A":{"cpu.weight":true}}`, hog), "cgroups./A.cpu.weight", "want a number or a string"},
		{"nice", cgDoc("", `{"/A":{"cpu.weight.nice":20}}`, hog), "cgroups./A.cpu.weight.nice", "want an integer -20..19"},
		{"shares", cgDoc("", `{"/A":{"cpu.shares":1}}`, hog), "cgroups./A.cpu.shares", "want an integer 2..262144"},
		{"max words", cgDoc("", `{"/A":{"cpu.max":"1 2 3"}}`, hog), "cgroups./A.cpu.max", `want "QUOTA PERIOD" or "max PERIOD"`},
		{"max garbage", cgDoc("", `{"/A":{"cpu.max":"lots 100000"}}`, hog), "cgroups./A.cpu.max", `want "QUOTA PERIOD" or "max PERIOD"`},
		{"max empty", cgDoc("", `{"/A":{"cpu.max":""}}`, hog), "cgroups./A.cpu.max", `want "QUOTA PERIOD" or "max PERIOD"`},
		{"quota small", cgDoc("", `{"/A":{"cpu.max":"999 100000"}}`, hog), "cgroups./A.cpu.max", "quota 999 µs: want at least 1000"},
		{"period small", cgDoc("", `{"/A":{"cpu.max":"1000 999"}}`, hog), "cgroups./A.cpu.max", "period 999 µs: want 1000..1000000"},
		{"period big", cgDoc("", `{"/A":{"cpu.max":"max 1000001"}}`, hog), "cgroups./A.cpu.max", "period 1000001 µs"},
		{"v1 quota small", cgDoc("", `{"/A":{"cpu.cfs_quota_us":500}}`, hog), "cgroups./A.cpu.cfs_quota_us", "-1 (no limit) or at least 1000"},
		{"v1 period", cgDoc("", `{"/A":{"cpu.cfs_period_us":5}}`, hog), "cgroups./A.cpu.cfs_period_us", "want an integer 1000..1000000"},
		{"burst without quota", cgDoc("", `{"/A":{"cpu.max.burst":1000}}`, hog), "cgroups./A.cpu.max.burst", "burst without a quota"},
		{"burst above quota", cgDoc("", `{"/A":{"cpu.max":"10000 100000","cpu.max.burst":10001}}`, hog), "cgroups./A.cpu.max.burst", "want at most the quota (10000 µs"},
		{"burst on v5.8", cgDoc(`"kernel":{"version":"v5.8"},`, `{"/A":{"cpu.max":"10000 100000","cpu.max.burst":1000}}`, hog), "cgroups./A.cpu.max.burst", "arrived in v5.14; kernel v5.8 has none"},
		{"idle on v5.8", cgDoc(`"kernel":{"version":"v5.8"},`, `{"/A":{"cpu.idle":1}}`, hog), "cgroups./A.cpu.idle", "arrived in v5.15"},
		{"idle 2", cgDoc("", `{"/A":{"cpu.idle":2}}`, hog), "cgroups./A.cpu.idle", "want an integer 0..1"},
		{"idle with weight", cgDoc("", `{"/A":{"cpu.idle":1,"cpu.weight":50}}`, hog), "cgroups./A.cpu.weight", "idle group (cpu.idle 1) has the minimum weight"},
		{"weight and shares", cgDoc("", `{"/A":{"cpu.weight":5,"cpu.shares":100}}`, hog), "cgroups./A.cpu.weight", "same task_group field as cpu.shares"},
		{"max and v1 quota", cgDoc("", `{"/A":{"cpu.max":"max","cpu.cfs_quota_us":5000}}`, hog), "cgroups./A.cpu.max", "same task_group field as cpu.cfs_quota_us"},
		{"max and v1 period", cgDoc("", `{"/A":{"cpu.max":"max","cpu.cfs_period_us":5000}}`, hog), "cgroups./A.cpu.cfs_period_us", "cpu.max sets the period too"},
		{"cpus syntax", cgDoc("", `{"/A":{"cpuset.cpus":"0-"}}`, hog), "cgroups./A.cpuset.cpus", `want a CPU list like "0-3,8"`},
		{"cpus reversed", cgDoc("", `{"/A":{"cpuset.cpus":"3-1"}}`, hog), "cgroups./A.cpuset.cpus", `want a CPU list`},
		{"cpus missing", cgDoc(`"topology":"smp-2",`, `{"/A":{"cpuset.cpus":"0-3"}}`, hog), "cgroups./A.cpuset.cpus", "CPU 2 does not exist on smp-2 (CPUs 0-1)"},
		{"partition word", cgDoc("", `{"/A":{"cpuset.cpus.partition":"exclusive"}}`, hog), "cgroups./A.cpuset.cpus.partition", "want member, root or isolated"},
		{"partition no cpus", cgDoc("", `{"/A":{"cpuset.cpus.partition":"root"}}`, hog), "cgroups./A.cpuset.cpus.partition", "needs its own CPUs"},
		{"partition takes all, root has tasks", cgDoc(`"topology":"smp-2",`, `{"/A":{"cpuset.cpus":"0-1","cpuset.cpus.partition":"root"}}`, hog), "cgroups", "root cgroup has tasks but its partitions took every CPU"},
		{"partition child takes all", cgDoc(`"topology":"smp-4",`, `{"/A":{"cpuset.cpus":"2-3","cpuset.cpus.partition":"root"},"/A/B":{"cpuset.cpus":"2-3","cpuset.cpus.partition":"isolated"}}`,
			task("a", `"taskgroup":"/A",`, `{"run":-1}`)), "cgroups./A", "the group has tasks but its partition has no CPUs left"},
		{"partitions overlap", cgDoc(`"topology":"smp-4",`, `{"/A":{"cpuset.cpus":"2-3","cpuset.cpus.partition":"root"},"/B":{"cpuset.cpus":"3","cpuset.cpus.partition":"root"}}`, hog),
			"cgroups./B.cpuset.cpus", "CPU 3 is not in the parent partition's CPUs (0-1)"},
		{"partition under member", cgDoc(`"topology":"smp-4",`, `{"/A":{},"/A/B":{"cpuset.cpus":"3","cpuset.cpus.partition":"root"}}`, hog),
			"cgroups./A/B.cpuset.cpus.partition", "parent /A is not a partition root"},
		{"rt file without rt_group_sched", cgDoc("", `{"/A":{"cpu.rt_runtime_us":1000}}`, hog), "cgroups./A.cpu.rt_runtime_us", "only with kernel.rt_group_sched=on"},
		{"taskgroup relative", doc("", task("a", `"taskgroup":"A",`, `{"run":-1}`)), "tasks[0].taskgroup", "want an absolute cgroup path"},
		{"taskgroup other controller", doc("", task("a", `"taskgroup":"memory:/A",`, `{"run":-1}`)), "tasks[0].taskgroup", `names a group of the "memory" hierarchy: want a cgroup of the cpu controller`},
		{"taskgroup number", doc("", task("a", `"taskgroup":5,`, `{"run":-1}`)), "tasks[0].taskgroup", "want a string"},
		{"taskgroup step", doc("", task("a", "", `{"taskgroup":"x"}`)), "tasks[0].program[0].taskgroup", "want an absolute cgroup path"},
		{"taskgroup step type", doc("", task("a", "", `{"taskgroup":1}`)), "tasks[0].program[0].taskgroup", `want a cgroup path like "/A"`},
		{"session empty", doc("", task("a", `"session":"",`, `{"run":-1}`)), "tasks[0].session", "want a session name"},
		{"autogroup word", doc(`"kernel":{"autogroup":"yes"},`, hog), "kernel.autogroup", `want "on" or "off"`},
		{"rt_group_sched word", doc(`"kernel":{"rt_group_sched":2},`, hog), "kernel.rt_group_sched", `want "on" or "off"`},
	}
	for _, tc := range tests {
		_, err := Decode([]byte(tc.in))
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		e := asError(t, tc.name, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s:\n got %q: %q\nwant %q: ...%q...", tc.name, e.Path, e.Msg, tc.path, tc.msg)
		}
	}
}

// TestCgroupSet: -set creates and changes groups without touching the
// scenario it was cloned from, and the result builds.
func TestCgroupSet(t *testing.T) {
	base, err := Decode([]byte(cgDoc("", `{"/Q":{"cpu.max":"25000 100000"}}`, task("a", `"taskgroup":"/Q",`, `{"run":-1}`))))
	if err != nil {
		t.Fatal(err)
	}
	sc := base.Clone()
	for _, kv := range []string{"cgroups./Q.cpu.max=50000 100000", "cgroups./user.slice/B.cpu.weight.nice=5", "cgroups./Q.cpu.max.burst=10000", "tasks.a.taskgroup=/user.slice/B", "kernel.autogroup=off"} {
		if err := sc.Set(kv); err != nil {
			t.Fatalf("%s: %v", kv, err)
		}
	}
	if got := base.Cgroups[0].Files["cpu.max"]; got != "25000 100000" || len(base.Cgroups) != 1 || base.Tasks[0].Cgroup != "/Q" {
		t.Errorf("the original changed: %+v %+v", base.Cgroups, base.Tasks[0])
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cfg.Cgroups {
		got = append(got, c.Path)
	}
	if !reflect.DeepEqual(got, []string{"/Q", "/user.slice", "/user.slice/B"}) {
		t.Fatalf("cgroups %v", got)
	}
	if q := cfg.Cgroups[0]; q.Quota != 50*sched.Millisecond || q.Burst != 10*sched.Millisecond {
		t.Errorf("/Q quota %v burst %v", q.Quota, q.Burst)
	}
	if cfg.Cgroups[2].Shares != 335 || cfg.Tasks[0].Cgroup != 3 {
		t.Errorf("/user.slice/B shares %d, task in %d", cfg.Cgroups[2].Shares, cfg.Tasks[0].Cgroup)
	}
	keep := base.Clone()
	for _, kv := range []string{"cgroups./Q.cpu.max=max 50000", "cgroups./Q.cpu.max=20000"} {
		if err := keep.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	if got := keep.Cgroups[0].Files["cpu.max"]; got != "20000 50000" {
		t.Errorf("cpu.max after a quota alone: %q, want the period kept: \"20000 50000\"", got)
	}
	for _, tc := range []struct{ kv, msg string }{
		{"cgroups./Q.cpu.mx=1", "want cgroups./PATH.FILE with FILE one of"},
		{"cgroups.Q.cpu.max=max", "want an absolute cgroup path"},
		{"cgroups./Q.cpu.max=1 2", "quota 1 µs"},
		{"cgroups./Q.cpu.weight=0", "want an integer 1..10000"},
		{"tasks.zz.taskgroup=/Q", `no task group "zz"`},
		{"kernel.rt_group_sched=maybe", `want "on" or "off"`},
	} {
		err := sc.Clone().Set(tc.kv)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("-set %s: %v, want ...%s...", tc.kv, err, tc.msg)
		}
	}
}

// TestRTGroupRules: with kernel.rt_group_sched=on, RT tasks need a group
// with runtime and the runtimes must nest (tg_rt_schedulable()).
func TestRTGroupRules(t *testing.T) {
	rt := `"policy":"SCHED_FIFO","priority":10,`
	on := `"kernel":{"rt_group_sched":"on"},`
	for _, tc := range []struct{ name, in, path, msg string }{
		{"rt task without runtime", cgDoc(on, `{"/A":{}}`, task("r", rt+`"taskgroup":"/A",`, `{"run":-1}`)), "tasks[0].taskgroup", "has no RT runtime"},
		{"runtime above period", cgDoc(on, `{"/A":{"cpu.rt_runtime_us":2000,"cpu.rt_period_us":1000}}`, hog), "cgroups./A.cpu.rt_runtime_us", "more runtime than the period"},
		{"above global", cgDoc(on, `{"/A":{"cpu.rt_runtime_us":990000}}`, hog), "cgroups./A.cpu.rt_runtime_us", "more RT bandwidth than the global"},
		{"children above parent", cgDoc(on, `{"/A":{"cpu.rt_runtime_us":100000},"/A/B":{"cpu.rt_runtime_us":60000},"/A/C":{"cpu.rt_runtime_us":60000}}`, hog), "cgroups./A.cpu.rt_runtime_us", "children's RT runtime adds up"},
		{"child above parent", cgDoc(on, `{"/A":{"cpu.rt_runtime_us":50000},"/A/B":{"cpu.rt_runtime_us":60000}}`, hog), "cgroups./A.cpu.rt_runtime_us", "children's RT runtime adds up"},
		{"child of a group without runtime", cgDoc(on, `{"/A":{},"/A/B":{"cpu.rt_runtime_us":60000}}`, hog), "cgroups./A.cpu.rt_runtime_us", "children's RT runtime adds up"},
		{"top level above global", cgDoc(on, `{"/A":{"cpu.rt_runtime_us":500000},"/B":{"cpu.rt_runtime_us":500000}}`, hog), "cgroups", "top-level groups' RT runtime adds up"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		e := asError(t, tc.name, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s:\n got %q: %q\nwant %q: ...%q...", tc.name, e.Path, e.Msg, tc.path, tc.msg)
		}
	}
}
