package ftraceimport

import (
	"errors"
	"strings"
	"testing"

	"schedplay/core/metrics"
)

// tracecmdReport is `trace-cmd report` output: the banner, the sched
// plugin's compact sched_switch and sched_wakeup fields, the kernel's
// fields for the other events, a comm with a space, a comm with a colon,
// states with flags (R+, D|K), and one line with the latency columns.
// Times below are µs after 5461.000000.
const tracecmdReport = `version = 6
cpus=4
CPU 0 is empty
          <idle>-0     [002]  5461.000000: sched_switch:         swapper/2:0 [120] R ==> bash:1234 [120]
            bash-1234  [002]  5461.000500: sched_wakeup:         Web Content:4321 [120] success=1 CPU:001
          <idle>-0     [001]  5461.000510: sched_switch:         swapper/1:0 [120] R ==> Web Content:4321 [120]
     Web Content-4321  [001]  5461.001510: sched_switch:         Web Content:4321 [120] S ==> swapper/1:0 [120]
            bash-1234  [002]  5461.002000: sched_switch:         bash:1234 [120] R+ ==> kworker/2:1:99 [100]
     kworker/2:1-99    [002]  5461.002100: sched_switch:         kworker/2:1:99 [100] D|K ==> bash:1234 [120]
            bash-1234  [002]  5461.002500: hrtimer_start:        hrtimer=0xffff8881 function=tick_sched_timer expires=5461003000000 softexpires=5461003000000
            bash-1234  [002]  5461.003000: sched_switch:         bash:1234 [120] R+ ==> migration/2:20 [0]
     migration/2-20    [002]  5461.003001: sched_migrate_task:   comm=bash pid=1234 prio=120 orig_cpu=2 dest_cpu=3
     migration/2-20    [002]  5461.003002: sched_switch:         migration/2:20 [0] S ==> swapper/2:0 [120]
          <idle>-0     [003] d..2.  5461.003050: sched_switch:         swapper/3:0 [120] R ==> bash:1234 [120]
          <idle>-0     [001]  5461.004000: cpu_idle:             state=1 cpu_id=1
`

func TestTraceCmdReport(t *testing.T) {
	tr, err := Import(strings.NewReader(tracecmdReport), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := tr.Metrics("report.txt")
	checkTasks(t, rep, []metrics.Task{
		{ // Switched in at 0; runs 0-2000, 2100-3000, 3050-4000 = 3850 µs;
			// waits 2000-2100 and 3000-3050 = 150 µs; preempted twice;
			// migrated 2->3.
			Name: "bash", PID: 1234, Policy: "SCHED_OTHER",
			RuntimeNs: 3850 * usNs, WaitNs: 150 * usNs, Switches: 2, InvoluntarySwitches: 2, Migrations: 1},
		{ // Woken by bash at 500 onto CPU 1, runs 510-1510, sleeps to 4000.
			Name: "Web Content", PID: 4321, Policy: "SCHED_OTHER",
			RuntimeNs: 1000 * usNs, WaitNs: 10 * usNs, SleepNs: 2490 * usNs, Switches: 1, Wakeups: 1,
			WakeupLatencyNs: metrics.Latency{Count: 1, Mean: 10 * usNs, P50: 10 * usNs, P90: 10 * usNs, P99: 10 * usNs, Max: 10 * usNs}},
		{ // prio 100: nice -20; runs 2000-2100, sleeps (D) to 4000.
			Name: "kworker/2:1", PID: 99, Policy: "SCHED_OTHER", Nice: -20,
			RuntimeNs: 100 * usNs, SleepNs: 1900 * usNs, Switches: 1},
		{ // prio 0: rt_priority 99; runs 3000-3002.
			Name: "migration/2", PID: 20, Policy: "SCHED_FIFO", RTPriority: 99,
			RuntimeNs: 2 * usNs, SleepNs: 998 * usNs, Switches: 1},
	})
	if tr.NumCPUs != 4 || rep.DurationNs != 4000*usNs || tr.Offset != 5461000000000 {
		t.Errorf("cpus %d duration %d offset %d", tr.NumCPUs, rep.DurationNs, tr.Offset)
	}
	if tr.Stats.Unrecognized != 3 || tr.Stats.Other["hrtimer_start"] != 1 {
		t.Errorf("stats %+v", tr.Stats)
	}
	if e := tr.Events[1]; e.Prev != 0 || e.Arg != 2 { // the waker is bash, task 0, on CPU 2
		t.Errorf("waker %d on cpu %d", e.Prev, e.Arg)
	}
}

// TestWakingOnly: a trace with sched_waking and no sched_wakeup measures
// latency from sched_waking.
func TestWakingOnly(t *testing.T) {
	const in = `
 a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
 <idle>-0 [000] 1.000100: sched_waking: comm=a pid=1 prio=120 target_cpu=000
 <idle>-0 [000] 1.000130: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120
`
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := tr.Metrics("w")
	if l := rep.Tasks[0].WakeupLatencyNs; l.Count != 1 || l.Max != 30*usNs || rep.Tasks[0].SleepNs != 100*usNs {
		t.Errorf("%+v", rep.Tasks[0])
	}
}

// TestPIDReuse: after an exit, a new task with the same pid is a new row.
func TestPIDReuse(t *testing.T) {
	const in = `
 sh-7 [000] 1.000000: sched_process_fork: comm=sh pid=7 child_comm=sh child_pid=8
 sh-7 [000] 1.000000: sched_wakeup_new: comm=sh pid=8 prio=120 target_cpu=001
 <idle>-0 [001] 1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=8 next_prio=120
 ls-8 [001] 1.000020: sched_process_exit: comm=ls pid=8 prio=120
 ls-8 [001] 1.000030: sched_switch: prev_comm=ls prev_pid=8 prev_prio=120 prev_state=Z ==> next_comm=swapper/1 next_pid=0 next_prio=120
 sh-7 [000] 1.000040: sched_process_fork: comm=sh pid=7 child_comm=sh child_pid=8
 sh-7 [000] 1.000040: sched_wakeup_new: comm=sh pid=8 prio=120 target_cpu=001
`
	tr, err := Import(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := tr.Metrics("reuse")
	if len(rep.Tasks) != 3 || rep.Tasks[1].Name != "ls" || rep.Tasks[1].RuntimeNs != 20*usNs ||
		rep.Tasks[2].PID != 8 || rep.Tasks[2].Name != "sh" || tr.Stats.PIDReuses != 1 || tr.Stats.CommChanges != 1 {
		t.Errorf("%+v\n%+v", rep.Tasks, tr.Stats)
	}
}

func TestErrors(t *testing.T) {
	good := " <idle>-0 [000] 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n"
	cases := []struct {
		name, in string
		opts     Options
		want     string
	}{
		{"switch missing pid", good + " a-1 [000] 1.1: sched_switch: prev_comm=a prev_pid=x prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n", Options{}, "line 2: sched_switch: missing or bad prev_pid"},
		{"compact switch", good + " a-1 [000] 1.1: sched_switch: garbage\n", Options{}, "line 2: sched_switch: want prev_comm="},
		{"wakeup cpu", good + " a-1 [000] 1.1: sched_wakeup: comm=b pid=2 prio=120 target_cpu=zz\n", Options{}, "line 2: sched_wakeup: missing or bad target_cpu"},
		{"migrate", good + "\n a-1 [000] 1.1: sched_migrate_task: comm=b pid=2 prio=120 orig_cpu=1\n", Options{}, "line 3: sched_migrate_task: missing or bad dest_cpu"},
		{"idle", good + " a-1 [000] 1.1: cpu_idle: cpu_id=1\n", Options{}, "line 2: cpu_idle: missing or bad state"},
		{"cpu range", good + " a-1 [000] 1.1: sched_wakeup: comm=b pid=2 prio=120 target_cpu=99999\n", Options{}, "line 2: sched_wakeup: cpu 99999 out of range"},
		{"too long", good + strings.Repeat("x", 200) + "\n", Options{MaxLineLen: 150}, "line 2: line longer than 150 bytes"},
		{"too big", good + good, Options{MaxBytes: 200}, "input larger than 200 bytes"},
		{"empty", "# tracer: nop\nhello\n", Options{}, "no sched events in 2 lines"},
		{"end", good, Options{End: 5}, "end 5 is before the last event"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(strings.NewReader(c.in), c.opts)
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	// Unknown events and broken prefixes are skipped, not errors.
	tr, err := Import(strings.NewReader(good+" a-1 [000] 1.2: my_event: sched_switch: nonsense\nsched_switch: prev_pid=\n"), Options{})
	if err != nil || tr.Stats.Other["my_event"] != 1 || tr.Stats.Unrecognized != 1 {
		t.Errorf("%v %+v", err, tr)
	}
}
