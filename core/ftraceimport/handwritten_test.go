package ftraceimport

// Hand-written traces in the kernel's and trace-cmd's layouts, with the
// metrics worked out by hand in the comments next to the expectations.

import (
	"regexp"
	"strings"
	"testing"

	"schedplay/core/metrics"
)

// s5Trace is in the layout of the S5 (docs/VALIDATION.md) thread excerpts
// (/sys/kernel/tracing/trace, v5.17+ header with the irq-flags column).
// Times below are µs after the first line (42478.170000).
const s5Trace = `# tracer: nop
#
# entries-in-buffer/entries-written: 13/13   #P:8
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
    task_other-0-39771   [002] d..2. 42478.170000: sched_switch: prev_comm=task_other-0 prev_pid=39771 prev_prio=120 prev_state=R+ ==> next_comm=kworker/2:1 next_pid=120 next_prio=120
     kworker/2:1-120     [002] d..2. 42478.170010: sched_switch: prev_comm=kworker/2:1 prev_pid=120 prev_prio=120 prev_state=I ==> next_comm=task_other-0 next_pid=39771 next_prio=120
          <idle>-0       [003] d.h1. 42478.177770: irq_handler_entry: irq=24 name=eth0
          <idle>-0       [003] d.h2. 42478.177771: sched_waking: comm=task_idle-1 pid=39772 prio=120 target_cpu=002
          <idle>-0       [003] d.h3. 42478.177771: sched_wakeup: comm=task_idle-1 pid=39772 prio=120 target_cpu=002
    task_other-0-39771   [002] d..2. 42478.177800: sched_wakeup: comm=task_other-0 pid=39771 prio=120 target_cpu=002
    task_other-0-39771   [002] d..2. 42478.190437: sched_switch: prev_comm=task_other-0 prev_pid=39771 prev_prio=120 prev_state=R ==> next_comm=task_idle-1 next_pid=39772 next_prio=120
     task_idle-1-39772   [002] d..2. 42478.191437: sched_switch: prev_comm=task_idle-1 prev_pid=39772 prev_prio=120 prev_state=S ==> next_comm=task_other-0 next_pid=39771 next_prio=120
          <idle>-0       [003] d..2. 42478.192000: sched_migrate_task: comm=task_idle-1 pid=39772 prio=120 orig_cpu=2 dest_cpu=3
          <idle>-0       [003] d.h2. 42478.200000: sched_wakeup: comm=task_idle-1 pid=39772 prio=120 target_cpu=003
          <idle>-0       [003] d..2. 42478.200005: sched_switch: prev_comm=swapper/3 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=task_idle-1 next_pid=39772 next_prio=120
     task_idle-1-39772   [003] d..2. 42478.201005: sched_switch: prev_comm=idle renamed prev_pid=39772 prev_prio=120 prev_state=D ==> next_comm=swapper/3 next_pid=0 next_prio=120
          <idle>-0       [003] d..1. 42478.210000: cpu_idle: state=1 cpu_id=3
`

const usNs = 1000

// s5Want is worked out by hand; the trace lasts 40000 µs.
var s5Want = []metrics.Task{
	{ // Running when the trace starts (prev of CPU 2's first switch): runs
		// 0-0, 10-20437 and 21437-40000 = 38990 µs; waits 0-10 and
		// 20437-21437 = 1010 µs; preempted twice (R+, R); its wakeup at 7800
		// is redundant (it was running).
		Name: "task_other-0", PID: 39771, Policy: "SCHED_OTHER",
		RuntimeNs: 38990 * usNs, WaitNs: 1010 * usNs, Switches: 2, InvoluntarySwitches: 2},
	{ // Switched in at 0 (no known wait), runs 10 µs, then sleeps (I) to the end.
		Name: "kworker/2:1", PID: 120, Policy: "SCHED_OTHER",
		RuntimeNs: 10 * usNs, SleepNs: 39990 * usNs, Switches: 1},
	{ // Woken at 7771 (sched_waking ignored: the trace has sched_wakeup),
		// runs 20437-21437, sleeps to 30000 (8563), migrates 2->3, woken at
		// 30000, runs 30005-31005 under a new comm, sleeps 31005-40000
		// (8995). Latencies 12666 and 5 µs.
		Name: "idle renamed", PID: 39772, Policy: "SCHED_OTHER",
		RuntimeNs: 2000 * usNs, WaitNs: 12671 * usNs, SleepNs: 17558 * usNs,
		Switches: 2, Migrations: 1, Wakeups: 2,
		WakeupLatencyNs: metrics.Latency{Count: 2, Mean: 6335500, P50: 5 * usNs,
			P90: 12666 * usNs, P99: 12666 * usNs, Max: 12666 * usNs}},
}

func checkTasks(t *testing.T, got metrics.Report, want []metrics.Task) {
	t.Helper()
	if len(got.Tasks) != len(want) {
		t.Fatalf("%d tasks, want %d: %+v", len(got.Tasks), len(want), got.Tasks)
	}
	for i, w := range want {
		if g := got.Tasks[i]; g != w {
			t.Errorf("task %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

func TestS5Layout(t *testing.T) {
	tr, err := Import(strings.NewReader(s5Trace), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := tr.Metrics("s5")
	checkTasks(t, rep, s5Want)
	if tr.Offset != 42478170000000 || rep.DurationNs != 40000*usNs || tr.NumCPUs != 8 {
		t.Errorf("offset %d duration %d cpus %d", tr.Offset, rep.DurationNs, tr.NumCPUs)
	}
	st := tr.Stats
	if st.WakingIgnored != 1 || st.RedundantWakeups != 1 || st.CommChanges != 1 ||
		st.Other["irq_handler_entry"] != 1 || st.Comments != 12 || st.Events != 10 {
		t.Errorf("stats %+v", st)
	}
	// CPU 2 is busy throughout (task_other was running at the start); CPU 3
	// runs task_idle 30005-31005.
	if c := rep.CPUs[2]; c.BusyNs != 40000*usNs || c.IdleNs != 0 || c.Switches != 4 {
		t.Errorf("cpu 2: %+v", c)
	}
	if c := rep.CPUs[3]; c.BusyNs != 1000*usNs || c.IdleNs != 39000*usNs || c.Switches != 2 {
		t.Errorf("cpu 3: %+v", c)
	}
	if rep.Kernel != "real" || rep.Topology != "unknown" || rep.Events != 10 || rep.Schema != metrics.Schema {
		t.Errorf("header %+v", rep)
	}
}

// TestS5LayoutVariants reads the same trace without the header, without the
// irq-flags column (options/irq-info off), with the tgid column
// (options/record-tgid), with nanosecond timestamps and with CRLF line
// ends: the per-task figures are the same.
func TestS5LayoutVariants(t *testing.T) {
	var body []string
	for _, l := range strings.Split(s5Trace, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			body = append(body, l)
		}
	}
	flags := regexp.MustCompile(`\] [dNnXhHsSzb.][.a-zA-Z0-9]{3,4} `)
	task := regexp.MustCompile(`^( *\S.*?-\d+) +\[`)
	ts := regexp.MustCompile(` (\d+\.\d{6}):`)
	variants := map[string]func(string) string{
		"no-header": func(l string) string { return l },
		"no-flags":  func(l string) string { return flags.ReplaceAllString(l, "] ") },
		"tgid":      func(l string) string { return task.ReplaceAllString(l, "$1 (  39700) [") },
		"ns":        func(l string) string { return ts.ReplaceAllString(l, " ${1}000:") },
		"crlf":      func(l string) string { return l + "\r" },
		"wide-cpu":  func(l string) string { return strings.Replace(l, "[00", "[  ", 1) },
	}
	for name, f := range variants {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			for _, l := range body {
				b.WriteString(f(l))
				b.WriteByte('\n')
			}
			if name == "no-flags" && strings.Contains(b.String(), "d..2.") {
				t.Fatal("flags not removed")
			}
			tr, err := Import(strings.NewReader(b.String()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkTasks(t, tr.Metrics("s5"), s5Want)
			if tr.NumCPUs != 4 { // no #P: the highest CPU seen
				t.Errorf("cpus %d", tr.NumCPUs)
			}
		})
	}
}
