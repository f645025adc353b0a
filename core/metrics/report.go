package metrics

// The report: the schema `schedplay.metrics/v1` built from a finished
// collector, and its text rendering.

import (
	"fmt"
	"io"
	"math/bits"
	"strings"

	"schedplay/core/sched"
)

// Schema is the metrics JSON schema name.
const Schema = "schedplay.metrics/v1"

// Latency summarises wakeup latencies (ns). Percentiles use the
// nearest-rank method, on the exact values while the task's histogram is
// exact (hist.go: every preset), else within 0.78 %; count, mean and max
// are always exact.
type Latency struct {
	Count int64 `json:"count"`
	Mean  int64 `json:"mean"`
	P50   int64 `json:"p50"`
	P90   int64 `json:"p90"`
	P99   int64 `json:"p99"`
	Max   int64 `json:"max"`
}

// Task is one task's figures.
type Task struct {
	Name                string  `json:"name"`
	PID                 int     `json:"pid"`
	Policy              string  `json:"policy"`
	Nice                int     `json:"nice"`
	RTPriority          int     `json:"rt_priority"`
	RuntimeNs           int64   `json:"runtime_ns"`
	WaitNs              int64   `json:"wait_ns"`
	SleepNs             int64   `json:"sleep_ns"`
	Switches            int64   `json:"switches"`
	InvoluntarySwitches int64   `json:"involuntary_switches"`
	Migrations          int64   `json:"migrations"`
	Wakeups             int64   `json:"wakeups"`
	WakeupLatencyNs     Latency `json:"wakeup_latency_ns"`
	// TimerLatencyNs is cyclictest's latency: from the hard expiry of the
	// hrtimer that woke the task (sleep or timer step) to its switch-in.
	// Unlike wakeup latency it includes a timer interrupt held off by an
	// interrupts-off span.
	TimerLatencyNs Latency `json:"timer_latency_ns"`
	// SumExecNs is se.sum_exec_runtime as the kernel accounts it:
	// RuntimeNs, plus on v3.11 the wakeup paths charged through a stale rq
	// clock at wakeup from idle (sched/rq_clock.go).
	SumExecNs int64 `json:"sum_exec_ns"`
	// UserNs and SysNs split SumExecNs as getrusage() and time(1) report
	// it: cputime_adjust() scales the task's user:system ratio (SysNs the
	// modelled kernel time charged to the task: context switch, pick,
	// syscalls; hw.* costs) to sum_exec_runtime. Where SumExecNs equals
	// RuntimeNs (every profile but v3.11) they split RuntimeNs exactly.
	UserNs int64 `json:"user_ns"`
	SysNs  int64 `json:"sys_ns"`
}

// CPU is one CPU's figures.
type CPU struct {
	ID          int              `json:"id"`
	BusyNs      int64            `json:"busy_ns"`
	IdleNs      int64            `json:"idle_ns"`
	Switches    int64            `json:"switches"`
	IPIs        int64            `json:"ipis"`
	IdleStateNs map[string]int64 `json:"idle_state_ns"`
	// UserNs + SysNs + the sum of IdleStateNs = the run's duration. SysNs
	// is the tasks' kernel time plus the idle path's (entry, exit, tick
	// stop/restart, schedule_idle); BusyNs + IdleNs is also the duration
	// (IdleNs = idle states + the idle path's kernel time).
	UserNs int64 `json:"user_ns"`
	SysNs  int64 `json:"sys_ns"`
}

// Report is the whole metrics document.
type Report struct {
	Schema     string `json:"schema"`
	Scenario   string `json:"scenario"`
	Topology   string `json:"topology"`
	Kernel     string `json:"kernel"`
	Seed       uint64 `json:"seed"`
	DurationNs int64  `json:"duration_ns"`
	Events     int64  `json:"events"`
	Tasks      []Task `json:"tasks"`
	CPUs       []CPU  `json:"cpus"`
	// Cgroups are the scenario's cgroups in number order (cgroups.go);
	// absent when it has none.
	Cgroups []Cgroup `json:"cgroups,omitempty"`
}

// Build assembles the report for a finished run.
func (c *Collector) Build(s *sched.Sim, scenario string) Report {
	cfg := s.Config()
	r := Report{Schema: Schema, Scenario: scenario, Topology: cfg.Machine.Name,
		Kernel: cfg.Profile.Name, Seed: cfg.Seed, DurationNs: int64(c.end),
		Events: s.EventsPopped(), Tasks: []Task{}, CPUs: []CPU{}}
	for id := 0; id < s.NumTasks(); id++ {
		info := s.TaskInfo(sched.TaskID(id))
		var a taskAcc
		if id < len(c.tasks) {
			a = c.tasks[id]
		}
		r.Tasks = append(r.Tasks, Task{
			Name: info.Name, PID: info.PID, Policy: info.Policy.String(), Nice: info.Nice, RTPriority: info.RTPriority,
			RuntimeNs: a.runtime, WaitNs: a.wait, SleepNs: a.sleep,
			Switches: a.voluntary + a.involuntar, InvoluntarySwitches: a.involuntar,
			Migrations: a.migrations, Wakeups: a.wakeups,
			WakeupLatencyNs: a.latencies.Summary(), TimerLatencyNs: a.timerLat.Summary(),
		})
		t := &r.Tasks[len(r.Tasks)-1]
		t.SumExecNs = a.runtime + s.TaskStaleExecNs(sched.TaskID(id))
		t.SysNs = cputimeAdjust(a.sys, a.runtime, t.SumExecNs)
		t.UserNs = t.SumExecNs - t.SysNs
	}
	names := s.IdleStateNames()
	for i, cp := range c.cpus {
		st := map[string]int64{}
		var inStates int64
		for k, ns := range cp.stateNs {
			name := fmt.Sprintf("state%d", k)
			if k < len(names) {
				name = names[k]
			}
			st[name] += ns
			inStates += ns
		}
		idlePath := cp.idle - inStates
		if len(names) == 1 && names[0] == "IDLE" {
			// Ideal machine (no hw model): all idle time is its one state.
			st = map[string]int64{"IDLE": cp.idle}
			idlePath = 0
		}
		r.CPUs = append(r.CPUs, CPU{ID: i, BusyNs: cp.busy, IdleNs: cp.idle, Switches: cp.switches,
			IPIs: cp.ipis, IdleStateNs: st, SysNs: cp.taskSys + idlePath, UserNs: cp.busy - cp.taskSys})
	}
	c.buildCgroups(s, &r)
	return r
}

// cputimeAdjust mirrors cputime_adjust() -> scale_stime(): the system
// time of a task that ran total ns, sys of them in the kernel, when
// sum_exec_runtime is rtime. SIMPLIFIED: the exact modelled ratio stands for
// the kernel's tick samples (its expectation under uniform sampling).
func cputimeAdjust(sys, total, rtime int64) int64 {
	if rtime == total || total <= 0 || rtime < 0 {
		return min(sys, rtime)
	}
	sys = max(0, min(sys, total))
	hi, lo := bits.Mul64(uint64(sys), uint64(rtime))
	q, _ := bits.Div64(hi, lo, uint64(total)) // sys <= total: the quotient fits
	return int64(q)
}

// WriteText renders the report as the CLI's summary tables.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %s  topology %s  kernel %s  seed %d  duration %s  events %d\n\n",
		orDash(r.Scenario), r.Topology, r.Kernel, r.Seed, sched.Time(r.DurationNs), r.Events)
	fmt.Fprintf(&b, "%-20s %7s %-14s %4s %8s %11s %11s %9s %7s %6s %7s %10s %10s %10s\n",
		"task", "pid", "policy", "nice", "cpu%", "runtime_ms", "wait_ms", "switches", "invol", "migr", "wakeups", "lat_p50us", "lat_p99us", "lat_maxus")
	for _, t := range r.Tasks {
		share := 0.0
		if r.DurationNs > 0 {
			share = 100 * float64(t.RuntimeNs) / float64(r.DurationNs)
		}
		fmt.Fprintf(&b, "%-20s %7d %-14s %4d %8.2f %11.3f %11.3f %9d %7d %6d %7d %10.1f %10.1f %10.1f\n",
			t.Name, t.PID, t.Policy, t.Nice, share, ms(t.RuntimeNs), ms(t.WaitNs), t.Switches,
			t.InvoluntarySwitches, t.Migrations, t.Wakeups,
			us(t.WakeupLatencyNs.P50), us(t.WakeupLatencyNs.P99), us(t.WakeupLatencyNs.Max))
	}
	fmt.Fprintf(&b, "\n%-5s %8s %11s %11s %9s\n", "cpu", "busy%", "busy_ms", "idle_ms", "switches")
	for _, c := range r.CPUs {
		busy := 0.0
		if r.DurationNs > 0 {
			busy = 100 * float64(c.BusyNs) / float64(r.DurationNs)
		}
		fmt.Fprintf(&b, "%-5d %8.2f %11.3f %11.3f %9d\n", c.ID, busy, ms(c.BusyNs), ms(c.IdleNs), c.Switches)
	}
	r.writeCgroupText(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }
func us(ns int64) float64 { return float64(ns) / 1e3 }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
