package scenario

// The cgroup interface files of the "cgroups" object (scenario-format.md
// "Cgroups"): each file's value is checked and converted exactly as the
// kernel's write handler does (kernel/sched/core.c): cpu_weight_write_u64()
// (cpu.weight 1..10000 -> sched_weight_from_cgroup(), 100 = 1024),
// cpu_weight_nice_write_s64() (sched_prio_to_weight[]), cpu_shares_write_u64(),
// cpu_max_write() with cpu_period_quota_parse() ("QUOTA PERIOD" | "max
// PERIOD", µs), cpu_cfs_{quota,period,burst}_write_*() and the bounds of
// tg_set_cfs_bandwidth() (quota and period at least 1 ms, period at most
// 1 s, burst at most the quota, quota + burst at most max_cfs_runtime),
// sched_group_set_idle() (0|1), and cpuset's cpulist_parse() and
// partition_cmd ("member" | "root" | "isolated"). Values are kept as the
// canonical text of the file (what `cat` would show, integers as decimals)
// so that a scenario round-trips through JSON, -set and share URLs.

import (
	"sort"
	"strconv"
	"strings"
)

// cgroupFile describes one interface file.
type cgroupFile struct {
	name string
	// kind: "int" (an integer in [min, max]), "max" (cpu.max), "cpus"
	// (a cpulist), "partition" (member|root|isolated).
	kind     string
	min, max int64
	// family groups the files that set the same task_group field: at
	// most one of a family may be given (cpu.weight and cpu.shares both
	// set tg->shares).
	family string
	// since is the first kernel version (major*100+minor) with the file.
	since int
	help  string
}

// maxCfsRuntimeUs is max_cfs_runtime in µs: MAX_BW = 2^(64-BW_SHIFT) - 1
// with BW_SHIFT 20 (kernel/sched/sched.h), about 203 days.
const maxCfsRuntimeUs = 1<<44 - 1

var cgroupFiles = []cgroupFile{
	{name: "cpu.weight", kind: "int", min: 1, max: 10000, family: "shares", help: "cgroup v2 weight 1..10000 (default 100 = tg->shares 1024; sched_weight_from_cgroup())"},
	{name: "cpu.weight.nice", kind: "int", min: -20, max: 19, family: "shares", help: "the weight as a nice value -20..19 (sched_prio_to_weight[])"},
	{name: "cpu.max", kind: "max", family: "quota", help: "\"QUOTA PERIOD\" or \"max PERIOD\" in µs: quota >= 1000, period 1000..1000000 (default \"max 100000\")"},
	{name: "cpu.max.burst", kind: "int", min: 0, max: maxCfsRuntimeUs, family: "burst", since: 514, help: "µs of unused quota a period may carry into the next ones, at most the quota (v5.14+)"},
	{name: "cpu.idle", kind: "int", min: 0, max: 1, family: "idle", since: 515, help: "1: the group's entities are SCHED_IDLE to their siblings (v5.15+)"},
	{name: "cpuset.cpus", kind: "cpus", family: "cpus", help: "CPU list like 0-3,8 (default: the parent's CPUs)"},
	{name: "cpuset.cpus.partition", kind: "partition", family: "partition", help: "member, root or isolated (isolated CPUs get no load balancing); root and isolated need cpuset.cpus"},
	{name: "cpu.shares", kind: "int", min: 2, max: 262144, family: "shares", help: "cgroup v1 weight 2..262144 (tg->shares; default 1024)"},
	{name: "cpu.cfs_quota_us", kind: "int", min: -1, max: maxCfsRuntimeUs, family: "quota", help: "cgroup v1 quota in µs: -1 (no limit) or >= 1000"},
	{name: "cpu.cfs_period_us", kind: "int", min: 1000, max: 1000000, family: "period", help: "cgroup v1 period in µs, 1000..1000000 (default 100000)"},
	{name: "cpu.cfs_burst_us", kind: "int", min: 0, max: maxCfsRuntimeUs, family: "burst", since: 514, help: "cgroup v1 burst in µs, at most the quota (v5.14+)"},
	{name: "cpu.rt_runtime_us", kind: "int", min: -1, max: 1<<31 - 1, family: "rt_runtime", help: "cgroup v1 RT runtime per period in µs, -1 = unlimited (CONFIG_RT_GROUP_SCHED; default 0: no RT tasks)"},
	{name: "cpu.rt_period_us", kind: "int", min: 1, max: 1<<31 - 1, family: "rt_period", help: "cgroup v1 RT period in µs (default 1000000)"},
}

func cgroupFileByName(name string) *cgroupFile {
	for i := range cgroupFiles {
		if cgroupFiles[i].name == name {
			return &cgroupFiles[i]
		}
	}
	return nil
}

func cgroupFileNames() string {
	var ns []string
	for _, f := range cgroupFiles {
		ns = append(ns, f.name)
	}
	return strings.Join(ns, ", ")
}

// canonical checks a value written to the file (text as echoed into it)
// and returns its canonical form.
func (f *cgroupFile) canonical(path, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch f.kind {
	case "int":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < f.min || n > f.max {
			return "", errAt(path, "%q: want an integer %d..%d", s, f.min, f.max)
		}
		if (f.name == "cpu.cfs_quota_us") && n >= 0 && n < 1000 {
			return "", errAt(path, "%d: want -1 (no limit) or at least 1000 µs (tg_set_cfs_bandwidth() refuses a quota under 1 ms)", n)
		}
		return strconv.FormatInt(n, 10), nil
	case "max":
		q, p, err := parseCPUMax(path, s)
		if err != nil {
			return "", err
		}
		qs := "max"
		if q >= 0 {
			qs = strconv.FormatInt(q, 10)
		}
		return qs + " " + strconv.FormatInt(p, 10), nil
	case "cpus":
		cpus, err := parseCPUList(path, s)
		if err != nil {
			return "", err
		}
		return formatCPUList(cpus), nil
	case "partition":
		switch s {
		case "member", "root", "isolated":
			return s, nil
		}
		return "", errAt(path, "%q: want member, root or isolated", s)
	}
	panic("cgroupFile: unknown kind " + f.kind)
}

// parseCPUMax reads cpu.max as cpu_period_quota_parse() does: a quota
// ("max" or µs) and an optional period (µs, default 100000), with the
// bounds of tg_set_cfs_bandwidth(). Quota -1 = max.
func parseCPUMax(path, s string) (quota, period int64, err error) {
	bad := errAt(path, "%q: want \"QUOTA PERIOD\" or \"max PERIOD\" in µs, e.g. \"25000 100000\" (quota >= 1000, period 1000..1000000)", s)
	fs := strings.Fields(s)
	if len(fs) < 1 || len(fs) > 2 {
		return 0, 0, bad
	}
	quota, period = -1, 100000
	if fs[0] != "max" {
		if quota, err = strconv.ParseInt(fs[0], 10, 64); err != nil || quota < 0 {
			return 0, 0, bad
		}
		if quota < 1000 || quota > maxCfsRuntimeUs {
			return 0, 0, errAt(path, "quota %d µs: want at least 1000 (1 ms) and at most %d (tg_set_cfs_bandwidth())", quota, int64(maxCfsRuntimeUs))
		}
	}
	if len(fs) == 2 {
		if period, err = strconv.ParseInt(fs[1], 10, 64); err != nil {
			return 0, 0, bad
		}
		if period < 1000 || period > 1000000 {
			return 0, 0, errAt(path, "period %d µs: want 1000..1000000 (1 ms..1 s, tg_set_cfs_bandwidth())", period)
		}
	}
	return quota, period, nil
}

// maxCgroupCPU bounds CPU numbers in a cpulist (sched.Limits caps the
// machine far below).
const maxCgroupCPU = 4095

// parseCPUList reads a cpulist ("0-3,8", cpulist_parse()); "" is the empty
// list. The result is sorted and without duplicates.
func parseCPUList(path, s string) ([]int, error) {
	out := []int{}
	if s == "" {
		return out, nil
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b > maxCgroupCPU {
			return nil, errAt(path, "%q: want a CPU list like \"0-3,8\" (CPUs 0..%d, ranges low-high)", s, maxCgroupCPU)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.Ints(out)
	return out, nil
}

// formatCPUList renders a sorted CPU list as the kernel prints it
// (cpumap_print_list_to_buf(): "0-3,8").
func formatCPUList(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}

// weightShares is sched_weight_from_cgroup(): DIV_ROUND_CLOSEST_ULL(w *
// 1024, CGROUP_WEIGHT_DFL).
func weightShares(w int64) uint64 { return uint64((w*1024 + 50) / 100) }

// niceShares is cpu_weight_nice_write_s64(): sched_prio_to_weight[] of
// that nice value (the kernel's table, as core/sched/weights.go has it).
func niceShares(nice int64) uint64 { return niceWeights[nice+20] }

var niceWeights = [40]uint64{
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
}

// CgroupWrite is one write of an interface file: Hier is the v1 hierarchy
// it belongs to ("cpu" or "cpuset"; "" on cgroup v2's single hierarchy).
type CgroupWrite struct {
	Hier, File, Value string
}

// CgroupWrites returns the writes that give a group these (canonical)
// files on a cgroup v2 hierarchy, or with v1 on the v1 cpu and cpuset
// hierarchies, converting between the two as the kernel's handlers
// relate them (cpu.weight <-> tg->shares = cpu.shares, cpu.max <->
// cpu.cfs_quota_us and cpu.cfs_period_us), in the order they must be
// written (the period before the quota, the quota before the burst, the
// RT period before the runtime). notes says what does not carry over.
func CgroupWrites(files map[string]string, v1 bool) (writes []CgroupWrite, notes []string) {
	num := func(name string) (int64, bool) {
		v, ok := files[name]
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	cpu := func(file, val string) {
		h := ""
		if v1 {
			h = "cpu"
		}
		writes = append(writes, CgroupWrite{h, file, val})
	}
	// Weight.
	if v1 {
		var shares uint64
		if n, ok := num("cpu.weight"); ok {
			shares = weightShares(n)
		} else if n, ok := num("cpu.weight.nice"); ok {
			shares = niceShares(n)
		} else if n, ok := num("cpu.shares"); ok {
			shares = uint64(n)
		}
		if shares != 0 {
			cpu("cpu.shares", strconv.FormatUint(shares, 10))
		}
	} else {
		if v, ok := files["cpu.weight"]; ok {
			cpu("cpu.weight", v)
		} else if v, ok := files["cpu.weight.nice"]; ok {
			cpu("cpu.weight.nice", v)
		} else if n, ok := num("cpu.shares"); ok {
			w := min(max((n*100+512)/1024, 1), 10000) // sched_weight_to_cgroup()
			cpu("cpu.weight", strconv.FormatInt(w, 10))
			if uint64(n) != weightShares(w) {
				notes = append(notes, "cpu.shares "+strconv.FormatInt(n, 10)+" has no exact cgroup v2 weight: cpu.weight "+strconv.FormatInt(w, 10)+" gives shares "+strconv.FormatUint(weightShares(w), 10))
			}
		}
	}
	// Quota and period.
	quota, period := "", ""
	if v, ok := files["cpu.max"]; ok {
		quota, period, _ = strings.Cut(v, " ")
	}
	if v, ok := files["cpu.cfs_quota_us"]; ok {
		quota = v
	}
	if v, ok := files["cpu.cfs_period_us"]; ok {
		period = v
	}
	if quota == "-1" {
		quota = "max"
	}
	if quota != "" || period != "" {
		if period == "" {
			period = "100000"
		}
		if quota == "" {
			quota = "max"
		}
		if v1 {
			cpu("cpu.cfs_period_us", period)
			q := quota
			if q == "max" {
				q = "-1"
			}
			cpu("cpu.cfs_quota_us", q)
		} else {
			cpu("cpu.max", quota+" "+period)
		}
	}
	burst := files["cpu.max.burst"]
	if v, ok := files["cpu.cfs_burst_us"]; ok {
		burst = v
	}
	if burst != "" {
		if v1 {
			cpu("cpu.cfs_burst_us", burst)
		} else {
			cpu("cpu.max.burst", burst)
		}
	}
	if v, ok := files["cpu.idle"]; ok {
		cpu("cpu.idle", v)
	}
	// RT bandwidth: cgroup v1 only.
	rtp, hasP := files["cpu.rt_period_us"]
	rtr, hasR := files["cpu.rt_runtime_us"]
	if hasP || hasR {
		if v1 {
			if hasP {
				cpu("cpu.rt_period_us", rtp)
			}
			if hasR {
				cpu("cpu.rt_runtime_us", rtr)
			}
		} else {
			notes = append(notes, "cgroup v2 has no RT group bandwidth (cpu.rt_runtime_us, cpu.rt_period_us): left out")
		}
	}
	// cpuset.
	set := func(file, val string) {
		h := ""
		if v1 {
			h = "cpuset"
		}
		writes = append(writes, CgroupWrite{h, file, val})
	}
	if v, ok := files["cpuset.cpus"]; ok && v != "" {
		set("cpuset.cpus", v)
	}
	if v, ok := files["cpuset.cpus.partition"]; ok && v != "member" {
		if v1 {
			set("cpuset.cpu_exclusive", "1")
			if v == "isolated" {
				set("cpuset.sched_load_balance", "0")
			}
			notes = append(notes, "cpuset.cpus.partition "+v+" on cgroup v1: cpuset.cpu_exclusive"+map[bool]string{true: " and sched_load_balance 0 (the parent must have sched_load_balance 0 for a separate sched domain)", false: ""}[v == "isolated"])
		} else {
			set("cpuset.cpus.partition", v)
		}
	}
	return writes, notes
}
