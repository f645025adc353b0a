package sched

// Kernel profiles: which fair class a kernel version runs, its sched_feat
// defaults and its sysctl defaults.
//
// Mirrors kernel/sched/features.h at each version, the tunables in
// kernel/sched/fair.c (sysctl_sched_latency & co., sysctl_sched_base_slice)
// and their CPU-count scaling in update_sysctl() / get_update_sysctl_factor():
// with the default SCHED_TUNABLESCALING_LOG the normalized values are
// multiplied by 1 + ilog2(min(ncpus, 8)).

import (
	"math/bits"
	"strings"

	"schedplay/core/quote"
)

// FairClass selects the fair scheduling class implementation.
type FairClass uint8

// The two fair classes.
const (
	ClassCFS   FairClass = iota // legacy CFS (pre-6.6)
	ClassEEVDF                  // EEVDF (v6.6+)
)

func (c FairClass) String() string {
	if c == ClassEEVDF {
		return "EEVDF"
	}
	return "CFS"
}

// PreemptModel is the kernel's preemption model (CONFIG_PREEMPT_* or
// preempt= with PREEMPT_DYNAMIC).
type PreemptModel uint8

// Preemption models.
const (
	PreemptNone PreemptModel = iota
	PreemptVoluntary
	PreemptFull
	PreemptLazy
)

var preemptNames = [...]string{"none", "voluntary", "full", "lazy"}

func (p PreemptModel) String() string { return preemptNames[p] }

// PreemptNames lists the preemption models by name, in order.
func PreemptNames() []string { return append([]string(nil), preemptNames[:]...) }

// ParsePreempt parses a preemption model name.
func ParsePreempt(s string) (PreemptModel, error) {
	for i, n := range preemptNames {
		if n == s {
			return PreemptModel(i), nil
		}
	}
	return 0, quote.Errorf("unknown preemption model %q (want one of %s)", s, strings.Join(preemptNames[:], ", "))
}

// Profile describes one kernel version as far as the scheduler is concerned.
type Profile struct {
	Name     string
	Summary  string
	Class    FairClass
	version  int // e.g. 618 for v6.18; rulesFor(version) gives its behavioural variants (rules.go)
	HZ       int
	Preempt  PreemptModel
	Features FeatureSet

	// Normalized tunables (before CPU-count scaling), ns.
	latency, minGranularity, wakeupGranularity, baseSlice int64
	migrationCost                                         int64
	arith                                                 arith
}

var cfsFeatures = featureSetOf(GentleFairSleepers, StartDebit, LastBuddy, CacheHotBuddy, WakeupPreemption, TTWUQueue)

// utilEstFeatures are UTIL_EST (v4.17+) and UTIL_EST_FASTUP (v5.5-v6.7),
// both default on where the kernel has them.
var utilEstFeatures = featureSetOf(UtilEst, UtilEstFastup)

func profiles() []Profile {
	eevdf66 := featureSetOf(PlaceLag, PlaceDeadlineInitial, RunToParity, CacheHotBuddy, WakeupPreemption, TTWUQueue, SISUtil, HybridClusterSeries) | utilEstFeatures
	eevdf612 := eevdf66&^featureSetOf(UtilEstFastup) | featureSetOf(PlaceRelDeadline, PreemptShort, DelayDequeue, DelayZero, SMIdle)
	eevdf618 := eevdf612 | featureSetOf(PickBuddy, NIRandom)
	v4arith := arith{shift: 10, nice0: 1 << 20, clampLo: false}
	return []Profile{
		{Name: "v3.11", Summary: "legacy CFS as in Linux 3.11 (2013)", Class: ClassCFS, version: 311,
			HZ: 250, Preempt: PreemptVoluntary, Features: cfsFeatures | featureSetOf(CfsSliceExpiry),
			latency: 6e6, minGranularity: 750e3, wakeupGranularity: 1e6, migrationCost: 500e3,
			arith: arith{shift: 0, legacy: true, nice0: 1024}},
		{Name: "v5.8", Summary: "legacy CFS as in Linux 5.8 (2020)", Class: ClassCFS, version: 508,
			HZ: 250, Preempt: PreemptVoluntary, Features: cfsFeatures | utilEstFeatures,
			latency: 6e6, minGranularity: 750e3, wakeupGranularity: 1e6, migrationCost: 500e3,
			arith: v4arith},
		{Name: "v6.6", Summary: "EEVDF as first merged in Linux 6.6 (2023)", Class: ClassEEVDF, version: 606,
			HZ: 250, Preempt: PreemptVoluntary, Features: eevdf66,
			latency: 6e6, minGranularity: 750e3, wakeupGranularity: 1e6, baseSlice: 750e3, migrationCost: 500e3,
			arith: v4arith},
		{Name: "v6.12", Summary: "EEVDF with delayed dequeue and short-slice preemption, Linux 6.12 (2024)", Class: ClassEEVDF, version: 612,
			HZ: 250, Preempt: PreemptVoluntary, Features: eevdf612,
			latency: 6e6, minGranularity: 750e3, wakeupGranularity: 1e6, baseSlice: 750e3, migrationCost: 500e3,
			arith: arith{shift: 10, nice0: 1 << 20, clampLo: true}},
		{Name: "v6.18", Summary: "EEVDF with the 0.70 ms base slice, Linux 6.18 (2025)", Class: ClassEEVDF, version: 618,
			HZ: 250, Preempt: PreemptNone, Features: eevdf618,
			latency: 6e6, minGranularity: 750e3, wakeupGranularity: 1e6, baseSlice: 700e3, migrationCost: 500e3,
			arith: arith{shift: 10, nice0: 1 << 20, clampLo: true}},
	}
}

// ProfileByName returns the named kernel profile.
func ProfileByName(name string) (Profile, error) {
	for _, p := range profiles() {
		if p.Name == name {
			return p, nil
		}
	}
	return Profile{}, quote.Errorf("unknown kernel profile %q (known: %s)", name, strings.Join(ProfileNames(), ", "))
}

// ProfileNames lists the profiles, oldest first.
func ProfileNames() []string {
	var out []string
	for _, p := range profiles() {
		out = append(out, p.Name)
	}
	return out
}

// Profiles returns every profile, oldest first.
func Profiles() []Profile { return profiles() }

// NormBaseSlice is the unscaled sysctl_sched_base_slice
// (normalized_sysctl_sched_base_slice).
func (p *Profile) NormBaseSlice() int64 { return p.baseSlice }

// Version is the profile's kernel version as major*100+minor (e.g. 612).
func (p *Profile) Version() int { return p.version }

// hzChoices are the CONFIG_HZ choices of kernel/Kconfig.hz.
var hzChoices = [...]int{100, 250, 300, 1000}

// HZChoices lists the CONFIG_HZ choices, in increasing order.
func HZChoices() []int { return append([]int(nil), hzChoices[:]...) }

// ValidHZ reports whether hz is a CONFIG_HZ choice.
func ValidHZ(hz int) bool {
	for _, c := range hzChoices {
		if hz == c {
			return true
		}
	}
	return false
}

// sysctlFactor mirrors get_update_sysctl_factor() for SCHED_TUNABLESCALING_LOG.
func sysctlFactor(ncpus int) int64 {
	n := min(ncpus, 8)
	return int64(1 + bits.Len(uint(n)) - 1)
}

// DefaultSysctls returns the sysctl values the profile's kernel boots with
// on a machine of ncpus CPUs.
func (p *Profile) DefaultSysctls(ncpus int) Sysctls {
	f := sysctlFactor(ncpus)
	return Sysctls{
		LatencyNs:           p.latency * f,
		MinGranularityNs:    p.minGranularity * f,
		WakeupGranularityNs: p.wakeupGranularity * f,
		BaseSliceNs:         p.baseSlice * f,
		MigrationCostNs:     p.migrationCost,
		NrMigrate:           32,
		RTRuntimeUs:         950000,
		RTPeriodUs:          1000000,
		RRTimesliceMs:       100,
		ChildRunsFirst:      0,
		CfsBandwidthSliceUs: 5000,
	}
}
