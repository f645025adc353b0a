package ftraceimport

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// silentIdleTrace is the shape of CPU 1 on the 6.18 guest
// (scripts/replaytrace/idleswitch.go): the task blocks into idle, its
// timer wakes it from the idle task's interrupt, and the switch from idle
// is never printed. Its first line after the wakeup is first, a
// sched_stat_runtime or an interrupt entry; a local_timer_entry follows
// mid-burst and the switch to idle ends the 2 ms burst.
func silentIdleTrace(first string) string {
	return "# tracer: nop\n" +
		"  a-7  [001] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n" +
		"  <idle>-0  [001] d.h1.  1.003000: local_timer_entry: vector=236\n" +
		"  <idle>-0  [001] d.h3.  1.003001: sched_waking: comm=a pid=7 prio=120 target_cpu=001\n" +
		"  <idle>-0  [001] dNh4.  1.003002: sched_wakeup: comm=a pid=7 prio=120 target_cpu=001\n" +
		"  <idle>-0  [001] dNh1.  1.003004: local_timer_exit: vector=236\n" +
		"  a-7  [001] d..2.  1.003020: " + first + "\n" +
		"  a-7  [001] d..2.  1.003022: sched_stat_runtime: comm=a pid=7 runtime=2000 [ns]\n" +
		"  a-7  [001] d.h..  1.004000: local_timer_entry: vector=236\n" +
		"  a-7  [001] d..2.  1.005020: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
}

// TestMissedSwitchAtFirstLine: the switch from idle the trace lacks is
// added at the woken task's first line of any kind on that CPU, not at its
// next sched event (the switch out 2 ms later, which left the burst no
// CPU time and made the wakeup 2 ms late).
func TestMissedSwitchAtFirstLine(t *testing.T) {
	us := int64(sched.Microsecond)
	for _, first := range []string{
		"sched_stat_runtime: comm=a pid=7 runtime=18000 [ns]",
		"reschedule_entry: vector=253",
		"sched_waking: comm=b pid=8 prio=120 target_cpu=000",
	} {
		tr, err := Import(strings.NewReader(silentIdleTrace(first)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Added) != 1 || tr.Stats.MissedSwitches != 1 || tr.Stats.MissedAtSwitchOut != 0 {
			t.Fatalf("%s: added %v, missed %d: want one switch added", first, tr.Added, tr.Stats.MissedSwitches)
		}
		e := tr.Events[tr.Added[0]]
		if e.Kind != sched.EvSwitch || e.Prev != sched.NoTask || e.Next == sched.NoTask || tr.Tasks[e.Next].PID != 7 ||
			int64(e.Time) != 3020*us {
			t.Errorf("%s: added %+v: want idle -> pid 7 at 3020 us (the task's first line)", first, e)
		}
		var a *struct{ run, p50 int64 }
		for _, tk := range tr.Metrics("x").Tasks {
			if tk.PID == 7 {
				a = &struct{ run, p50 int64 }{tk.RuntimeNs, tk.WakeupLatencyNs.P50}
			}
		}
		if a == nil || a.run != 2000*us || a.p50 != 18*us {
			t.Errorf("%s: pid 7 ran %+v ns (runtime, latency p50), want 2000 us and 18 us", first, a)
		}
	}
}

// TestMissedSwitchAtSwitchOut: a woken task with no line before its
// switch out is switched in there, and the import counts it.
func TestMissedSwitchAtSwitchOut(t *testing.T) {
	in := "# tracer: nop\n" +
		"  a-7  [001] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n" +
		"  <idle>-0  [001] dNh4.  1.003002: sched_wakeup: comm=a pid=7 prio=120 target_cpu=001\n" +
		"  a-7  [001] d..2.  1.005020: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.MissedSwitches != 1 || tr.Stats.MissedAtSwitchOut != 1 {
		t.Errorf("stats %+v: want one switch added, at the switch out", tr.Stats)
	}
}

// TestColumnsOutsideSpan: other lines before the first sched event and
// after the last add no switch (they are outside the trace's span), and a
// line that repeats its CPU's task is not kept.
func TestColumnsOutsideSpan(t *testing.T) {
	in := "# tracer: nop\n" +
		"  b-8  [000] d.h..  0.999000: local_timer_entry: vector=236\n" +
		"  a-7  [000] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n" +
		"  <idle>-0  [000] d.h1.  1.000500: local_timer_entry: vector=236\n" +
		"  <idle>-0  [000] d.h1.  1.000600: local_timer_exit: vector=236\n" +
		"  <idle>-0  [000] d..2.  1.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=8 next_prio=120\n" +
		"  c-9  [000] d.h..  1.002000: local_timer_entry: vector=236\n"
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.MissedSwitches != 0 || tr.Duration != sched.Time(1000*sched.Microsecond) {
		t.Errorf("missed %d, duration %d: want none and 1 ms", tr.Stats.MissedSwitches, tr.Duration)
	}
	var c columns
	for i, pid := range []int{0, 0, 5, 5, 0} {
		c.add(prefix{pid: pid, cpu: 3, ts: int64(i)}, i+1)
	}
	if len(c.list) != 3 || c.list[1].line != 3 || c.list[2].line != 5 {
		t.Errorf("kept %+v: want lines 1, 3 and 5 (each a change of cpu 3's task)", c.list)
	}
}
