package ftrace

import (
	"strconv"
	"strings"
	"testing"

	"schedplay/core/trace/tracetest"
)

// TestPISetprio: with priority inheritance, a mutex owner's boost and
// deboost print sched_pi_setprio (as rt_mutex_setprio() does), each
// oldprio is the prio the task's lines showed before, and the prio fields
// of every sched_switch, sched_waking and sched_wakeup line show the
// prio of the latest sched_pi_setprio (p->prio, the boosted prio).
func TestPISetprio(t *testing.T) {
	s := tracetest.PresetRun(t, "demo/priority-inversion-pi")
	buf := written(t, s)
	prio := map[string]string{} // pid -> the prio its lines show
	check := func(i int, pid, p string) {
		if want, ok := prio[pid]; ok && p != want {
			t.Errorf("line %d: pid %s shows prio %s, want %s", i+1, pid, p, want)
		}
		prio[pid] = p
	}
	var boosts, deboosts, boostedSwitches int
	for i, line := range strings.Split(buf.String(), "\n") {
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch name, fields := m[6], m[7]; name {
		case "sched_pi_setprio":
			f := piRE.FindStringSubmatch(fields)
			if f == nil {
				t.Fatalf("line %d: %q", i+1, fields)
			}
			check(i, f[2], f[3])
			prio[f[2]] = f[4]
			o, _ := strconv.Atoi(f[3])
			n, _ := strconv.Atoi(f[4])
			if n < o {
				boosts++
			} else {
				deboosts++
			}
		case "sched_switch":
			f := switchRE.FindStringSubmatch(fields)
			if f[2] != "0" {
				check(i, f[2], f[3])
			}
			if f[6] != "0" {
				check(i, f[6], f[7])
			}
			if f[5] == "low-0" && f[7] != "120" {
				boostedSwitches++
			}
		case "sched_waking", "sched_wakeup":
			f := wakeupRE.FindStringSubmatch(fields)
			check(i, f[2], f[3])
		}
	}
	if boosts == 0 || deboosts == 0 || boostedSwitches == 0 {
		t.Errorf("%d boosts, %d deboosts, %d switches to the boosted owner: want some of each", boosts, deboosts, boostedSwitches)
	}
}
