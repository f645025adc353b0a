package replay

// A hostile trace (a 1 MB comm, control characters, markup) replayed
// through the public path gives bounded, escaped errors and warnings, and
// a scenario whose names are sanitized (scenario.go's nameGroups, comm).

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
)

// hostileComm has markup, an escape sequence, a tab and invalid UTF-8.
func hostileComm(n int) string {
	return "<script>x</script>\x1b[31m\t\xff" + strings.Repeat("c", n)
}

// switchLines is a ping-pong of comm a (pid 10) and b (pid 11) on cpu 0.
func switchLines(a string) string {
	var b strings.Builder
	for i := range 20 {
		ts := 1.0 + float64(i)*0.001
		b.WriteString(" " + a + "-10 [000] d..2. " + ftime(ts) + ": sched_switch: prev_comm=" + a + " prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n")
		b.WriteString(" b-11 [000] d..2. " + ftime(ts+0.0005) + ": sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=" + a + " next_pid=10 next_prio=120\n")
	}
	return b.String()
}

func ftime(s float64) string { return strconv.FormatFloat(s, 'f', 6, 64) }

// checkBounded fails unless msg is short, one line and without raw
// control characters or invalid bytes.
func checkBounded(t *testing.T, what, msg string) {
	t.Helper()
	if len(msg) > 1024 || strings.ContainsAny(msg, "\n\t\x1b") || strings.IndexByte(msg, 0xff) >= 0 {
		t.Errorf("%s: %d bytes, want at most 1024 escaped: %.300q", what, len(msg), msg)
	}
}

func TestHostileCommReplay(t *testing.T) {
	// A 1 MB comm: the line is over the importer's limit.
	_, err := ftraceimport.Import(strings.NewReader(switchLines(hostileComm(1<<20))), ftraceimport.Options{})
	if err == nil {
		t.Fatal("a 1 MB line imported, want the line-length error")
	}
	checkBounded(t, "1 MB comm", err.Error())

	// A 30 KB comm fits a line: the replay runs, with its names sanitized.
	tr, err := ftraceimport.Import(strings.NewReader(switchLines(hostileComm(30<<10))), ftraceimport.Options{Lenient: true})
	if err != nil {
		checkBounded(t, "import", err.Error())
		return
	}
	for _, w := range tr.Warnings {
		checkBounded(t, "import warning", w.String())
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		checkBounded(t, "infer", err.Error())
		return
	}
	for _, m := range w.Warnings {
		checkBounded(t, "infer warning", m)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2"})
	if err != nil {
		checkBounded(t, "scenario", err.Error())
		return
	}
	for _, tk := range sc.Tasks {
		// A comm stays printable ASCII (markup is the page's to escape).
		if len(tk.Name) > 64 || strings.ContainsAny(tk.Name, "<>") || len(tk.Comm) > 15 || strings.ContainsAny(tk.Name+tk.Comm, "\x1b\t\xff") {
			t.Errorf("task %.100q comm %.100q: want a sanitized name and comm", tk.Name, tk.Comm)
		}
	}
	cfg, err := Config(sc, nil)
	if err != nil {
		checkBounded(t, "config", err.Error())
		return
	}
	rep, err := Run(cfg, sc.Name)
	if err != nil {
		checkBounded(t, "run", err.Error())
		return
	}
	if len(rep.Tasks) == 0 {
		t.Error("the replay ran no task")
	}
}

// TestHostilePlatformName: a JSON topology file's 1 MB machine name
// reaches the simulator's validation errors (a cgroup's cpuset naming a
// CPU the machine lacks) bounded and escaped.
func TestHostilePlatformName(t *testing.T) {
	name, _ := json.Marshal(hostileComm(1 << 20)) // \xff becomes U+FFFD
	p, err := ParsePlatform("plat.json", []byte(`{"name":`+string(name)+`,"capacities":[1024,1024],"clusters":[[0,1]]}`))
	if err != nil {
		t.Fatalf("ParsePlatform: %.300v", err)
	}
	tr, err := ftraceimport.Import(strings.NewReader(switchLines("a")), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-8"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("cgroups./A.cpuset.cpus=0-5"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Config(sc, &p.Machine)
	if err == nil {
		_, err = Run(cfg, sc.Name)
	}
	if err == nil || !strings.Contains(err.Error(), "cpuset.cpus names cpu") {
		t.Fatalf("err = %.300v, want the cpuset's CPU refused", err)
	}
	checkBounded(t, "run", err.Error())
	if !strings.Contains(err.Error(), `<script>x</script>\x1b[31m\t`) {
		t.Errorf("error does not show the machine name escaped: %.300q", err)
	}
}
