package perfetto

import (
	"encoding/json"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// TestSetattrInstant: a policy change of a setattr step is an instant
// "sched_setattr" on the CPU's track with the task's new policy and prio
// and the prio before.
func TestSetattrInstant(t *testing.T) {
	s := tracetest.NewRun(t, "smp-1", 20*sched.Millisecond, []sched.TaskSpec{
		{Name: "a", Instances: 1, Parent: -1, Loop: 1, Program: []sched.Op{
			{Kind: sched.OpRun, Dur: 5 * sched.Millisecond},
			{Kind: sched.OpSetattr, Attr: &sched.Attr{Policy: sched.SchedRR, RTPrio: 30, Group: -1}},
			{Kind: sched.OpRun, Dur: 5 * sched.Millisecond}}},
		{Name: "b", Instances: 1, Parent: -1, Loop: -1, Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
	})
	buf := written(t, s)
	var doc document
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	n := 0
	for _, e := range doc.TraceEvents {
		if e.Name != "sched_setattr" {
			continue
		}
		n++
		want := map[string]string{"comm": `"a-0"`, "policy": `"SCHED_RR"`, "prio": "69", "old_prio": "120", "rt_priority": "30", "by_pid": "1000"}
		for k, v := range want {
			if string(e.Args[k]) != v {
				t.Errorf("sched_setattr arg %s = %s, want %s", k, e.Args[k], v)
			}
		}
		if e.Ph != "i" || e.TID == nil || *e.TID != 0 {
			t.Errorf("sched_setattr is %q on tid %v, want an instant on CPU 0's track", e.Ph, e.TID)
		}
	}
	if n != 1 {
		t.Errorf("%d sched_setattr instants, want 1:\n%s", n, buf.Bytes())
	}
}

// TestPISetprioInstant: a priority-inheritance boost and deboost of the
// mutex owner are "sched_pi_setprio" instants with the kernel event's
// oldprio and newprio: 120 to the waiter's 9 (SCHED_FIFO 90) and back.
func TestPISetprioInstant(t *testing.T) {
	s := tracetest.PresetRun(t, "demo/priority-inversion-pi")
	buf := written(t, s)
	var doc document
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range doc.TraceEvents {
		if e.Name == "sched_pi_setprio" {
			seen[string(e.Args["comm"])+" "+string(e.Args["oldprio"])+"->"+string(e.Args["newprio"])]++
		}
	}
	if seen[`"low-0" 120->9`] == 0 || seen[`"low-0" 9->120`] == 0 {
		t.Errorf("sched_pi_setprio instants %v: want low-0's boost 120->9 and deboost 9->120", seen)
	}
}
