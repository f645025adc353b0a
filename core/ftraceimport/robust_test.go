package ftraceimport

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestLenient: a garbled and a truncated sched line are skipped with a
// warning naming them; Strict (the zero Options) refuses the first.
func TestLenient(t *testing.T) {
	in := "# tracer: nop\n" +
		"  a-1  [000] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n" +
		"  b-2  [000] d..2.  1.000100: sched_switch: garbage\n" +
		"  b-2  [000] d..2.  1.000200: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=S ==> next_comm=a next_pid=1 next_prio=120\n" +
		"  a-1  [000] d..2.  1.000300: sched_switch: prev_comm=a prev_pid=1"
	if _, err := Import(strings.NewReader(in), Options{}); err == nil || !strings.Contains(err.Error(), "line 3:") {
		t.Errorf("strict: got %v, want the error at line 3", err)
	}
	tr, err := Import(strings.NewReader(in), Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.Skipped != 2 || tr.Stats.Events != 2 || len(tr.Warnings) != 2 ||
		tr.Warnings[0].Line != 3 || tr.Warnings[1].Line != 5 || !strings.Contains(tr.Warnings[1].String(), "line 5: sched_switch: missing or bad") {
		t.Errorf("stats %+v warnings %v", tr.Stats, tr.Warnings)
	}
}

// TestLostAndUnsorted: "CPU:N [LOST n EVENTS]" is counted and reported;
// events out of timestamp order across CPUs are merged by time and
// reported; a trace starting mid-run says how many CPUs ran a task.
func TestLostAndUnsorted(t *testing.T) {
	in := "cpus=2\n" +
		"  a-1  [000]  1.000300: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n" +
		"CPU:1 [LOST 42 EVENTS]\n" +
		"  b-2  [001]  1.000100: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=R+ ==> next_comm=c next_pid=3 next_prio=120\n" +
		"  c-3  [001]  1.000200: sched_switch: prev_comm=c prev_pid=3 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n"
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := tr.Stats
	if st.Lost != 42 || st.LostMarks != 1 || st.Unsorted != 1 || st.RunningAtStart != 2 {
		t.Errorf("stats %+v", st)
	}
	if len(tr.Warnings) != 2 || !strings.Contains(tr.Warnings[0].String(), "line 3: cpu 1 lost 42 events") ||
		!strings.Contains(tr.Warnings[1].String(), "line 4: timestamp before") {
		t.Errorf("warnings %v", tr.Warnings)
	}
	if tr.Events[0].Time != 0 || tr.Events[0].CPU != 1 || tr.Duration != 200*sched.Microsecond {
		t.Errorf("not merged by time: first event %+v, duration %s", tr.Events[0], tr.Duration)
	}
}

// TestNumericPrevState: old kernels' raw prev_state numbers.
func TestNumericPrevState(t *testing.T) {
	for _, c := range []struct {
		st   string
		next int
		want byte
	}{{"0", 5, 'R'}, {"1024", 5, 'R'}, {"2048", 5, 'R'}, {"4096", 5, 'R'}, {"256", 5, 'R'}, {"256", 0, 'S'},
		{"1", 0, 'S'}, {"2", 0, 'D'}, {"1026", 0, 'D'}, {"64", 0, 'S'}, {"16", 0, 'X'}, {"32", 0, 'X'},
		{"R+", 0, 'R'}, {"S", 0, 'S'}} {
		if got := switchState(c.st, c.next); got != c.want {
			t.Errorf("prev_state=%s next %d: %c, want %c", c.st, c.next, got, c.want)
		}
	}
}

// TestWakeSource: the waker comes from sched_waking (the waker's context),
// not from the sched_wakeup the ttwu_queue IPI prints on the wakee's CPU,
// and the flags column's hardirq mark and CPU are kept.
func TestWakeSource(t *testing.T) {
	in := "# tracer: nop\n" +
		"  a-1  [000] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n" +
		"  c-3  [001] d..2.  1.000000: sched_switch: prev_comm=c prev_pid=3 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n" +
		"  b-2  [000] d..2.  1.000010: sched_waking: comm=c pid=3 prio=120 target_cpu=001\n" +
		"  <idle>-0  [001] dNh2.  1.000012: sched_wakeup: comm=c pid=3 prio=120 target_cpu=001\n" +
		"  b-2  [000] d.h2.  1.000020: sched_waking: comm=a pid=1 prio=120 target_cpu=000\n" +
		"  b-2  [000] d.h2.  1.000020: sched_wakeup: comm=a pid=1 prio=120 target_cpu=000\n"
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []WakeSource
	for i, e := range tr.Events {
		if e.Kind == sched.EvWakeup {
			got = append(got, tr.Wakes[i])
		}
	}
	b := sched.TaskID(1) // a is task 0, b task 1
	if len(got) != 2 || got[0].Waker != b || got[0].IRQ != 0 || !got[0].FromWaking || got[0].CPU != 0 || got[1].Waker != b || got[1].IRQ != 1 {
		t.Errorf("wake sources %+v (tasks %+v)", got, tr.Tasks)
	}
}

// TestMissedSwitch: a CPU's line shows a task other than the one its last
// switch left running: the switch the trace lacks is added, so the task
// left there does not run on forever.
func TestMissedSwitch(t *testing.T) {
	in := "# tracer: nop\n" +
		"  a-1  [000] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=x next_pid=9 next_prio=110\n" +
		"  a-1  [000] d.h2.  1.000100: sched_waking: comm=b pid=2 prio=120 target_cpu=000\n" +
		"  a-1  [000] d..2.  1.000200: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n" +
		"  b-2  [000] d..2.  1.001000: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Added) != 1 || tr.Events[tr.Added[0]].Kind != sched.EvSwitch || tr.Events[tr.Added[0]].Next == sched.NoTask ||
		tr.Events[tr.Added[0]].Time != sched.Time(100*sched.Microsecond) {
		t.Errorf("added %v: want the one switch to pid 1 at the line 100 us in", tr.Added)
	}
	if tr.Stats.MissedSwitches != 1 || len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0].String(), "line 3: cpu 0 runs pid 1") {
		t.Errorf("stats %+v warnings %v", tr.Stats, tr.Warnings)
	}
	rep := tr.Metrics("x")
	var x int64 = -1
	for _, tk := range rep.Tasks {
		if tk.PID == 9 {
			x = tk.RuntimeNs
		}
	}
	if x != 100*int64(sched.Microsecond) {
		t.Errorf("pid 9 ran %d ns, want 100 us (until the line that shows a running again)", x)
	}
}

// TestUntil: Options.Until keeps the trace's first span: the events after
// it are dropped and counted, the trace ends there, and a task running
// across the cut is charged up to it; Until with End is refused.
func TestUntil(t *testing.T) {
	in := "# tracer: nop\n" +
		"  a-1  [000] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n" +
		"  b-2  [000] d..2.  1.000300: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=S ==> next_comm=c next_pid=3 next_prio=120\n" +
		"  c-3  [000] d..2.  1.000500: sched_switch: prev_comm=c prev_pid=3 prev_prio=120 prev_state=S ==> next_comm=a next_pid=1 next_prio=120\n" +
		"  a-1  [000] d..2.  1.000900: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n"
	us := sched.Microsecond
	tr, err := Import(strings.NewReader(in), Options{Until: 400 * us})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Duration != 400*us || tr.Stats.Events != 2 || tr.Stats.AfterUntil != 2 {
		t.Errorf("duration %s, %d events, %d after: want 400us, 2, 2", tr.Duration, tr.Stats.Events, tr.Stats.AfterUntil)
	}
	for _, tk := range tr.Metrics("x").Tasks {
		if tk.PID == 3 && tk.RuntimeNs != int64(100*us) {
			t.Errorf("pid 3 ran %d ns, want 100 us (to the cut)", tk.RuntimeNs)
		}
	}
	// a cut exactly at an event keeps it
	if tr, err := Import(strings.NewReader(in), Options{Until: 500 * us}); err != nil || tr.Stats.Events != 3 {
		t.Errorf("until 500us: %v, want 3 events", err)
	}
	if _, err := Import(strings.NewReader(in), Options{Until: us, End: 1_000_900_000}); err == nil || !strings.Contains(err.Error(), "End and Until") {
		t.Errorf("End and Until: %v", err)
	}
}

// TestIdleStateBound: a cpu_idle state beyond CPUIDLE_STATE_MAX is bad
// input (strict) or a skipped line (lenient), not a per-state counter
// slice of gigabytes in the metrics (found by FuzzImport).
func TestIdleStateBound(t *testing.T) {
	text := " <idle>-0 [000] d..1. 1.000000: cpu_idle: state=294967295 cpu_id=0\n" +
		" <idle>-0 [000] d..1. 1.001000: cpu_idle: state=4294967295 cpu_id=0\n" +
		" <idle>-0 [000] d..2. 1.002000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=5 next_prio=120\n"
	_, err := Import(strings.NewReader(text), Options{})
	if err == nil || !strings.Contains(err.Error(), "state 294967295: want 0..9") {
		t.Fatalf("strict import: err = %v, want the idle state refused", err)
	}
	tr, err := Import(strings.NewReader(text), Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.Skipped != 1 {
		t.Errorf("lenient import skipped %d lines, want the cpu_idle line", tr.Stats.Skipped)
	}
	if rep := tr.Metrics("t"); len(rep.CPUs) != 1 {
		t.Errorf("metrics of %d CPUs, want 1", len(rep.CPUs))
	}
}
