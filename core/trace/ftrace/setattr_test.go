package ftrace

import (
	"strings"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// TestSetattrPrioField: after a task makes itself SCHED_FIFO 10 its
// sched_switch lines show prio 89 (MAX_RT_PRIO-1 - 10) instead of 120, and
// no line is written for the call itself (no sched tracepoint exists for
// sched_setattr()); a renice to 5 shows 125.
func TestSetattrPrioField(t *testing.T) {
	s := tracetest.NewRun(t, "smp-1", 40*sched.Millisecond, []sched.TaskSpec{
		{Name: "a", Instances: 1, Parent: -1, Loop: 1, Program: []sched.Op{
			{Kind: sched.OpRun, Dur: 5 * sched.Millisecond},
			{Kind: sched.OpSetattr, Attr: &sched.Attr{Policy: sched.SchedFIFO, RTPrio: 10, Group: -1}},
			{Kind: sched.OpRun, Dur: 5 * sched.Millisecond},
			{Kind: sched.OpSleep, Dur: sched.Millisecond},
			{Kind: sched.OpSetattr, Attr: &sched.Attr{Policy: sched.SchedOther, KeepNice: true, Group: -1}},
			{Kind: sched.OpNice, Attr: &sched.Attr{Nice: 5, Group: -1}},
			{Kind: sched.OpRun, Dur: 5 * sched.Millisecond}}},
		{Name: "b", Instances: 1, Parent: -1, Loop: -1, Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
	})
	buf := written(t, s)
	out := buf.String()
	for _, want := range []string{"prev_comm=a-0 prev_pid=1000 prev_prio=120 ", "prev_comm=a-0 prev_pid=1000 prev_prio=89 prev_state=S",
		"comm=a-0 pid=1000 prio=89 target_cpu=000", "prev_comm=a-0 prev_pid=1000 prev_prio=125 "} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sched_setattr") {
		t.Errorf("trace has a line for the call:\n%s", out)
	}
}
