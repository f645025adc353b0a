package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestExecStep: {"exec": true} decodes, encodes and runs sched_exec(): a
// task pinned to the CPU of a pinned hog, which widens its mask to every
// CPU (no move: its CPU stays allowed) and execs at once, while two CPUs
// idle, moves at its exec (migration reason find_idlest, switch reason exec) on every
// kernel profile; anything but true is an error naming the step, and
// rt-app export refuses it.
func TestExecStep(t *testing.T) {
	for _, kernel := range sched.ProfileNames() {
		in := doc(`"topology":"smp-4","duration":"20ms","kernel":{"version":"`+kernel+`"},`,
			task("x", `"cpus":[1],"loop":1,`, `{"run":"1ms"},{"affinity":"all"},{"exec":true},{"run":"1ms"}`),
			task("hog", `"cpus":[1],`, `{"run":-1}`),
			task("hog0", `"cpus":[0],`, `{"run":-1}`))
		sim := buildRun(t, in, sched.DefaultLimits())
		var moves, switches int
		sim.Attach(sinkFunc(func(e *sched.Event) {
			if e.Kind == sched.EvMigrate && e.Reason == sched.ReasonFindIdlest && e.Next == 0 && e.Arg == 1 && e.CPU >= 2 {
				moves++
			}
			if e.Kind == sched.EvSwitch && e.Reason == sched.ReasonExec && e.Prev == 0 && e.CPU == 1 {
				switches++
			}
		}))
		sim.RunUntil(20 * sched.Millisecond)
		if err := sim.Err(); err != nil {
			t.Fatal(err)
		}
		if moves != 1 || switches != 1 {
			t.Errorf("%s: %d exec migrations from CPU 1 to an idle CPU, %d switches out with reason exec; want 1 and 1", kernel, moves, switches)
		}
	}
	for _, c := range []struct{ in, path, msg string }{
		{doc("", task("a", "", `{"run":"1ms"},{"exec":false}`)), "tasks[0].program[1].exec", "want true"},
		{doc("", task("a", "", `{"run":"1ms"},{"exec":"gcc"}`)), "tasks[0].program[1].exec", "want true"},
		{doc("", task("a", "", `{"exec":true}`)), "tasks[0].program", "must contain a run, sleep or timer"},
	} {
		_, err := Decode([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.path+": ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want %s: ...%s", c.in, err, c.path, c.msg)
		}
	}
	sc, err := Decode([]byte(doc("", task("a", "", `{"run":"1ms"},{"exec":true}`))))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	if js := string(sc.Encode()); !strings.Contains(js, `{"run":"1ms"},{"exec":true}`) {
		t.Errorf("encoding %s", js)
	}
}
