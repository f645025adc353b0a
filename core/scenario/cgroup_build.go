package scenario

// Resolving the scenario's cgroups into the engine's task groups
// (sched.CgroupSpec): every path the "cgroups" object defines or a task's
// "taskgroup" names, with its ancestors (created with defaults, as rt-app
// and mkdir -p create them), numbered from 1 in path order so that
// parents come before children. The cross-file rules are checked here,
// where the kernel profile and the machine are known: one file per
// task_group field, burst only with a quota and at most the quota
// (tg_set_cfs_bandwidth()), files the profile's kernel does not have, the
// RT bandwidth sums of tg_rt_schedulable(), sched_rt_can_attach() for RT
// tasks, and cpuset partitions that leave a group with tasks no CPUs
// (cpuset's PERR_NOCPUS).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// cgroupTree is the resolved hierarchy of a build.
type cgroupTree struct {
	specs   []sched.CgroupSpec
	index   map[string]int // path -> cgroup number; "" and "/" -> 0 (root)
	rtGroup bool           // kernel.rt_group_sched
}

// taskCgroupRefs lists the groups a task's program moves it to.
func taskCgroupRefs(steps []Step, out []string) []string {
	for _, st := range steps {
		switch st.Kind {
		case "taskgroup":
			out = append(out, st.Group)
		case "loop":
			out = taskCgroupRefs(st.Loop.Program, out)
		}
	}
	return out
}

func cleanGroup(g string) string {
	if g == "/" {
		return ""
	}
	return g
}

// buildCgroups resolves the tree. paths names each task group in errors.
func (sc *Scenario) buildCgroups(tasks []Task, paths func(int) string, prof sched.Profile, sys sched.Sysctls, m *topology.Machine, rtGroup bool) (*cgroupTree, error) {
	tr := &cgroupTree{index: map[string]int{"": 0, "/": 0}, rtGroup: rtGroup}
	all, _, hasTasks, err := sc.cgroupPaths(tasks, paths)
	if err != nil {
		return nil, err
	}
	for k, p := range all {
		tr.index[p] = k + 1
	}
	files := map[string]map[string]string{}
	for _, cg := range sc.Cgroups {
		files[cg.Path] = cg.Files
	}
	for _, p := range all {
		parent := tr.index[p[:strings.LastIndexByte(p, '/')]]
		spec, err := cgroupSpec("cgroups."+p, p, parent, files[p], prof, m, rtGroup)
		if err != nil {
			return nil, err
		}
		tr.specs = append(tr.specs, spec)
	}
	if rtGroup {
		if err := tr.checkRTBandwidth(sys); err != nil {
			return nil, err
		}
	}
	if err := tr.checkCpusets(m, hasTasks); err != nil {
		return nil, err
	}
	return tr, nil
}

// CgroupPaths lists every cgroup of the scenario in number order: the
// paths of the "cgroups" object and of the tasks' taskgroup keys and
// steps, with their parents.
func (sc *Scenario) CgroupPaths() ([]string, error) {
	all, _, _, err := sc.cgroupPaths(sc.Tasks, func(i int) string { return fmt.Sprintf("tasks[%d]", i) })
	return all, err
}

// cgroupPaths collects the groups: where names the JSON path that made
// each exist, hasTasks the groups some task starts in or moves to ("" =
// the root).
func (sc *Scenario) cgroupPaths(tasks []Task, paths func(int) string) (all []string, where map[string]string, hasTasks map[string]bool, err error) {
	where = map[string]string{}
	add := func(path, from string) {
		for p := path; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
			if _, ok := where[p]; !ok {
				where[p] = from
			}
		}
	}
	for _, cg := range sc.Cgroups {
		if err := checkCgroupPath("cgroups."+cg.Path, cg.Path); err != nil {
			return nil, nil, nil, err
		}
		add(cg.Path, "cgroups."+cg.Path)
	}
	hasTasks = map[string]bool{}
	for i, t := range tasks {
		if err := checkTaskgroup(paths(i)+".taskgroup", t.Cgroup); err != nil {
			return nil, nil, nil, err
		}
		add(cleanGroup(t.Cgroup), paths(i)+".taskgroup")
		hasTasks[cleanGroup(t.Cgroup)] = true
		for _, g := range taskCgroupRefs(t.Program, nil) {
			if err := checkTaskgroup(paths(i)+".program", g); err != nil {
				return nil, nil, nil, err
			}
			add(cleanGroup(g), paths(i)+".program")
			hasTasks[cleanGroup(g)] = true
		}
	}
	if len(where) > MaxCgroups {
		return nil, nil, nil, errAt("cgroups", "%d cgroups with the ones the tasks name and the parents; the limit is %d", len(where), MaxCgroups)
	}
	for p := range where {
		all = append(all, p)
	}
	sort.Strings(all) // a prefix sorts first: parents before children
	return all, where, hasTasks, nil
}

// cgroupSpec converts one group's files. A group without files has the
// kernel's defaults: weight 100 (shares 1024), no quota, a 100 ms
// period, no burst, not idle, the parent's CPUs, and with RT group
// scheduling RT runtime 0 of a 1 s period (sched_rt_period_us's default;
// RT_GROUP_SCHED gives a new group no runtime).
func cgroupSpec(p, path string, parent int, fs map[string]string, prof sched.Profile, m *topology.Machine, rtGroup bool) (sched.CgroupSpec, error) {
	spec := sched.CgroupSpec{Path: path, Parent: parent, Shares: 1024, Quota: sched.Unlimited,
		Period: 100 * sched.Millisecond}
	if rtGroup {
		spec.RTPeriod = sched.Second // RT fields stay zero without CONFIG_RT_GROUP_SCHED
	}
	family := map[string]string{}
	for _, name := range sortedStringKeys(fs) {
		f := cgroupFileByName(name)
		if f == nil {
			return spec, errAt(p+"."+name, "unknown interface file (known: %s)", cgroupFileNames())
		}
		fam := f.family
		if name == "cpu.max" {
			fam = "quota" // and the period: cpu.max sets both
		}
		if other, dup := family[fam]; dup {
			return spec, errAt(p+"."+name, "sets the same task_group field as %s: give one of them", other)
		}
		family[fam] = name
		if f.since > prof.Version() {
			return spec, errAt(p+"."+name, "the file arrived in v%d.%d; kernel %s has none", f.since/100, f.since%100, prof.Name)
		}
		if strings.HasPrefix(name, "cpu.rt_") && !rtGroup {
			return spec, errAt(p+"."+name, "exists only with kernel.rt_group_sched=on (CONFIG_RT_GROUP_SCHED)")
		}
	}
	if _, ok := fs["cpu.max"]; ok {
		if _, v1 := fs["cpu.cfs_period_us"]; v1 {
			return spec, errAt(p+".cpu.cfs_period_us", "cpu.max sets the period too: give cpu.max \"QUOTA PERIOD\" or the v1 cpu.cfs_quota_us and cpu.cfs_period_us")
		}
	}
	us := func(name string) (int64, bool) {
		v, ok := fs[name]
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			panic(fmt.Sprintf("cgroupSpec: %s=%q not canonical", name, v))
		}
		return n, true
	}
	if n, ok := us("cpu.weight"); ok {
		spec.Shares = weightShares(n)
	}
	if n, ok := us("cpu.weight.nice"); ok {
		spec.Shares = niceShares(n)
	}
	if n, ok := us("cpu.shares"); ok {
		spec.Shares = uint64(n)
	}
	if v, ok := fs["cpu.max"]; ok {
		q, per, err := parseCPUMax(p+".cpu.max", v)
		if err != nil {
			return spec, err
		}
		spec.Period = sched.Time(per) * sched.Microsecond
		if q >= 0 {
			spec.Quota = sched.Time(q) * sched.Microsecond
		}
	}
	if n, ok := us("cpu.cfs_quota_us"); ok && n >= 0 {
		spec.Quota = sched.Time(n) * sched.Microsecond
	}
	if n, ok := us("cpu.cfs_period_us"); ok {
		spec.Period = sched.Time(n) * sched.Microsecond
	}
	for _, name := range []string{"cpu.max.burst", "cpu.cfs_burst_us"} {
		n, ok := us(name)
		if !ok || n == 0 {
			continue
		}
		if spec.Quota == sched.Unlimited {
			return spec, errAt(p+"."+name, "%d µs of burst without a quota: set cpu.max \"QUOTA PERIOD\" too", n)
		}
		spec.Burst = sched.Time(n) * sched.Microsecond
		if spec.Burst > spec.Quota {
			return spec, errAt(p+"."+name, "%d µs: want at most the quota (%d µs; tg_set_cfs_bandwidth())", n, int64(spec.Quota/sched.Microsecond))
		}
		if int64((spec.Burst+spec.Quota)/sched.Microsecond) > maxCfsRuntimeUs {
			return spec, errAt(p+"."+name, "quota + burst above max_cfs_runtime (%d µs)", int64(maxCfsRuntimeUs))
		}
	}
	if n, ok := us("cpu.idle"); ok && n == 1 {
		// sched_group_set_idle(): "Idle groups have minimum weight",
		// tg->shares = WEIGHT_IDLEPRIO; a weight cannot be written to an
		// idle group (sched_group_set_shares() returns -EINVAL).
		spec.Idle, spec.Shares = true, weightIdlePrio
		if w := family["shares"]; w != "" {
			return spec, errAt(p+"."+w, "an idle group (cpu.idle 1) has the minimum weight; the kernel refuses %s there", w)
		}
	}
	if n, ok := us("cpu.rt_runtime_us"); ok {
		spec.RTRuntime = sched.Time(n) * sched.Microsecond
		if n < 0 {
			spec.RTRuntime = sched.Unlimited
		}
	}
	if n, ok := us("cpu.rt_period_us"); ok {
		spec.RTPeriod = sched.Time(n) * sched.Microsecond
	}
	if spec.RTRuntime != sched.Unlimited && spec.RTRuntime > spec.RTPeriod {
		return spec, errAt(p+".cpu.rt_runtime_us", "%d µs: more runtime than the period (%d µs; tg_rt_schedulable())", int64(spec.RTRuntime/sched.Microsecond), int64(spec.RTPeriod/sched.Microsecond))
	}
	if v, ok := fs["cpuset.cpus"]; ok && v != "" {
		cpus, err := parseCPUList(p+".cpuset.cpus", v)
		if err != nil {
			return spec, err
		}
		for _, c := range cpus {
			if c >= m.NumCPUs() {
				return spec, errAt(p+".cpuset.cpus", "CPU %d does not exist on %s (CPUs 0-%d)", c, quote.Clip(m.Name), m.NumCPUs()-1)
			}
		}
		spec.CPUs = cpus
	}
	if v, ok := fs["cpuset.cpus.partition"]; ok && v != "member" {
		if spec.CPUs == nil {
			return spec, errAt(p+".cpuset.cpus.partition", "a %s partition needs its own CPUs: set cpuset.cpus too", v)
		}
		spec.Partition = v
	}
	return spec, nil
}

// weightIdlePrio is WEIGHT_IDLEPRIO, an idle group's tg->shares.
const weightIdlePrio = 3

// bwShift is BW_SHIFT: to_ratio()'s fixed point.
const bwShift = 20

// toRatio is to_ratio(): runtime/period in BW_SHIFT fixed point; an
// unlimited runtime is the whole period (BW_UNIT).
func toRatio(period, runtime sched.Time) uint64 {
	if runtime == sched.Unlimited {
		return 1 << bwShift
	}
	if period == 0 {
		return 0
	}
	return uint64(runtime) << bwShift / uint64(period)
}

// checkRTBandwidth applies tg_rt_schedulable() to every group: no group
// above the global sched_rt_runtime_us/sched_rt_period_us, and the sum of
// a group's children at most the group's own.
func (tr *cgroupTree) checkRTBandwidth(sys sched.Sysctls) error {
	globalRT := sched.Time(sys.RTRuntimeUs) * sched.Microsecond
	if sys.RTRuntimeUs < 0 {
		globalRT = sched.Unlimited
	}
	global := toRatio(sched.Time(sys.RTPeriodUs)*sched.Microsecond, globalRT)
	sum := make([]uint64, len(tr.specs)+1)
	for _, s := range tr.specs {
		r := toRatio(s.RTPeriod, s.RTRuntime)
		if r > global {
			return errAt("cgroups."+s.Path+".cpu.rt_runtime_us", "more RT bandwidth than the global sched_rt_runtime_us/sched_rt_period_us allows (tg_rt_schedulable())")
		}
		sum[s.Parent] += r
	}
	for k, s := range tr.specs {
		if own := toRatio(s.RTPeriod, s.RTRuntime); sum[k+1] > own {
			return errAt("cgroups."+s.Path+".cpu.rt_runtime_us", "its children's RT runtime adds up to more than its own (tg_rt_schedulable())")
		}
	}
	if sum[0] > global {
		return errAt("cgroups", "the top-level groups' RT runtime adds up to more than sched_rt_runtime_us/sched_rt_period_us (tg_rt_schedulable())")
	}
	return nil
}

// checkCpusets computes each group's effective CPUs as cgroup v2 cpuset
// does: a partition ("root", "isolated") takes its CPUs, exclusively,
// out of its parent partition's pool, which must hold them; a member's
// effective CPUs are its cpuset.cpus within its partition's remaining
// pool, or the whole pool when that is empty. A group with tasks left
// with no CPUs is an error (the kernel refuses the partition change).
func (tr *cgroupTree) checkCpusets(m *topology.Machine, hasTasks map[string]bool) error {
	all := make([]int, m.NumCPUs())
	for i := range all {
		all[i] = i
	}
	n := len(tr.specs)
	pool := make([][]int, n+1) // the remaining pool of each partition (0 = root)
	part := make([]int, n+1)   // the partition each group belongs to
	pool[0] = all
	for k, s := range tr.specs {
		g := k + 1
		part[g] = part[s.Parent]
		if s.Partition == "" {
			continue
		}
		if tr.specs[k].Parent != 0 && tr.specs[s.Parent-1].Partition == "" {
			return errAt("cgroups."+s.Path+".cpuset.cpus.partition", "the parent %s is not a partition root: a partition's parent must be the root or a partition", tr.specs[s.Parent-1].Path)
		}
		from := pool[part[s.Parent]]
		for _, c := range s.CPUs {
			if !hasCPU(from, c) {
				return errAt("cgroups."+s.Path+".cpuset.cpus", "CPU %d is not in the parent partition's CPUs (%s): a partition's CPUs must be its parent's and exclusive", c, formatCPUList(from))
			}
		}
		pool[part[s.Parent]] = minus(from, s.CPUs)
		pool[g], part[g] = append([]int(nil), s.CPUs...), g
	}
	if hasTasks[""] && len(pool[0]) == 0 {
		return errAt("cgroups", "the root cgroup has tasks but its partitions took every CPU")
	}
	for k, s := range tr.specs {
		if !hasTasks[s.Path] {
			continue
		}
		eff := pool[part[k+1]]
		if s.Partition == "" && s.CPUs != nil {
			if in := intersect(s.CPUs, eff); len(in) > 0 {
				eff = in
			}
		}
		if len(eff) == 0 {
			return errAt("cgroups."+s.Path, "the group has tasks but its partition has no CPUs left (its child partitions took them all)")
		}
	}
	return nil
}

func hasCPU(xs []int, c int) bool {
	for _, x := range xs {
		if x == c {
			return true
		}
	}
	return false
}

func minus(xs, ys []int) []int {
	out := []int{}
	for _, x := range xs {
		if !hasCPU(ys, x) {
			out = append(out, x)
		}
	}
	return out
}

func intersect(xs, ys []int) []int {
	out := []int{}
	for _, x := range xs {
		if hasCPU(ys, x) {
			out = append(out, x)
		}
	}
	return out
}
