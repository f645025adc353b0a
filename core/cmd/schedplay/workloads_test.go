package main

import (
	"encoding/json"
	"strings"
	"testing"

	"schedplay/core/scenario"
)

func TestWorkloadsListing(t *testing.T) {
	code, out, errs := cli(t, "", "workloads")
	if code != 0 {
		t.Fatalf("workloads: exit %d: %s", code, errs)
	}
	for _, k := range scenario.WorkloadKinds() {
		if !hasLinePrefix(out, k.Kind+": ") {
			t.Errorf("workloads: no line for %s", k.Kind)
		}
		for _, p := range k.Params {
			if !hasLinePrefix(out, "  "+p.Name+" ") {
				t.Errorf("workloads: %s: no line for parameter %s", k.Kind, p.Name)
			}
		}
	}
	if code, _, errs := cli(t, "", "workloads", "x.json"); code != 2 || !strings.Contains(errs, "needs -expand") {
		t.Errorf("workloads x.json: exit %d, %q; want 2 and needs -expand", code, errs)
	}
}

func TestWorkloadsExpand(t *testing.T) {
	code, out, errs := cli(t, "", "workloads", "-expand", "-preset", "demo/kbuild", "-set", "workloads.kb.jobs=10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sc, err := scenario.Decode([]byte(out))
	if err != nil {
		t.Fatalf("the expansion does not decode: %v\n%s", err, out)
	}
	if len(sc.Workloads) != 0 || len(sc.Tasks) != 17 || sc.Tasks[0].Name != "kb.make" || sc.Semaphores["kb.done"] != 0 {
		t.Errorf("expansion: %d workloads, %d task groups (first %q), semaphores %v; want 0, make + 8 job classes of a driver and cc1, kb.done",
			len(sc.Workloads), len(sc.Tasks), sc.Tasks[0].Name, sc.Semaphores)
	}
	// make forks 10 drivers; each of the 8 driver groups forks its cc1.
	if forks := strings.Count(out, `"fork":"kb.gcc`); forks != 10 {
		t.Errorf("make forks %d jobs, want 10", forks)
	}
	if forks := strings.Count(out, `"fork":"kb.cc`); forks != 8 {
		t.Errorf("%d driver groups fork cc1, want 8", forks)
	}
	bad := writeFile(t, "bad.json", `{"version":1,"workloads":[{"kind":"hackbench","fds":0}]}`)
	code, _, errs = cli(t, "", "workloads", "-expand", bad)
	if code != 2 || !strings.Contains(errs, "workloads[0].fds: 0: want 1..100") {
		t.Errorf("bad workload: exit %d, %q", code, errs)
	}
}

// TestWorkloadsRunAndCompare: -set reaches workload parameters in run and
// compare, and the metrics name the expanded task groups.
func TestWorkloadsRunAndCompare(t *testing.T) {
	code, out, errs := cli(t, "", "run", "-preset", "demo/hackbench", "-set", "workloads.hb.groups=1", "-set", "workloads.hb.fds=2", "-o", "json")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	var rep struct {
		Tasks []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, task := range rep.Tasks {
		names = append(names, task.Name)
	}
	if want := "hb.g0.snd-0 hb.g0.snd-1 hb.g0.rcv0-2 hb.g0.rcv1-3"; strings.Join(names, " ") != want {
		t.Errorf("tasks %v, want %s", names, want)
	}
	code, out, errs = cli(t, "", "compare", "-preset", "demo/hackbench", "-runs", "1", "-set", "workloads.hb.fds=2",
		"-a", "workloads.hb.groups=1", "-b", "workloads.hb.groups=2", "-metric", "completion,latency.max@hb.g1.rcv0")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "completion") || !strings.Contains(out, "latency.max@hb.g1.rcv0") {
		t.Errorf("compare output lacks the rows:\n%s", out)
	}
	code, _, errs = cli(t, "", "run", "-preset", "demo/hackbench", "-set", "workloads.hb.groups=0")
	if code != 2 || !strings.Contains(errs, "workloads.hb.groups: 0: want 1..1000") {
		t.Errorf("bad -set: exit %d, %q", code, errs)
	}
}
