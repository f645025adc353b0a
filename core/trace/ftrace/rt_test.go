package ftrace

import (
	"strings"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// normal_prio() as ftrace prints it: prio = MAX_RT_PRIO-1 - rt_priority, so
// rt_priority 1 is prio=98 and 99 is prio=0; a nice 0 task is 120.
func TestRTPrioNumbering(t *testing.T) {
	s := tracetest.NewRun(t, "smp-1", 10*sched.Millisecond, []sched.TaskSpec{
		{Name: "fair", Instances: 1, Parent: -1, Loop: -1, Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Forever}}},
		{Name: "rt1", Instances: 1, Parent: -1, Loop: 1, Policy: sched.SchedFIFO, RTPriority: 1, Start: sched.Millisecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Millisecond}}},
		{Name: "rt99", Instances: 1, Parent: -1, Loop: 1, Policy: sched.SchedRR, RTPriority: 99, Start: 3 * sched.Millisecond,
			Program: []sched.Op{{Kind: sched.OpRun, Dur: sched.Millisecond}}},
	})
	buf := written(t, s)
	out := buf.String()
	for _, want := range []string{
		"prev_comm=fair-0 prev_pid=1000 prev_prio=120 prev_state=R ==> next_comm=rt1-1 next_pid=1001 next_prio=98",
		"next_comm=rt99-2 next_pid=1002 next_prio=0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
}
