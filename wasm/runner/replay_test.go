package runner

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
)

// TestImportTraceReplay: an imported trace carries its inferred workload
// as a scenario the page can open (the trace panel's Replay), with the
// trace's tasks by comm and pid.
func TestImportTraceReplay(t *testing.T) {
	trace := "# tracer: nop\n#\n# entries-in-buffer/entries-written: 4/4   #P:2\n" +
		"          <idle>-0       [001] d..2. 100.000000: sched_wakeup: comm=a pid=10 prio=120 target_cpu=001\n" +
		"          <idle>-0       [001] d..2. 100.000020: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n" +
		"               a-10      [001] d..2. 100.001020: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	res, err := ImportTrace("t.txt", []byte(trace))
	if err != nil {
		t.Fatal(err)
	}
	if res.Replay == "" {
		t.Fatalf("no replay scenario; summary %q", res.Summary)
	}
	sc, err := scenario.Decode([]byte(res.Replay))
	if err != nil {
		t.Fatalf("the replay does not decode: %v\n%s", err, res.Replay)
	}
	if sc.Topology != "smp-2" || len(sc.Tasks) != 1 || sc.Tasks[0].PID != 10 || sc.Tasks[0].Comm != "a" || !strings.HasPrefix(sc.Name, "replay of t.txt") {
		t.Errorf("replay scenario %s", res.Replay)
	}
}
