package metrics_test

import (
	"math"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func runScenario(t *testing.T, js string) metrics.Report {
	t.Helper()
	sc, err := scenario.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metrics.Run(cfg, sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCgroupReport: one hog in /A against four in /B on one CPU: each
// group's usage is half the run (the 50 / 12.5 % case), the group
// figures cover their tasks, and a capped group reports its periods.
func TestCgroupReport(t *testing.T) {
	r := runScenario(t, `{"version":1,"topology":"smp-1","duration":"2s",
		"cgroups":{"/A":{},"/B":{},"/Q":{"cpu.max":"25000 100000"}},
		"tasks":[{"name":"a","taskgroup":"/A","program":[{"run":-1}]},{"name":"b","instances":4,"taskgroup":"/B","program":[{"run":-1}]}]}`)
	if len(r.Cgroups) != 3 || r.Cgroups[0].Path != "/A" || r.Cgroups[1].Path != "/B" || r.Cgroups[2].Path != "/Q" {
		t.Fatalf("cgroups %+v", r.Cgroups)
	}
	var runB, waitB int64
	for _, tk := range r.Tasks[1:] {
		runB += tk.RuntimeNs
		waitB += tk.WaitNs
		if share := float64(tk.RuntimeNs) / float64(r.DurationNs); math.Abs(share-0.125) > 0.005 {
			t.Errorf("%s share %.3f, want 0.125", tk.Name, share)
		}
	}
	a, b := r.Cgroups[0], r.Cgroups[1]
	if math.Abs(float64(a.UsageNs)/float64(r.DurationNs)-0.5) > 0.005 || b.UsageNs != runB || a.UsageNs != r.Tasks[0].RuntimeNs {
		t.Errorf("usage /A %d /B %d (tasks' runtime %d %d) of %d", a.UsageNs, b.UsageNs, r.Tasks[0].RuntimeNs, runB, r.DurationNs)
	}
	if a.Tasks != 1 || b.Tasks != 4 || b.WaitNs != waitB || r.Cgroups[2].Tasks != 0 {
		t.Errorf("tasks %d %d %d, /B wait %d want %d", a.Tasks, b.Tasks, r.Cgroups[2].Tasks, b.WaitNs, waitB)
	}

	q := runScenario(t, `{"version":1,"topology":"smp-1","duration":"2s","cgroups":{"/Q":{"cpu.max":"25000 100000"}},
		"tasks":[{"name":"q","taskgroup":"/Q","program":[{"run":-1}]}]}`).Cgroups[0]
	if share := float64(q.UsageNs) / 2e9; math.Abs(share-0.25) > 0.01 || q.NrPeriods < 19 || q.NrThrottled < q.NrPeriods-1 || q.ThrottledNs < 13e8 {
		t.Errorf("/Q under cpu.max 25000 100000: %+v (want 25 %% usage, throttled in nearly every period for ~75 ms)", q)
	}
}
