package sched

// The load-balance half of Tim Chen's series "[Patch v2 0/6] Enable Cluster
// Scheduling for x86 Hybrid CPUs" (Jun 2023, merged for v6.6), as one
// toggle, features.HYBRID_CLUSTER_SERIES, so that S3 (docs/VALIDATION.md) can
// compare kernels without and with the whole series as the thread did.
// The patches (kernel/sched/fair.c, read in the mailed v2 and in the
// post-v6.18 tree of docs/kernel-rules.md §9):
//
//  1. "sched/fair: Determine active load balance for SMT sched groups":
//     smt_balance() / group_smt_balance (a non-local SMT group with more
//     than one runnable task, for an idle destination), the
//     smt_vs_nonsmt_groups() rule of update_sd_pick_busiest()
//     (group_has_spare: never pick an SMT group with at most one task over
//     a non-SMT one) and find_busiest_group()'s bypass of the idle-CPU
//     test. Off (v6.5): no group_smt_balance, has_spare is decided by idle
//     CPUs and nr_running only (lbstats.go). Not part of the series: the
//     group_fully_busy rule "on equal avg_load keep an SMT busiest group"
//     is Ricardo Neri's 5fd6d7f43958 (v6.5) and holds either way (the
//     toggle had dropped it with the series' rules until a test showed it).
//  2. "sched/topology: Record number of cores in sched group": only the
//     sg->cores count that 3 reads; no behaviour.
//  3. "sched/fair: Implement prefer sibling imbalance calculation between
//     asymmetric groups": sibling_imbalance() balances nr_running per core.
//     Off (v6.5): busiest->sum_nr_running - local->sum_nr_running, floored
//     at 0, in both find_busiest_group()'s prefer-sibling force test
//     ("> local + 1") and calculate_imbalance() (then >> 1), with no
//     CPU_NOT_IDLE exception (siblingImbalance(), lbstats.go).
//  4. "sched/fair: Consider the idle state of the whole core for load
//     balance": should_we_balance() above the SMT level skips an idle CPU
//     whose core is busy and falls back to the first such CPU. Off (v6.5):
//     the first idle CPU of the local group balances (balance.go).
//  5. "sched/x86: Add cluster topology to hybrid CPU": the CLS level,
//     features.SCHED_CLUSTER (domain_build.go, sis.go), a separate toggle.
//  6. "sched/debug: dump domains' sched group flags": debug output only.
//
// SIMPLIFIED: profiles before v6.6 do not read the toggle and keep the
// series' rules as before (v5.8 and v3.11 balance with them) [M]; setting
// it on them is an error naming v6.6+ (feature_versions.go); the
// v6.5 asym-packing rules (sched_use_asym_prio(), asym.go) come from
// Ricardo Neri's earlier series and are not part of this toggle.

// hybridSeries reports whether the series' balance rules apply.
func (s *Sim) hybridSeries() bool {
	return !s.rules.hybridSeriesToggle || s.feat.Has(HybridClusterSeries)
}
