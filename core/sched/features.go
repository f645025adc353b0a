package sched

// Scheduler features (kernel/sched/features.h sched_feat()) and the patches of
// the mailing-list experiments, as one bit set so that the hot path tests a
// feature with one AND.

import (
	"fmt"
	"strings"
)

// Feature names one sched_feat or modelled patch.
type Feature uint8

// The features. Names match the kernel's sched_feat names where one exists.
const (
	GentleFairSleepers Feature = iota
	StartDebit
	NextBuddy
	LastBuddy
	CacheHotBuddy
	WakeupPreemption
	PlaceLag
	PlaceDeadlineInitial
	PlaceRelDeadline
	RunToParity
	PreemptShort
	PickBuddy
	DelayDequeue
	DelayZero
	TTWUQueue
	SISUtil
	SchedIdleNoSleeperCredit
	SMIdle
	NewidleFromFinishSwitch
	NewidleIRQOnUnlock
	NewidleRTAbort
	SchedCluster
	HrtimerNoReprogramOnRemove
	NohzRatelimit
	HybridClusterSeries
	CfsSliceExpiry
	UtilEst
	UtilEstFastup
	NIRandom
	numFeatures
)

// featureInfo documents a feature for `schedplay keys` and the UI.
type featureInfo struct {
	name     string
	modelled bool   // false: accepted and recorded, but no mechanism reads it yet
	help     string // one line
}

var featureTable = [numFeatures]featureInfo{
	GentleFairSleepers:         {"GENTLE_FAIR_SLEEPERS", true, "CFS: sleeper credit is sched_latency/2 instead of sched_latency (place_entity)"},
	StartDebit:                 {"START_DEBIT", true, "CFS: a new task starts one vslice behind min_vruntime (place_entity)"},
	NextBuddy:                  {"NEXT_BUDDY", true, "prefer the last woken task at the next pick (set_next_buddy)"},
	LastBuddy:                  {"LAST_BUDDY", true, "CFS: prefer to return the CPU to a task preempted by a wakeup (set_last_buddy)"},
	CacheHotBuddy:              {"CACHE_HOT_BUDDY", true, "the next (and CFS last) buddy counts as cache hot in task_hot() when the destination has tasks"},
	WakeupPreemption:           {"WAKEUP_PREEMPTION", true, "a waking task may preempt the running one (check_preempt_wakeup)"},
	PlaceLag:                   {"PLACE_LAG", true, "EEVDF: a waking task keeps the lag it had when it slept (place_entity)"},
	PlaceDeadlineInitial:       {"PLACE_DEADLINE_INITIAL", true, "EEVDF: a new task gets half a slice for its first deadline (place_entity)"},
	PlaceRelDeadline:           {"PLACE_REL_DEADLINE", true, "EEVDF: keep the deadline relative across a non-sleep dequeue (migration)"},
	RunToParity:                {"RUN_TO_PARITY", true, "EEVDF: the picked task keeps the CPU until it is ineligible or its slice is used (pick_eevdf)"},
	PreemptShort:               {"PREEMPT_SHORT", true, "EEVDF: a waking task with a shorter slice may cut the current task's protection"},
	PickBuddy:                  {"PICK_BUDDY", true, "EEVDF: pick the next buddy if it is eligible (__pick_eevdf)"},
	DelayDequeue:               {"DELAY_DEQUEUE", true, "EEVDF: an ineligible task that sleeps stays queued until its lag is paid"},
	DelayZero:                  {"DELAY_ZERO", true, "EEVDF: clip the lag of a delayed task to zero when it leaves or wakes"},
	TTWUQueue:                  {"TTWU_QUEUE", true, "remote wakeups to an idle or other-LLC CPU go through the wake list and a function-call IPI, or no IPI if it polls (ipi.go)"},
	SISUtil:                    {"SIS_UTIL", true, "select_idle_cpu() scans at most nr_idle_scan CPUs, set from LLC utilisation by periodic balancing (v5.19+)"},
	SchedIdleNoSleeperCredit:   {"SCHED_IDLE_NO_SLEEPER_CREDIT", true, "patch (Aug 2020): no sleeper credit for SCHED_IDLE tasks in CFS place_entity"},
	SMIdle:                     {"SM_IDLE", true, "v6.12: schedule_idle() skips pick_next_task when nothing is queued (idle.go); a backported patch on the older profiles"},
	NewidleFromFinishSwitch:    {"NEWIDLE_FROM_FINISH_SWITCH", true, "RFC 1/3 (2020): newidle balance from finish_task_switch(), in non-atomic context; no latency change by itself, it lets 2/3 enable interrupts (irqoff.go)"},
	NewidleIRQOnUnlock:         {"NEWIDLE_IRQ_ON_UNLOCK", true, "RFC 2/3 (2020): interrupts on while newidle balance drops the rq lock (with 1/3 only); a woken RT task stops the walk after the current domain (irqoff.go)"},
	NewidleRTAbort:             {"NEWIDLE_RT_ABORT", true, "RFC 3/3 (2020): load_balance() stops as soon as an RT task is runnable on this CPU (should_we_balance, after the statistics) (irqoff.go)"},
	SchedCluster:               {"SCHED_CLUSTER", true, "cluster (CLS) sched domain level for CPUs sharing an L2 (hybrid x86 E-core clusters); select_idle_cpu() scans the target's cluster first"},
	HrtimerNoReprogramOnRemove: {"HRTIMER_NO_REPROGRAM_ON_REMOVE", true, "patch (2013): remove_hrtimer does not reprogram the clock event; a tick stop and restart within one jiffy then write it no more (two hw.clockevent_program_ns each without) (tick_nohz.go)"},
	NohzRatelimit:              {"NOHZ_RATELIMIT", true, "patch (SUSE, 2012): keep the tick in idle while rq->avg_idle < sched_migration_cost (sched_needs_cpu(), tick_nohz.go)"},
	CfsSliceExpiry:             {"CFS_SLICE_EXPIRY", true, "CFS bandwidth: runtime a CPU took from its group's quota expires at the end of the period (v3.16-v5.3, removed by de53fd7aedb1 in v5.4; v3.11 expired it too)"},
	UtilEst:                    {"UTIL_EST", true, "PELT util_est: a task's utilisation at its last sleeps (enqueued/EWMA) and the CPU's sum of its runnable tasks' estimates count where the kernel reads util (misfit, task fit, load-balance and wakeup utilisation, SIS_UTIL budget; util_est.go)"},
	UtilEstFastup:              {"UTIL_EST_FASTUP", true, "util_est: the EWMA jumps up to a larger dequeue sample at once instead of moving a quarter of the way (v5.5-v6.7; permanent from v6.8)"},
	NIRandom:                   {"NI_RANDOM", true, "newidle balance runs in proportion to its success rate: a 1024-sided die against the domain's newidle_ratio (33cf66d88306, v6.19-rc1 and 6.18.5; newidle_ratio.go)"},
	HybridClusterSeries:        {"HYBRID_CLUSTER_SERIES", true, "series \"Enable Cluster Scheduling for x86 Hybrid CPUs\" (v6.6): group_smt_balance, sibling_imbalance() by cores, should_we_balance() prefers an idle core; off = v6.5 rules (series.go)"},
}

// FeatureSet is a set of enabled features.
type FeatureSet uint64

// Has reports whether f is enabled.
func (s FeatureSet) Has(f Feature) bool { return s&(1<<f) != 0 }

// With returns s with f set to on.
func (s FeatureSet) With(f Feature, on bool) FeatureSet {
	if on {
		return s | 1<<f
	}
	return s &^ (1 << f)
}

func featureSetOf(fs ...Feature) FeatureSet {
	var s FeatureSet
	for _, f := range fs {
		s |= 1 << f
	}
	return s
}

// String is the kernel's sched_features name.
func (f Feature) String() string {
	if f < numFeatures {
		return featureTable[f].name
	}
	return fmt.Sprintf("Feature(%d)", int(f))
}

// Modelled reports whether any mechanism reads this feature yet.
func (f Feature) Modelled() bool { return f < numFeatures && featureTable[f].modelled }

// Help is a one-line explanation of the feature.
func (f Feature) Help() string {
	if f < numFeatures {
		return featureTable[f].help
	}
	return ""
}

// Features lists every feature in a stable order.
func Features() []Feature {
	out := make([]Feature, numFeatures)
	for i := range out {
		out[i] = Feature(i)
	}
	return out
}

// FeatureByName looks a feature up by its kernel name (case-sensitive, as in
// /sys/kernel/debug/sched/features).
func FeatureByName(name string) (Feature, bool) {
	for i := range featureTable {
		if featureTable[i].name == name {
			return Feature(i), true
		}
	}
	return 0, false
}

// Describe renders the set like /sys/kernel/debug/sched/features: every
// feature, NO_ prefixed when off.
func (s FeatureSet) Describe() string {
	var parts []string
	for _, f := range Features() {
		if s.Has(f) {
			parts = append(parts, f.String())
		} else {
			parts = append(parts, "NO_"+f.String())
		}
	}
	return strings.Join(parts, " ")
}
