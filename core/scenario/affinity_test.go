package scenario

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// cpuLog records, per task id, the CPUs it was switched in on, in order
// (consecutive repeats folded), and the migrations with reason affinity.
type cpuLog struct {
	on       map[sched.TaskID][]sched.CPUID
	affinity int
	preempt  int
}

func (l *cpuLog) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvSwitch:
		if e.Next != sched.NoTask {
			s := l.on[e.Next]
			if len(s) == 0 || s[len(s)-1] != e.CPU {
				l.on[e.Next] = append(s, e.CPU)
			}
		}
		if e.Reason == sched.ReasonAffinity && e.PrevState == 'R' {
			l.preempt++
		}
	case sched.EvMigrate:
		if e.Reason == sched.ReasonAffinity {
			l.affinity++
		}
	}
}

// TestAffinityStep: a task that moves itself between CPUs with affinity
// steps runs where its mask says, for a fair and an RT task; a step that
// keeps the current CPU does not move it; bad steps are errors.
func TestAffinityStep(t *testing.T) {
	for i, pol := range []string{`"policy":"SCHED_OTHER",`, `"policy":"SCHED_FIFO","priority":10,`, `"policy":"SCHED_BATCH",`, `"policy":"SCHED_RR","priority":5,`} {
		kernel := sched.ProfileNames()[i%len(sched.ProfileNames())] // v3.11, v5.8, v6.6, v6.12
		pol += `"nice":0,`
		if strings.Contains(pol, "priority") {
			pol = strings.TrimSuffix(pol, `"nice":0,`)
		}
		in := doc(`"topology":"smp-4","duration":"200ms","kernel":{"version":"`+kernel+`"},`,
			task("mover", pol+`"cpus":[0],"loop":3,`, `{"run":"2ms"},{"affinity":[2]},{"run":"2ms"},{"affinity":[1,2]},{"run":"2ms"},{"affinity":[0]},{"sleep":"1ms"}`),
			task("hog", `"cpus":[2],`, `{"run":-1}`))
		sim := buildRun(t, in, sched.DefaultLimits())
		l := &cpuLog{on: map[sched.TaskID][]sched.CPUID{}}
		sim.Attach(l)
		sim.RunUntil(200 * sched.Millisecond)
		if err := sim.Err(); err != nil {
			t.Fatal(err)
		}
		got := l.on[0]
		if len(got) < 6 || got[0] != 0 || got[1] != 2 {
			t.Fatalf("%s mover ran on %v, want 0, 2, ... (at least three rounds)", pol, got)
		}
		for _, c := range got {
			if c == 3 {
				t.Fatalf("%s mover ran on CPU 3, outside every mask: %v", pol, got)
			}
		}
		// Each round moves it to CPU 2 and back to 0 (the mask {1,2}
		// keeps CPU 2, or CPU 1 if the balancer moved it there).
		if l.affinity != 6 || l.preempt != 6 {
			t.Errorf("%s: %d affinity migrations, %d switches out with reason affinity; want 6 and 6", pol, l.affinity, l.preempt)
		}
	}
	for _, c := range []struct{ in, path, msg string }{
		{doc(`"topology":"smp-2",`, task("a", "", `{"run":"1ms"},{"affinity":[2]}`)), "tasks[0].program[1].affinity[0]", "want a CPU of the machine"},
		{doc("", task("a", "", `{"run":"1ms"},{"affinity":[]}`)), "tasks[0].program[1].affinity", "non-empty"},
		{doc("", task("a", `"policy":"SCHED_DEADLINE","dl_runtime":"1ms","dl_period":"10ms",`, `{"run":"1ms"},{"affinity":"all"}`)), "tasks[0].program[1].affinity", "EBUSY"},
	} {
		_, err := Decode([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.path+": ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want %s: ...%s", c.in, err, c.path, c.msg)
		}
	}
	sc, err := Decode([]byte(doc(`"topology":"smp-4",`, task("a", "", `{"run":"1ms"},{"affinity":"all"},{"affinity":[3,1,3]}`))))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	if js := string(sc.Encode()); !strings.Contains(js, `{"affinity":"all"},{"affinity":[3,1]}`) {
		t.Errorf("encoding %s", js)
	}
}

// TestAffinityDistribute: leaving CPU 0 for the mask {1,2,3}, the stopper's
// destination is cpumask_any_and_distribute()'s (the next CPU after the
// one CPU 0 returned last: 1, 2, 3, 1) on v5.8+, and the first CPU of the
// mask on v3.11.
func TestAffinityDistribute(t *testing.T) {
	for _, c := range []struct{ kernel, want string }{{"v3.11", "[1 1 1 1]"}, {"v5.8", "[1 2 3 1]"}, {"v6.18", "[1 2 3 1]"}} {
		kernel, want := c.kernel, c.want
		in := doc(`"topology":"smp-4","duration":"20ms","kernel":{"version":"`+kernel+`"},`,
			task("m", `"cpus":[0],"loop":4,`, `{"affinity":[0]},{"run":"1ms"},{"affinity":[1,2,3]},{"run":"1ms"}`))
		sim := buildRun(t, in, sched.DefaultLimits())
		var dests []sched.CPUID
		sim.Attach(sinkFunc(func(e *sched.Event) {
			if e.Kind == sched.EvMigrate && e.Reason == sched.ReasonAffinity && e.Arg == 0 {
				dests = append(dests, e.CPU)
			}
		}))
		sim.RunUntil(20 * sched.Millisecond)
		if got := fmt.Sprint(dests); got != want {
			t.Errorf("%s: moves from CPU 0 went to %s, want %s", kernel, got, want)
		}
	}
}

type sinkFunc func(e *sched.Event)

func (f sinkFunc) Event(e *sched.Event) { f(e) }
