package ftraceimport

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// piTrace: a fair task (owner, pid 500) holds a mutex an RT task (waiter,
// pid 600, SCHED_FIFO 90: prio 9) blocks on; rt_mutex_setprio() boosts the
// owner to 9 and deboosts it at the unlock, and the prio fields in
// between show the boosted prio.
const piTrace = `# tracer: nop
          <idle>-0       [000] d..2.   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=owner next_pid=500 next_prio=120
           owner-500     [000] d.h2.   100.001000: sched_waking: comm=waiter pid=600 prio=9 target_cpu=000
           owner-500     [000] d.h2.   100.001000: sched_wakeup: comm=waiter pid=600 prio=9 target_cpu=000
           owner-500     [000] d..2.   100.001000: sched_switch: prev_comm=owner prev_pid=500 prev_prio=120 prev_state=R ==> next_comm=waiter next_pid=600 next_prio=9
          waiter-600     [000] d..2.   100.001100: sched_pi_setprio: comm=owner pid=500 oldprio=120 newprio=9
          waiter-600     [000] d..2.   100.001100: sched_switch: prev_comm=waiter prev_pid=600 prev_prio=9 prev_state=S ==> next_comm=owner next_pid=500 next_prio=9
           owner-500     [000] d..2.   100.002000: sched_pi_setprio: comm=owner pid=500 oldprio=9 newprio=120
           owner-500     [000] d..2.   100.002000: sched_waking: comm=waiter pid=600 prio=9 target_cpu=000
           owner-500     [000] d..2.   100.002000: sched_wakeup: comm=waiter pid=600 prio=9 target_cpu=000
           owner-500     [000] d..2.   100.002000: sched_switch: prev_comm=owner prev_pid=500 prev_prio=120 prev_state=R ==> next_comm=waiter next_pid=600 next_prio=9
`

// TestPISetprio: sched_pi_setprio lines become EvPISetprio events with
// both prios; the boosted owner keeps its own policy (SCHED_OTHER nice 0,
// prio 120) although a switch line shows it at prio 9; a bad newprio is an
// error naming the field.
func TestPISetprio(t *testing.T) {
	tr, err := Import(strings.NewReader(piTrace), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for _, e := range tr.Events {
		if e.Kind == sched.EvPISetprio {
			o, n := e.PIPrios()
			if tr.Tasks[e.Next].PID != 500 {
				t.Errorf("sched_pi_setprio of pid %d, want 500", tr.Tasks[e.Next].PID)
			}
			got = append(got, [2]int{o, n})
		}
	}
	if len(got) != 2 || got[0] != [2]int{120, 9} || got[1] != [2]int{9, 120} {
		t.Errorf("pi events %v, want [[120 9] [9 120]]", got)
	}
	if n := tr.Stats.Other["sched_pi_setprio"]; n != 0 {
		t.Errorf("%d sched_pi_setprio lines left unrecognized", n)
	}
	for _, ti := range tr.Tasks {
		switch ti.PID {
		case 500:
			if ti.Policy != sched.SchedOther || ti.Nice != 0 || ti.Prio != 120 || ti.EffectivePrio != 120 {
				t.Errorf("owner: %+v, want SCHED_OTHER nice 0 prio 120", ti)
			}
		case 600:
			if ti.Policy != sched.SchedFIFO || ti.RTPriority != 90 {
				t.Errorf("waiter: %+v, want SCHED_FIFO 90", ti)
			}
		}
	}
	bad := strings.Replace(piTrace, "oldprio=9 newprio=120", "oldprio=9 newprio=x", 1)
	if _, err := Import(strings.NewReader(bad), Options{}); err == nil || !strings.Contains(err.Error(), "newprio") {
		t.Errorf("bad newprio: error %v, want one naming newprio", err)
	}
}
