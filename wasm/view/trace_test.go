package view

import (
	"os"
	"testing"

	"schedplay/core/sched"
)

// The real 6.18 trace of core/ftraceimport (two shell busy loops pinned to
// CPU 1 at nice 0 and 5) through the page's path: records, timeline,
// report.
func TestLoadRealTrace(t *testing.T) {
	data, err := os.ReadFile("../../core/ftraceimport/testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, summary, err := LoadTrace("real.txt", data)
	if err != nil {
		t.Fatal(err)
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

func TestImportTraceErrors(t *testing.T) {
	bad := "# tracer: nop\n" +
		"  sh-1  [000] d..2.  1.000000: sched_switch: prev_comm=sh prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=x next_pid=2 next_prio=120\n" +
		"  sh-1  [000] d..2.  1.000100: sched_switch: garbage\n"
	if _, _, err := LoadTrace("bad.txt", []byte(bad)); err == nil || err.Error()[:7] != "line 3:" {
		t.Errorf("bad line: err %v, want it at line 3", err)
	}
	if _, err := ImportTrace(make([]byte, MaxTraceBytes+1)); err == nil {
		t.Error("a file over MaxTraceBytes was imported")
	}
}
