package scenario

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// wdoc is a scenario document with the given workloads (JSON objects) on
// a topology, for a duration.
func wdoc(topo, dur string, workloads ...string) string {
	return `{"version":1,"topology":"` + topo + `","duration":"` + dur + `","workloads":[` + strings.Join(workloads, ",") + `]}`
}

// everyParam sets every parameter of every generator to a value other
// than its default (or the only one there is).
var everyParam = map[string]string{
	"pipe":       `{"kind":"pipe","name":"pp","loops":77,"cost":"1.5us","pin":"cross"}`,
	"hackbench":  `{"kind":"hackbench","name":"hb","groups":3,"fds":5,"loops":7,"mode":"pipe","cost":"3us"}`,
	"schbench":   `{"kind":"schbench","name":"sb","messages":3,"workers":4,"work":"2ms","sleep":"100us","cost":"7us"}`,
	"cyclictest": `{"kind":"cyclictest","name":"ct","threads":3,"interval":"500us","distance":"50us","priority":80,"policy":"SCHED_RR","pinned":false,"cost":"0s","loops":1000}`,
	"kbuild":     `{"kind":"kbuild","name":"kb","jobs":33,"j":3,"run":"5ms","io":"0s","spawn":"0s","dist":"kbuild61"}`,
	"multimedia": `{"kind":"multimedia","name":"mm","profile":"video","scale":150}`,
	"hog":        `{"kind":"hog","name":"h","count":3,"policy":"SCHED_FIFO","nice":0,"priority":10,"cpu":1}`,
	"ipistorm":   `{"kind":"ipistorm","name":"is","numipi":50,"cpu":0,"senders":2,"offset":2,"single":true,"wait":true}`,
}

func TestWorkloadRoundTrip(t *testing.T) {
	for _, g := range generators {
		every, ok := everyParam[g.kind]
		if !ok {
			t.Fatalf("everyParam has no entry for %s", g.kind)
		}
		for _, w := range []string{`{"kind":"` + g.kind + `"}`, every} {
			sc, err := Decode([]byte(wdoc("smp-4", "1s", w)))
			if err != nil {
				t.Fatalf("%s: %v", w, err)
			}
			roundTrip(t, sc)
			js := sc.Encode()
			if back, _ := Decode(js); string(back.Encode()) != string(js) {
				t.Errorf("%s: Encode not canonical", g.kind)
			}
			if strings.Contains(string(js), `"tasks"`) {
				t.Errorf("%s: the encoding carries the expansion or an empty tasks array: %s", g.kind, js)
			}
			back, err := DecodeURL("#s=" + EncodeURLPayload(sc))
			if err != nil || !reflect.DeepEqual(back, sc) {
				t.Errorf("%s: URL round trip: %v", g.kind, err)
			}
		}
		sc, _ := Decode([]byte(wdoc("smp-4", "1s", every)))
		if len(sc.Workloads[0].Params) != len(g.params) {
			t.Errorf("%s: everyParam sets %d of %d parameters", g.kind, len(sc.Workloads[0].Params), len(g.params))
		}
	}
	// Tasks and workloads together, and a hand-declared semaphore.
	sc, err := Decode([]byte(`{"version":1,"tasks":[{"name":"a","program":[{"signal":"s"},{"run":"1ms"}]},{"name":"b","program":[{"wait":"s"}]}],
		"workloads":[{"kind":"hog","name":"x"}],"semaphores":{"s":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
}

func TestWorkloadErrors(t *testing.T) {
	for _, tc := range []struct{ doc, path, msg string }{
		{wdoc("smp-2", "1s", `{"name":"x"}`), "workloads[0].kind", "missing; want one of pipe, hackbench"},
		{wdoc("smp-2", "1s", `{"kind":"storm"}`), "workloads[0].kind", `"storm": want one of`},
		{wdoc("smp-2", "1s", `{"kind":7}`), "workloads[0].kind", "want a string"},
		{wdoc("smp-2", "1s", `[]`), "workloads[0]", "want a JSON object"},
		{`{"version":1,"workloads":{}}`, "workloads", "want an array"},
		{`{"version":1,"workloads":[]}`, "tasks", "want at least one task group (or a workload)"},
		{`{"version":1}`, "tasks", "missing; want an array of task groups (or a workloads array)"},
		{wdoc("smp-2", "1s", `{"kind":"hog","name":"a.b"}`), "workloads[0].name", "want 1-32 characters"},
		{wdoc("smp-2", "1s", `{"kind":"hog","name":""}`), "workloads[0].name", "want 1-32 characters"},
		{wdoc("smp-2", "1s", `{"kind":"hog","name":3}`), "workloads[0].name", "want a string"},
		{wdoc("smp-2", "1s", `{"kind":"hog"}`, `{"kind":"hog"}`), "workloads[1].name", `"hog" is used by another workload`},
		{`{"version":1,"tasks":[{"name":"h","program":[{"run":-1}]}],"workloads":[{"kind":"hog","name":"h"}]}`, "workloads[0].name", `task group "h" of this workload is also defined by tasks[0]`},
		{wdoc("smp-2", "1s", `{"kind":"hog","groups":1}`), "workloads[0].groups", "unknown parameter of hog (known: kind, name, taskgroup, count"},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","groups":0}`), "workloads[0].groups", "0: want 1..1000"},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","groups":"4"}`), "workloads[0].groups", "want an integer 1..1000"},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","groups":1.5}`), "workloads[0].groups", "want an integer 1..1000, got 1.5"},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","groups":200,"fds":100}`), "workloads[0].groups", "are 40000 tasks; the limit is 20000"},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","mode":"tcp"}`), "workloads[0].mode", `"tcp": want one of socket|pipe`},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","cost":"2ms"}`), "workloads[0].cost", "2ms: want 10ns..1ms"},
		{wdoc("smp-2", "1s", `{"kind":"hackbench","cost":true}`), "workloads[0].cost", "want a duration"},
		{wdoc("smp-2", "1s", `{"kind":"cyclictest","pinned":"yes"}`), "workloads[0].pinned", "want true or false"},
		{wdoc("smp-2", "1s", `{"kind":"cyclictest","priority":100}`), "workloads[0].priority", "100: want 1..99"},
		{wdoc("smp-1", "1s", `{"kind":"pipe","pin":"cross"}`), "workloads[0].pin", "cross needs two CPUs; the machine has 1"},
		{wdoc("smp-2", "1s", `{"kind":"hog","cpu":2}`), "workloads[0].cpu", "CPU 2 does not exist (CPUs 0-1)"},
		{wdoc("smp-2", "1s", `{"kind":"ipistorm","single":false}`), "workloads[0].single", "not modelled"},
		{wdoc("smp-2", "1s", `{"kind":"ipistorm","wait":false}`), "workloads[0].wait", "not modelled"},
		{wdoc("smp-2", "1s", `{"kind":"ipistorm","cpu":1}`), "workloads[0].offset", "target CPU 2 does not exist"},
		{wdoc("smp-2", "1s", `{"kind":"ipistorm","senders":3}`), "workloads[0].senders", "sender CPUs 0-2"},
		{wdoc("smp-4", "1s", `{"kind":"ipistorm","senders":2,"offset":1}`), "workloads[0].offset", "both a sender and a target"},
		{wdoc("smp-2", "1s", `{"kind":"hog","policy":"SCHED_FIFO"}`), "workloads[0].priority", "SCHED_FIFO needs an RT priority 1..99"},
		{wdoc("smp-2", "1s", `{"kind":"hog","priority":5}`), "workloads[0].priority", "only SCHED_FIFO and SCHED_RR have an RT priority"},
		{wdoc("smp-2", "1s", `{"kind":"hog","policy":"SCHED_RR","priority":5,"nice":3}`), "workloads[0].nice", "nice applies to the fair policies"},
		{wdoc("smp-2", "1s", `{"kind":"kbuild","jobs":5001}`), "workloads[0].jobs", "5001: want 1..5000"},
		{wdoc("smp-2", "1s", `{"kind":"schbench","messages":256,"workers":1024}`), "workloads[0].workers", "the limit is 20000"},
		{wdoc("smp-2", "1s", `{"kind":"multimedia","profile":"flac"}`), "workloads[0].profile", `"flac": want one of mp3|video`},
		{wdoc("smp-2", "1s", `{"kind":"kbuild","name":"a","jobs":5000,"j":1}`, `{"kind":"kbuild","name":"b","jobs":5000,"j":1}`,
			`{"kind":"kbuild","name":"c","jobs":5000,"j":1}`, `{"kind":"kbuild","name":"d","jobs":5000,"j":1}`,
			`{"kind":"kbuild","name":"e","jobs":5000,"j":1}`, `{"kind":"kbuild","name":"f","jobs":5000,"j":1}`,
			`{"kind":"kbuild","name":"g","jobs":5000,"j":1}`), "workloads[6]", "expand to more than 100000 program steps"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"run":-1}]}],"semaphores":{"s":1}}`, "semaphores.s", "no task waits on or signals this resource"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"barrier":"s"}]}],"semaphores":{"s":1}}`, "semaphores.s", "is a barrier"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"wait":"s"}]}],"semaphores":{"s":-1}}`, "semaphores.s", "-1: want an initial count 0..1048576"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"wait":"s"}]}],"semaphores":{"s":"1"}}`, "semaphores.s", "want an integer"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"wait":"s"}]}],"semaphores":[]}`, "semaphores", "want a JSON object"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"signal":"hb.g0.p0.data"},{"run":"1ms"}]}],"semaphores":{"hb.g0.p0.data":0},"workloads":[{"kind":"hackbench","name":"hb"}]}`,
			"workloads[0].name", `semaphore "hb.g0.p0.data" of this workload is also declared elsewhere`},
	} {
		_, err := Decode([]byte(tc.doc))
		if err == nil {
			t.Errorf("%s: decoded", tc.doc)
			continue
		}
		e := asError(t, tc.doc, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s:\n got path %q msg %q\nwant path %q msg containing %q", tc.doc, e.Path, e.Msg, tc.path, tc.msg)
		}
	}
}

func TestWorkloadSet(t *testing.T) {
	sc := mustPreset(t, "demo/nice-shares")
	for _, kv := range []string{"workloads.hb.kind=hackbench", "workloads.hb.groups=2", "workloads.hb.mode=pipe",
		"workloads.hb.cost=1.5us", "workloads.ct.kind=cyclictest", "workloads.ct.pinned=off", "workloads.hb.kind=hackbench"} {
		if err := sc.Set(kv); err != nil {
			t.Fatalf("Set(%s) = %v", kv, err)
		}
	}
	want := []Workload{{Kind: "hackbench", Name: "hb", Params: map[string]string{"groups": "2", "mode": "pipe", "cost": "1.5us"}},
		{Kind: "cyclictest", Name: "ct", Params: map[string]string{"pinned": "false"}}}
	if !reflect.DeepEqual(sc.Workloads, want) {
		t.Fatalf("workloads = %+v, want %+v", sc.Workloads, want)
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	// Set never changes a scenario it was copied from.
	c := *sc
	if err := c.Set("workloads.hb.groups=5"); err != nil {
		t.Fatal(err)
	}
	if sc.Workloads[0].Params["groups"] != "2" || c.Workloads[0].Params["groups"] != "5" {
		t.Errorf("Set on a copy changed the original: %v / %v", sc.Workloads[0].Params, c.Workloads[0].Params)
	}
	for _, tc := range []struct{ kv, path, msg string }{
		{"workloads.hb=1", "workloads.hb", "want workloads.NAME.PARAM"},
		{"workloads.hb.=1", "workloads.hb.", "want workloads.NAME.PARAM"},
		{"workloads.nope.groups=1", "workloads.nope.groups", `no workload named "nope"`},
		{"workloads.hb.kind=hog", "workloads.hb.kind", `workload "hb" is a hackbench`},
		{"workloads.x.kind=storm", "workloads.x.kind", "want one of pipe"},
		{"workloads.a-b.kind=hog", "workloads.a-b.kind", "want a workload name"},
		{"workloads.hb.fds=many", "workloads.hb.fds", `"many": want an integer 1..100`},
		{"workloads.hb.fds=0", "workloads.hb.fds", "0: want 1..100"},
		{"workloads.hb.cost=fast", "workloads.hb.cost", "want a non-negative duration"},
		{"workloads.hb.mode=udp", "workloads.hb.mode", `"udp": want one of socket|pipe`},
		{"workloads.ct.pinned=maybe", "workloads.ct.pinned", `"maybe": want true or false`},
		{"workloads.hb.threads=1", "workloads.hb.threads", "unknown parameter of hackbench"},
	} {
		err := sc.Set(tc.kv)
		if err == nil {
			t.Errorf("Set(%s) succeeded", tc.kv)
			continue
		}
		e := asError(t, tc.kv, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("Set(%s): path %q msg %q; want path %q msg containing %q", tc.kv, e.Path, e.Msg, tc.path, tc.msg)
		}
	}
	// Every parameter of every generator can be set from text.
	for _, g := range generators {
		every, _ := Decode([]byte(wdoc("smp-4", "1s", everyParam[g.kind])))
		sc := New()
		if err := sc.Set("workloads.w.kind=" + g.kind); err != nil {
			t.Fatal(err)
		}
		for _, p := range g.params {
			if err := sc.Set("workloads.w." + p.Name + "=" + every.Workloads[0].Params[p.Name]); err != nil {
				t.Errorf("%s: %v", g.kind, err)
			}
		}
		if !reflect.DeepEqual(sc.Workloads[0].Params, every.Workloads[0].Params) {
			t.Errorf("%s: -set gives %v, JSON %v", g.kind, sc.Workloads[0].Params, every.Workloads[0].Params)
		}
	}
}

// renderExpansion is the stable text form of what a scenario's workloads
// expand to: one canonical JSON task group per line, then the semaphores.
func renderExpansion(t *testing.T, sc *Scenario) string {
	t.Helper()
	full, err := sc.Expanded()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, task := range full.Tasks {
		var w jw
		encodeTask(&w, task)
		b.Write(w.b.Bytes())
		b.WriteByte('\n')
	}
	if len(full.Semaphores) > 0 {
		var w jw
		encodeSemaphores(&w, full.Semaphores)
		b.WriteString("semaphores ")
		b.Write(w.b.Bytes())
		b.WriteByte('\n')
	}
	return b.String()
}

// goldenWorkloads are small instances of every generator whose expansion
// is kept in testdata/workloads.golden.
var goldenWorkloads = []struct{ name, doc string }{
	{"pipe default", wdoc("smp-2", "1s", `{"kind":"pipe"}`)},
	{"pipe every parameter", wdoc("smp-2", "1s", everyParam["pipe"])},
	{"hackbench socket", wdoc("smp-2", "1s", `{"kind":"hackbench","groups":2,"fds":3,"loops":4}`)},
	{"hackbench every parameter", wdoc("smp-2", "1s", everyParam["hackbench"])},
	{"schbench", wdoc("smp-2", "1s", everyParam["schbench"])},
	{"cyclictest one per CPU", wdoc("smp-4", "1s", `{"kind":"cyclictest"}`)},
	{"cyclictest every parameter", wdoc("smp-2", "1s", everyParam["cyclictest"])},
	{"kbuild", wdoc("smp-2", "1s", `{"kind":"kbuild","jobs":12,"j":3}`)},
	{"kbuild every parameter", wdoc("smp-2", "1s", everyParam["kbuild"])},
	{"multimedia mp3", wdoc("smp-2", "1s", `{"kind":"multimedia"}`)},
	{"multimedia video", wdoc("smp-2", "1s", everyParam["multimedia"])},
	{"hog", wdoc("smp-2", "1s", `{"kind":"hog","count":2,"nice":5}`)},
	{"hog every parameter", wdoc("smp-2", "1s", everyParam["hog"])},
	{"ipistorm default", wdoc("smp-2", "1s", `{"kind":"ipistorm"}`)},
	{"ipistorm every parameter", wdoc("smp-4", "1s", everyParam["ipistorm"])},
}

const goldenPath = "testdata/workloads.golden"

func TestWorkloadExpansionGolden(t *testing.T) {
	var b strings.Builder
	for _, g := range goldenWorkloads {
		sc, err := Decode([]byte(g.doc))
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		b.WriteString("# " + g.name + ": " + string(sc.Encode()) + "\n")
		b.WriteString(renderExpansion(t, sc))
		b.WriteString("\n")
	}
	if *rewrite {
		if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (create it: go test ./core/scenario/ -run TestWorkloadExpansionGolden -rewrite)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s:%d differs (review, then -rewrite):\n got %s\nwant %s", goldenPath, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", goldenPath, len(gl), len(wl))
	}
}

// TestWorkloadExpandedRunsTheSame: the expanded scenario is an ordinary
// scenario (it round-trips through JSON) and runs the same event stream.
func TestWorkloadExpandedRunsTheSame(t *testing.T) {
	for _, name := range []string{"demo/hackbench", "demo/kbuild", "demo/cyclictest-hackbench"} {
		sc := mustPreset(t, name)
		sc.Duration = 20 * sched.Millisecond
		full, err := sc.Expanded()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(full.Encode())
		if err != nil {
			t.Fatalf("%s: expanded scenario does not decode: %v", name, err)
		}
		a, b := eventHash(t, sc), eventHash(t, back)
		if a != b {
			t.Errorf("%s: the workload form and its expansion run differently (%s vs %s)", name, a, b)
		}
	}
}
