package sched

// The task-group configuration of a run: one CgroupSpec per cgroup of the
// cpu controller (struct task_group, kernel/sched/sched.h), the contract
// between the scenario layer (which decodes the cgroup v2 interface files)
// and the engine (which schedules through the hierarchy). Values are in the
// kernel's units after the interface file's conversion (cpu_weight_write_u64()
// -> tg->shares, tg_set_cfs_bandwidth() -> cfs_b->quota/period/burst).
//
// This file holds the types only; the engine's group scheduling and
// bandwidth control live in the cgroup*.go files that implement them.

// CgroupSpec is one cgroup of the cpu controller. Cgroups are numbered
// from 1 in Config.Cgroups order (Config.Cgroups[k-1] is cgroup k); 0 is
// the implicit root task group, so a zero TaskSpec.Cgroup is the root.
type CgroupSpec struct {
	// Path is the cgroup path below the hierarchy root, "/A/B".
	Path string
	// Parent is the number of the parent cgroup (0 = the root task
	// group); parents come before their children.
	Parent int
	// Shares is tg->shares before scale_load(): cpu.weight 100 = 1024,
	// sched_weight_from_cgroup() (cpu.weight.nice and v1 cpu.shares map
	// here too). 2..262144 (MIN_SHARES..MAX_SHARES).
	Shares uint64
	// Idle is cpu.idle (tg->idle, sched_group_set_idle()): the group's
	// entities are SCHED_IDLE entities to their siblings.
	Idle bool
	// Quota is cfs_b->quota per Period; Unlimited (RUNTIME_INF, "max")
	// means no bandwidth limit.
	Quota, Period Time
	// Burst is cfs_b->burst (cpu.max.burst, v5.14+): quota left unused
	// in a period that may be carried into later ones, at most Burst.
	Burst Time
	// CPUs is cpuset.cpus (nil = inherit the parent's); Partition is
	// cpuset.cpus.partition: "" or "member", "root", "isolated".
	CPUs      []int
	Partition string
	// RTRuntime and RTPeriod are cpu.rt_runtime_us / cpu.rt_period_us
	// (CONFIG_RT_GROUP_SCHED; RTRuntime 0 = no RT tasks may run).
	RTRuntime, RTPeriod Time
}

// Unlimited is RUNTIME_INF: no quota.
const Unlimited Time = -1

// CgroupStat is the cgroup's cpu.stat (cpu_extra_stat_show() and
// cpu.stat's usage fields), in nanoseconds and counts, at the end of the
// run or when read.
type CgroupStat struct {
	UsageNs, UserNs, SystemNs int64
	NrPeriods, NrThrottled    int64
	ThrottledNs               int64
	NrBursts                  int64
	BurstNs                   int64
}
