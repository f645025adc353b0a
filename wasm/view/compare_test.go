package view

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// finishedRun runs a scenario given as JSON to its end.
func finishedRun(t *testing.T, js string) *Run {
	t.Helper()
	sc, err := scenario.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	r, err := newTestRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	for !r.Advance(1 << 20) {
	}
	return r.Run
}

func cmpScenario(hogs int, seed int) string {
	return fmt.Sprintf(`{"version":1,"topology":"smp-4","duration":"50ms","seed":%d,"tasks":[
 {"name":"hog","instances":%d,"loop":-1,"program":[{"run":"1s"}]},
 {"name":"sleeper","instances":2,"loop":-1,"program":[{"run":"200us"},{"sleep":"1ms"}]}]}`, seed, hogs)
}

// A small workload is compared task by task; a large one group by group,
// each group's runtime the sum of its tasks'; the machine rows close both.
func TestCompareRunsTasksOrGroups(t *testing.T) {
	small := CompareRuns(finishedRun(t, cmpScenario(2, 1)), finishedRun(t, cmpScenario(2, 2)))
	if len(small) != 4*4+4 {
		t.Fatalf("4 tasks: %d rows, want 4 per task and 4 for the machine", len(small))
	}
	if !strings.HasSuffix(small[0].Metric, " runtime") || strings.Contains(small[0].Metric, "tasks)") {
		t.Fatalf("first row %q: want a task's runtime", small[0].Metric)
	}

	a, b := finishedRun(t, cmpScenario(30, 1)), finishedRun(t, cmpScenario(30, 2))
	rows := CompareRuns(a, b)
	if len(rows) != 2*4+4 {
		t.Fatalf("32 tasks in 2 groups: %d rows, want 4 per group and 4 for the machine: %v", len(rows), rows)
	}
	var sum int64
	for i, tk := range a.Report().Tasks {
		if a.TaskInfo(sched.TaskID(i)).Group == "hog" {
			sum += tk.RuntimeNs
		}
	}
	if rows[0].Metric != "hog (30 tasks) runtime" || rows[0].A != FormatDur(sum) {
		t.Fatalf("first row %+v: want hog (30 tasks) runtime %s", rows[0], FormatDur(sum))
	}
	if rows[4].Metric != "sleeper (2 tasks) runtime" || rows[7].Metric != "sleeper (2 tasks) wakeup p99 (worst task)" {
		t.Fatalf("sleeper block: %+v .. %+v", rows[4], rows[7])
	}
	if last := rows[len(rows)-1]; last.Metric != "events" || last.A != fmt.Sprint(a.Report().Events) || last.Change != "+0.0%" {
		t.Fatalf("last row %+v: want A's %d events, unchanged in B", last, a.Report().Events)
	}
	if CompareRuns(a, nil) != nil {
		t.Fatal("rows without a B run")
	}
}
