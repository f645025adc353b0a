package view

import (
	"encoding/json"
	"os"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/wasm/runner"
)

// The real 6.18 trace of core/ftraceimport (two shell busy loops pinned to
// CPU 1 at nice 0 and 5) through the page's path: records, timeline,
// report.
func TestLoadRealTrace(t *testing.T) {
	data, err := os.ReadFile("../../core/ftraceimport/testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.ImportTrace("real.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewTraceRun("real.txt", res.NumCPUs, sched.Time(res.Duration))
	if err != nil {
		t.Fatal(err)
	}
	var tasks []sched.TaskInfo
	var rep0 metrics.Report
	if json.Unmarshal([]byte(res.Tasks), &tasks) != nil || json.Unmarshal([]byte(res.Report), &rep0) != nil {
		t.Fatal("bad task table or report")
	}
	if err := r.Ingest(res.Records, sched.Time(res.Duration), res.Events, tasks); err != nil {
		t.Fatal(err)
	}
	r.Finish(&rep0, nil)
	summary := res.Summary
	if _, err := NewTraceRun("x", 0, 1); err == nil {
		t.Error("a trace of 0 CPUs accepted")
	}
	if !r.IsTrace() || !r.Done() || r.NumCPUs() != 2 {
		t.Fatalf("trace run: trace %v done %v cpus %d", r.IsTrace(), r.Done(), r.NumCPUs())
	}
	t.Log(summary)
	if n := len(r.Timeline.Lanes[1].Slices); n < 50 {
		t.Errorf("CPU 1 has %d slices, want the two loops taking turns", n)
	}
	// The timeline's busy time on CPU 1 agrees with the report's.
	rep := r.Report()
	busy := r.Timeline.Busy(1, 0, r.Duration())
	if d := int64(busy) - rep.CPUs[1].BusyNs; d < -1000 || d > 1000 {
		t.Errorf("CPU 1 busy: timeline %d ns, report %d ns", busy, rep.CPUs[1].BusyNs)
	}
	nices := map[int]bool{}
	for _, tk := range rep.Tasks {
		if tk.Name == "sh" && tk.RuntimeNs > 100e6 {
			nices[tk.Nice] = true
		}
	}
	if !nices[0] || !nices[5] {
		t.Errorf("busy sh tasks by nice %v, want 0 and 5", nices)
	}
	for id := range r.NumTasks() {
		if r.Colors[id] != TaskColor(r.TaskInfo(sched.TaskID(id)).Name) {
			t.Fatalf("task %d not coloured by name", id)
		}
	}
}
