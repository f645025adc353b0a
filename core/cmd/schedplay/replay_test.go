package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
)

// pingPongTrace is a real-kernel-shaped trace of a cross-CPU ping-pong:
// sched_waking in the waker's context, sched_wakeup from the IPI.
func pingPongTrace(n int) string {
	var b strings.Builder
	b.WriteString("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n")
	comm := map[int]string{0: "<idle>", 100: "ping", 200: "pong"}
	name := func(pid, cpu int) string {
		if pid == 0 {
			return fmt.Sprintf("swapper/%d", cpu)
		}
		return comm[pid]
	}
	line := func(pid, cpu int, flags string, us int, ev, body string) {
		fmt.Fprintf(&b, "%16s-%-7d [%03d] %s %6d.%06d: %s: %s\n", comm[pid], pid, cpu, flags, 100+us/1e6, us%1e6, ev, body)
	}
	sw := func(us, cpu, prev int, st string, next int) {
		line(prev, cpu, "d..2.", us, "sched_switch", fmt.Sprintf("prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120",
			name(prev, cpu), prev, st, name(next, cpu), next))
	}
	wake := func(us, waker, wcpu, pid, cpu int) {
		body := fmt.Sprintf("comm=%s pid=%d prio=120 target_cpu=%03d", comm[pid], pid, cpu)
		line(waker, wcpu, "d..2.", us, "sched_waking", body)
		line(0, cpu, "dNh2.", us, "sched_wakeup", body)
	}
	t := 0
	sw(t, 0, 0, "R", 100)
	sw(t, 1, 0, "R", 200)
	sw(t+1, 1, 200, "S", 0)
	t++
	for i := 0; i < n; i++ {
		t += 50
		wake(t, 100, 0, 200, 1)
		sw(t+2, 0, 100, "S", 0)
		t += 5
		sw(t, 1, 0, "R", 200)
		t += 50
		wake(t, 200, 1, 100, 0)
		sw(t+2, 1, 200, "S", 0)
		t += 5
		sw(t, 0, 0, "R", 100)
	}
	return b.String()
}

func TestReplayCLI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pp.trace")
	if err := os.WriteFile(path, []byte(pingPongTrace(300)), 0o644); err != nil {
		t.Fatal(err)
	}
	scPath, mPath := filepath.Join(dir, "sc.json"), filepath.Join(dir, "m.json")
	var out, errb bytes.Buffer
	if rc := run([]string{"replay", "-kernel", "v6.6", "-scenario", scPath, "-metrics", mPath, "-b", "kernel.version=v5.8", path}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	got := out.String()
	for _, want := range []string{"replay of pp.trace: 2 tasks, 2 CPUs", "clock reads: the trace has no timer interrupt entries", "ping_100", "pong_200", "score ", "compare replay of pp.trace", "B: kernel.version=v5.8", "[topology smp-2, kernel v5.8]"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q missing in\n%s", want, got)
		}
	}
	data, err := os.ReadFile(scPath)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode(data)
	if err != nil {
		t.Fatalf("the written scenario does not decode: %v", err)
	}
	if sc.Topology != "smp-2" || sc.Kernel.Version != "v6.6" || len(sc.Tasks) != 2 || len(sc.Semaphores) != 2 {
		t.Errorf("scenario: %s", data)
	}
	js, err := os.ReadFile(mPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep metrics.Report
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 2 || rep.Kernel != "v6.6" || rep.Tasks[0].Wakeups < 290 {
		t.Errorf("metrics: %s", js)
	}
	timedPath := filepath.Join(dir, "timed.json")
	out.Reset()
	if rc := run([]string{"replay", "-timed", "-scenario", timedPath, path}, nil, &out, &errb); rc != 0 {
		t.Fatalf("-timed: rc %d: %s", rc, errb.String())
	}
	out.Reset()
	if rc := run([]string{"export-rtapp", timedPath}, nil, &out, &errb); rc != 0 || !strings.Contains(out.String(), "ping") {
		t.Errorf("export-rtapp of the timed replay: rc %d: %s", rc, errb.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "-topology", "nope", path}, `-topology "nope": not a topology preset`},
		{[]string{"replay", "-set", "bogus=1", path}, "-set"},
		{[]string{"replay", "-b", "x", path}, `-b "x": want KEY=VALUE`},
		{[]string{"replay"}, "want one TRACE"},
		{[]string{"replay", "-pin", "all", path}, `pin "all"`},
		{[]string{"replay", "-until", "soon", path}, "-until"},
		{[]string{"replay", "-until", "0s", path}, "want a positive duration"},
	} {
		out.Reset()
		errb.Reset()
		if rc := run(c.args, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: rc %d, stderr %q, want 2 and %q", c.args, rc, errb.String(), c.want)
		}
	}
}

// TestReplayUntil: -until replays the trace's first span: the trace's and
// the replay's wakeups are those of the span (a round trip is 110 us), and
// stderr says what was left out.
func TestReplayUntil(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pp.trace")
	if err := os.WriteFile(path, []byte(pingPongTrace(300)), 0o644); err != nil {
		t.Fatal(err)
	}
	mPath := filepath.Join(filepath.Dir(path), "m.json")
	var out, errb bytes.Buffer
	if rc := run([]string{"replay", "-until", "11ms", "-metrics", mPath, path}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if !strings.Contains(out.String(), "2 CPUs, 0.011s") || !strings.Contains(errb.String(), "-until: the first 11ms replayed") {
		t.Errorf("stdout %s\nstderr %s", out.String(), errb.String())
	}
	js, err := os.ReadFile(mPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		metrics.Report
		Provenance struct{ Command string } `json:"provenance"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	for _, tk := range doc.Tasks {
		if tk.Wakeups < 95 || tk.Wakeups > 101 {
			t.Errorf("%s: %d wakeups in the first 11 ms, want about 100", tk.Name, tk.Wakeups)
		}
	}
	if !strings.Contains(doc.Provenance.Command, "-until 11ms") {
		t.Errorf("provenance command %q: want -until 11ms", doc.Provenance.Command)
	}
}
