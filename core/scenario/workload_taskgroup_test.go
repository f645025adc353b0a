package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// A workload's taskgroup puts the task groups it expands to in that
// cgroup (a group of its own keeps its own); it round-trips through the
// encoding and -set, and a bad path is an error at the workload's key.
func TestWorkloadTaskgroup(t *testing.T) {
	const js = `{"version":1,"topology":"smp-2","duration":"50ms",
 "cgroups":{"/Q":{"cpu.max":"5000 100000"}},
 "workloads":[{"kind":"hog","name":"h","count":2,"taskgroup":"/Q"},{"kind":"hog","name":"free"}]}`
	sc, err := Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Workloads[0].Cgroup != "/Q" || sc.Workloads[1].Cgroup != "" {
		t.Fatalf("workload cgroups %q, %q", sc.Workloads[0].Cgroup, sc.Workloads[1].Cgroup)
	}
	back, err := Decode(sc.Encode())
	if err != nil || string(back.Encode()) != string(sc.Encode()) || !strings.Contains(string(sc.Encode()), `"taskgroup":"/Q"`) {
		t.Fatalf("round trip: %v\n%s", err, sc.Encode())
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Cgroups) != 1 || cfg.Cgroups[0].Path != "/Q" {
		t.Fatalf("cgroups %+v", cfg.Cgroups)
	}
	for _, ts := range cfg.Tasks {
		if want := map[bool]int{true: 1, false: 0}[strings.HasPrefix(ts.Name, "h")]; ts.Cgroup != want {
			t.Errorf("task group %s in cgroup %d, want %d", ts.Name, ts.Cgroup, want)
		}
	}
	if err := sc.Set("workloads.free.taskgroup=/P/B"); err != nil || sc.Workloads[1].Cgroup != "/P/B" {
		t.Fatalf("set: %v, %q", err, sc.Workloads[1].Cgroup)
	}
	for _, tc := range []struct{ in, path string }{
		{strings.Replace(js, `"taskgroup":"/Q"`, `"taskgroup":"Q"`, 1), "workloads[0].taskgroup"},
		{strings.Replace(js, `"taskgroup":"/Q"`, `"taskgroup":"cpu:/Q"`, 1), "workloads[0].taskgroup"},
		{strings.Replace(js, `"taskgroup":"/Q"`, `"taskgroup":3`, 1), "workloads[0].taskgroup"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.path+":") {
			t.Errorf("%s: error %v, want one at %s", tc.in[150:], err, tc.path)
		}
	}
	if err := sc.Set("workloads.h.taskgroup=nope"); err == nil || !strings.HasPrefix(err.Error(), "workloads.h.taskgroup:") {
		t.Errorf("set of a bad path: %v", err)
	}
}
