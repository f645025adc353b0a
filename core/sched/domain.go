package sched

// Sched domains and groups: struct sched_domain, struct sched_group,
// struct sched_group_capacity and struct sched_domain_shared
// (kernel/sched/sched.h, include/linux/sched/topology.h), the SD_* flags of
// include/linux/sched/sd_flags.h, and the CONFIG_SCHED_DEBUG renderings of
// kernel/sched/topology.c sched_domain_debug_one() and of
// /sys/kernel/debug/sched/domains/cpuN/domainM/{name,flags}.
//
// The tree is built once per run by buildSchedDomains (domain_build.go) and
// never rebuilt: hotplug, cpusets, isolcpus and relax_domain_level are not
// modelled. Per-CPU domains are separate objects as in the kernel; groups of
// one level are shared by the CPUs whose domains contain them, through the
// sched_group_capacity keyed by the group's first CPU (get_group()).

import (
	"fmt"
	"strings"
)

// SDFlag is one sched domain flag (SD_*).
type SDFlag uint32

// The flags, in the order of include/linux/sched/sd_flags.h (v6.9+), with
// SD_LOAD_BALANCE (removed in v5.8) last.
const (
	SDBalanceNewidle SDFlag = 1 << iota
	SDBalanceExec
	SDBalanceFork
	SDBalanceWake
	SDWakeAffine
	SDAsymCPUCapacity
	SDAsymCPUCapacityFull
	SDShareCPUCapacity
	SDCluster
	SDShareLLC
	SDSerialize
	SDAsymPacking
	SDPreferSibling
	SDOverlap
	SDNuma
	SDLoadBalance
	numSDFlags = iota
)

var sdFlagNames = [numSDFlags]string{
	"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_BALANCE_WAKE",
	"SD_WAKE_AFFINE", "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL",
	"SD_SHARE_CPUCAPACITY", "SD_CLUSTER", "SD_SHARE_LLC", "SD_SERIALIZE",
	"SD_ASYM_PACKING", "SD_PREFER_SIBLING", "SD_OVERLAP", "SD_NUMA", "SD_LOAD_BALANCE",
}

// sdDegenerateGroupsMask is SD_DEGENERATE_GROUPS_MASK: the flags with the
// SDF_NEEDS_GROUPS metaflag, meaningless in a domain with one group. Every
// flag but SD_WAKE_AFFINE has it (SD_LOAD_BALANCE was listed explicitly in
// the pre-v5.8 sd_degenerate()).
const sdDegenerateGroupsMask = SDFlag(1<<numSDFlags-1) &^ SDWakeAffine

// sdSharedChildMask is SD_SHARED_CHILD_MASK (SDF_SHARED_CHILD flags, v6.5+,
// after commit ca528cc50189 removed it from SD_ASYM_PACKING).
const sdSharedChildMask = SDBalanceNewidle | SDBalanceExec | SDBalanceFork | SDBalanceWake |
	SDWakeAffine | SDShareCPUCapacity | SDShareLLC

// Name is the flag's kernel name as a profile of version v spells it:
// SD_SHARE_LLC was SD_SHARE_PKG_RESOURCES before v6.9.
func (f SDFlag) Name(version int) string {
	if f == SDShareLLC && !rulesFor(version).sdShareLLCName {
		return "SD_SHARE_PKG_RESOURCES"
	}
	for i := 0; i < numSDFlags; i++ {
		if f == 1<<i {
			return sdFlagNames[i]
		}
	}
	return fmt.Sprintf("SDFlag(%#x)", uint32(f))
}

// Names lists the set flags in sd_flags.h order.
func (f SDFlag) Names(version int) []string {
	var out []string
	for i := 0; i < numSDFlags; i++ {
		if b := SDFlag(1 << i); f&b != 0 {
			out = append(out, b.Name(version))
		}
	}
	return out
}

// sdShared is struct sched_domain_shared: state shared by the CPUs of one
// LLC (one instance per LLC-sharing domain, keyed by its first CPU).
type sdShared struct {
	nrBusyCPUs   int  // nr_busy_cpus
	hasIdleCores bool // has_idle_cores
	nrIdleScan   int  // nr_idle_scan (SIS_UTIL)
}

// sgCapacity is struct sched_group_capacity, shared by every sched_group
// that covers the same CPUs at the same level.
type sgCapacity struct {
	id          CPUID // the group's balance CPU; sgc->id in the debug output
	capacity    int64
	minCapacity int64
	maxCapacity int64
	imbalance   int // group_imbalance (affinity failures seen by the child)
}

// schedGroup is struct sched_group.
type schedGroup struct {
	span          cpuMask
	balanceMask   cpuMask // group_balance_mask(); == span unless overlapping
	weight        int     // group_weight
	cores         int     // sg->cores
	asymPreferCPU CPUID   // asym_prefer_cpu (SD_ASYM_PACKING domains)
	flags         SDFlag  // the child domain's flags
	sgc           *sgCapacity
	cpus          []CPUID // span as a list (filled once after the build)
}

// schedDomain is struct sched_domain.
type schedDomain struct {
	parent, child *schedDomain
	groups        []*schedGroup // groups[0] contains the owning CPU
	name          string
	level         int
	span          cpuMask
	spanWeight    int
	flags         SDFlag
	numaLevel     int // for NODE/NUMA levels, the index in the distance table

	minInterval, maxInterval int // ms
	balanceInterval          int // ms
	busyFactor               int
	imbalancePct             int
	cacheNiceTries           int
	imbNumaNr                int
	smtGain                  int // pre-v5.0 only

	shared *sdShared

	// Load-balancing state (sd_init values; used by later stages).
	lastBalance      Time
	nrBalanceFailed  int
	maxNewidleLBCost int64
	lastDecayJ       int64   // next_decay_max_lb_cost - HZ (<= v5.15), last_decay_max_lb_cost (v5.16+), jiffies
	lastBalanceJ     int64   // last_balance, jiffies
	ni               niState // NI_RANDOM's newidle_call/success/ratio (newidle_ratio.go)
	cpus             []CPUID // span as a list (filled once after the build)
}

// rqTopology is the per-CPU view the kernel keeps beside rq->sd
// (update_top_cache_domain()).
type rqTopology struct {
	sd            *schedDomain // rq->sd: the base domain, nil when none
	sdLLC         *schedDomain
	sdLLCSize     int
	sdLLCID       CPUID
	sdShareID     CPUID
	sdLLCShared   *sdShared
	sdNUMA        *schedDomain
	sdAsymPacking *schedDomain
	sdAsymCPUCap  *schedDomain
	asymPrio      int          // arch_asym_cpu_priority()
	archCapacity  int64        // arch_scale_cpu_capacity()
	cpuCapacity   int64        // rq->cpu_capacity (capacity_of()), set by update_cpu_capacity()
	smt           []CPUID      // cpu_smt_mask(): the SMT siblings incl. this CPU
	cluster       *schedDomain // lowest SD_CLUSTER domain, nil when none
}

// DomainInfo is the public, read-only view of one CPU's domain at one level.
type DomainInfo struct {
	Level          int
	Name           string
	Span           []int
	Flags          []string
	Groups         [][]int
	GroupCapacity  []int64
	MinInterval    int
	MaxInterval    int
	BusyFactor     int
	ImbalancePct   int
	CacheNiceTries int
	ImbNumaNr      int
}

// Domains returns cpu's sched domains, bottom-up, after degenerate levels
// were removed (rq->sd and its parents).
func (s *Sim) Domains(cpu CPUID) []DomainInfo {
	var out []DomainInfo
	for sd := s.topo[cpu].sd; sd != nil; sd = sd.parent {
		d := DomainInfo{Level: sd.level, Name: sd.name, Span: sd.span.list(len(s.rqs)),
			Flags: sd.flags.Names(s.version), MinInterval: sd.minInterval, MaxInterval: sd.maxInterval,
			BusyFactor: sd.busyFactor, ImbalancePct: sd.imbalancePct, CacheNiceTries: sd.cacheNiceTries,
			ImbNumaNr: sd.imbNumaNr}
		for _, g := range sd.groups {
			d.Groups = append(d.Groups, g.span.list(len(s.rqs)))
			d.GroupCapacity = append(d.GroupCapacity, g.sgc.capacity)
		}
		out = append(out, d)
	}
	return out
}

// LLC reports cpu's last-level-cache domain as sd_llc_id, sd_llc_size and
// sd_share_id.
func (s *Sim) LLC(cpu CPUID) (id CPUID, size int, shareID CPUID) {
	t := &s.topo[cpu]
	return t.sdLLCID, t.sdLLCSize, t.sdShareID
}

// DescribeDomains renders every CPU's domains like sched_domain_debug()
// (booting with sched_verbose), followed by the debugfs view.
func (s *Sim) DescribeDomains() string {
	var b strings.Builder
	n := len(s.rqs)
	for cpu := 0; cpu < n; cpu++ {
		sd := s.topo[cpu].sd
		if sd == nil {
			fmt.Fprintf(&b, "CPU%d attaching NULL sched-domain.\n", cpu)
			continue
		}
		fmt.Fprintf(&b, "CPU%d attaching sched-domain(s):\n", cpu)
		for level := 0; sd != nil; level, sd = level+1, sd.parent {
			fmt.Fprintf(&b, "%*s domain-%d: span=%s level=%s\n", level, "", level, sd.span.format(n), sd.name)
			fmt.Fprintf(&b, "%*s groups:", level+1, "")
			for i, g := range sd.groups {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, " %d:{ span=%s", g.sgc.id, g.span.format(n))
				if sd.flags&SDOverlap != 0 && !g.balanceMask.equal(g.span) {
					fmt.Fprintf(&b, " mask=%s", g.balanceMask.format(n))
				}
				if g.sgc.capacity != 1024 {
					fmt.Fprintf(&b, " cap=%d", g.sgc.capacity)
				}
				b.WriteString(" }")
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// DescribeDebugfs renders /sys/kernel/debug/sched/domains/cpuN/domainM/
// {name,flags} plus the tunables the same directory holds, one file per line.
func (s *Sim) DescribeDebugfs() string {
	var b strings.Builder
	for cpu := range s.rqs {
		level := 0
		for sd := s.topo[cpu].sd; sd != nil; sd, level = sd.parent, level+1 {
			dir := fmt.Sprintf("/sys/kernel/debug/sched/domains/cpu%d/domain%d/", cpu, level)
			fmt.Fprintf(&b, "%sname:%s\n", dir, sd.name)
			fmt.Fprintf(&b, "%sflags:%s \n", dir, strings.Join(sd.flags.Names(s.version), " "))
			fmt.Fprintf(&b, "%smin_interval:%d\n", dir, sd.minInterval)
			fmt.Fprintf(&b, "%smax_interval:%d\n", dir, sd.maxInterval)
			fmt.Fprintf(&b, "%sbusy_factor:%d\n", dir, sd.busyFactor)
			fmt.Fprintf(&b, "%simbalance_pct:%d\n", dir, sd.imbalancePct)
			fmt.Fprintf(&b, "%scache_nice_tries:%d\n", dir, sd.cacheNiceTries)
		}
	}
	return b.String()
}

// list returns the set CPUs below n.
func (m cpuMask) list(n int) []int {
	var out []int
	for c := 0; c < n; c++ {
		if m.has(CPUID(c)) {
			out = append(out, c)
		}
	}
	return out
}

// format renders the mask like %*pbl ("0-31,64-95").
func (m cpuMask) format(n int) string {
	var b strings.Builder
	for c := 0; c < n; {
		if !m.has(CPUID(c)) {
			c++
			continue
		}
		e := c
		for e+1 < n && m.has(CPUID(e+1)) {
			e++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if e == c {
			fmt.Fprintf(&b, "%d", c)
		} else {
			fmt.Fprintf(&b, "%d-%d", c, e)
		}
		c = e + 1
	}
	return b.String()
}

func (m cpuMask) weight() int {
	w := 0
	for _, x := range m {
		for ; x != 0; x &= x - 1 {
			w++
		}
	}
	return w
}

func (m cpuMask) equal(o cpuMask) bool {
	for i := range m {
		if m[i] != o[i] {
			return false
		}
	}
	return true
}

func (m cpuMask) subset(o cpuMask) bool {
	for i := range m {
		if m[i]&^o[i] != 0 {
			return false
		}
	}
	return true
}

func (m cpuMask) intersects(o cpuMask) bool {
	for i := range m {
		if m[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

func (m cpuMask) or(o cpuMask) {
	for i := range m {
		m[i] |= o[i]
	}
}

func (m cpuMask) clone() cpuMask { return append(cpuMask(nil), m...) }
