package sched

// Scheduler sysctls, with kernel names and units. Values are the effective
// ones (what /proc/sys/kernel or /sys/kernel/debug/sched shows), i.e. after
// the CPU-count scaling of update_sysctl().

import (
	"fmt"
	"strings"

	"schedplay/core/quote"
)

// Sysctls holds the tunables a run uses.
type Sysctls struct {
	LatencyNs           int64 // sysctl_sched_latency (CFS)
	MinGranularityNs    int64 // sysctl_sched_min_granularity (CFS)
	WakeupGranularityNs int64 // sysctl_sched_wakeup_granularity (CFS)
	BaseSliceNs         int64 // sysctl_sched_base_slice (EEVDF)
	MigrationCostNs     int64 // sysctl_sched_migration_cost
	NrMigrate           int64 // sysctl_sched_nr_migrate
	RTRuntimeUs         int64 // sysctl_sched_rt_runtime
	RTPeriodUs          int64 // sysctl_sched_rt_period
	RRTimesliceMs       int64 // sysctl_sched_rr_timeslice
	ChildRunsFirst      int64 // sysctl_sched_child_runs_first (CFS)
	CfsBandwidthSliceUs int64 // sysctl_sched_cfs_bandwidth_slice (cgroup_bandwidth.go)
}

type sysctlInfo struct {
	name     string
	unit     string
	min, max int64
	modelled bool
	help     string
	field    func(*Sysctls) *int64
}

var sysctlTable = []sysctlInfo{
	{"sched_latency_ns", "ns", 100000, 1000000000, true, "CFS targeted preemption latency (period for up to sched_nr_latency tasks)", func(s *Sysctls) *int64 { return &s.LatencyNs }},
	{"sched_min_granularity_ns", "ns", 100000, 1000000000, true, "CFS minimum run time before tick preemption; period = nr * this above sched_nr_latency", func(s *Sysctls) *int64 { return &s.MinGranularityNs }},
	{"sched_wakeup_granularity_ns", "ns", 0, 1000000000, true, "CFS: a waking task preempts when it is this far (scaled by its weight) behind", func(s *Sysctls) *int64 { return &s.WakeupGranularityNs }},
	{"sched_base_slice_ns", "ns", 100000, 1000000000, true, "EEVDF request size: the slice a task's virtual deadline is computed from", func(s *Sysctls) *int64 { return &s.BaseSliceNs }},
	{"sched_migration_cost_ns", "ns", 0, 1000000000, true, "task_hot(): a task that ran less than this ago is cache hot for load balancing; also the newidle avg_idle floor", func(s *Sysctls) *int64 { return &s.MigrationCostNs }},
	{"sched_nr_migrate", "tasks", 1, 1 << 20, true, "detach_tasks(): at most this many tasks examined per load-balance pass", func(s *Sysctls) *int64 { return &s.NrMigrate }},
	{"sched_rt_runtime_us", "us", -1, 1 << 31, true, "RT throttling: RT runtime per period per CPU, -1 = unlimited (up to v6.11; v6.12+ protect fair tasks with the 50ms/1s fair server instead)", func(s *Sysctls) *int64 { return &s.RTRuntimeUs }},
	{"sched_rt_period_us", "us", 1, 1 << 31, true, "RT throttling period (up to v6.11)", func(s *Sysctls) *int64 { return &s.RTPeriodUs }},
	{"sched_rr_timeslice_ms", "ms", 1, 1 << 20, true, "SCHED_RR time slice, rounded up to ticks", func(s *Sysctls) *int64 { return &s.RRTimesliceMs }},
	{"sched_child_runs_first", "bool", 0, 1, true, "CFS: a forked child runs before its parent", func(s *Sysctls) *int64 { return &s.ChildRunsFirst }},
	{"sched_cfs_bandwidth_slice_us", "us", 1, 1 << 31, true, "CFS bandwidth: a cfs_rq takes runtime from its group's quota in slices of this size", func(s *Sysctls) *int64 { return &s.CfsBandwidthSliceUs }},
}

// SysctlKey documents one sysctl key.
type SysctlKey struct {
	Name, Unit, Help string
	Min, Max         int64
	Modelled         bool
}

// SysctlKeys lists the sysctls in a stable order.
func SysctlKeys() []SysctlKey {
	out := make([]SysctlKey, len(sysctlTable))
	for i, s := range sysctlTable {
		out[i] = SysctlKey{s.name, s.unit, s.help, s.min, s.max, s.modelled}
	}
	return out
}

// Set assigns a sysctl by its kernel name, checking the range the kernel
// accepts.
func (s *Sysctls) Set(name string, v int64) error {
	for _, e := range sysctlTable {
		if e.name == name {
			if v < e.min || v > e.max {
				return fmt.Errorf("sysctl %s: %d out of range %d..%d %s", name, v, e.min, e.max, e.unit)
			}
			*e.field(s) = v
			return nil
		}
	}
	var names []string
	for _, e := range sysctlTable {
		names = append(names, e.name)
	}
	return quote.Errorf("unknown sysctl %q (known: %s)", name, strings.Join(names, ", "))
}

// Get returns a sysctl by name.
func (s *Sysctls) Get(name string) (int64, bool) {
	for _, e := range sysctlTable {
		if e.name == name {
			return *e.field(s), true
		}
	}
	return 0, false
}
