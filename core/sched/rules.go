package sched

// What differs between kernel versions, as named rules.
//
// Every behavioural difference between the kernel profiles that is not the
// fair class, a sched_feat (features.go) or a tunable or the weight
// arithmetic (profile.go) is one field of
// kernelRules, named after what the kernel changed, with the commit or
// release that changed it. rulesFor fills the value once per profile from
// its version; New copies it into Sim.rules, and the mechanism files read
// the field, never the version number. This is the only file that compares
// kernel versions (TestOnlyRulesCompareVersions).
//
// Adding a profile is one entry in profiles() (profile.go): its column of
// rules follows from its version. A kernel change that the model follows
// is one new field here, read where the mechanism is. The profile x rule
// matrix is checked in core/sched/testdata/kernel_rules.txt
// (TestKernelRulesMatrix; docs/kernel-rules.md cites it).
//
// Marks as in docs/kernel-rules.md: [R] read in source, [M] from memory
// (the release or commit is not verified). Where no profile lies between
// two versions the threshold is the one the mechanism file gives; only
// the profiles' columns are asserted.

// kernelRules holds the version-dependent rules of one kernel profile.
// It is a plain struct value so that the hot path reads a field.
type kernelRules struct {
	// --- EEVDF (eevdf.go, core.go, sim.go; kernel-rules.md section 1) ---

	// deadlineTree: the cfs_rq tree is sorted by virtual deadline, with the
	// nr_running == 1 shortcut and the leftmost-eligible fast path in
	// pick_eevdf() (v6.8 [M title: "sched/eevdf: Sort the rbtree by virtual
	// deadline"]); v6.6 walks a vruntime-ordered tree with a min_deadline
	// heap (1.6).
	deadlineTree bool
	// newTaskInitial: wake_up_new_task() enqueues with ENQUEUE_INITIAL, so
	// PLACE_DEADLINE_INITIAL gives a new task half a slice (Zhang Qiao's
	// patch moving new-task placement into wake_up_new_task(), 2024; read
	// in v6.12 9b5ce1a37e90); v6.6 places it again without (1.11).
	newTaskInitial bool
	// wakeupIdleSE: check_preempt_wakeup_fair() tests the se_is_idle()
	// rule after find_matching_se() and bails out on !normal_policy() after
	// it (v6.12 [R 9b5ce1a37e90]); v6.6 tests the task policies first (1.8).
	wakeupIdleSE bool
	// preemptShort: PREEMPT_SHORT (v6.12 [R 9b5ce1a37e90]; [M title:
	// "sched/eevdf: Allow shorter slices to wakeup-preempt"]):
	// do_preempt_short() cancels curr's protection
	// and update_curr() reschedules once rq->nr_running > 1 and
	// did_preempt_short() holds (1.5, 1.8).
	preemptShort bool
	// vprot: slice protection is se->vprot (set_protect_slice(),
	// update_protect_slice(), cancel_protect_slice()), update_curr() asks
	// for a reschedule once it runs out and a shorter-slice wakee is picked
	// ignoring it (v6.18 [R 79104becf42b]); before, RUN_TO_PARITY is the
	// "vlag == deadline" stash of set_next_entity() (1.5-1.8).
	vprot bool
	// pickBuddy: pick_next_entity() honours cfs_rq->next under PICK_BUDDY
	// instead of NEXT_BUDDY (added after v6.12, read in 79104becf42b; 1.6).
	// The same range as the PICK_BUDDY sched_feat (feature_versions.go).
	pickBuddy bool
	// yieldForfeit: yield_task_fair() of an eligible task forfeits the rest
	// of its slice (vruntime = deadline), 79104becf42b "sched/fair: Forfeit
	// vruntime on yield" (v6.19-rc1, backported to 6.18.2); before, yield
	// pushes the deadline one slice out (1.12).
	yieldForfeit bool
	// lazyPreempt: the PREEMPT_LAZY model exists and the fair class asks
	// with resched_curr_lazy() (7c70cb94d29c "sched: Add Lazy preemption
	// model", v6.13; section 4).
	lazyPreempt bool
	// cpuClockUpdateCurr: task_sched_runtime() (clock_gettime() of a
	// thread or process CPU clock) runs update_rq_clock() and the class's
	// update_curr() for a running task, which may reschedule it
	// (6e998916dfe3 "sched/cputime: Fix clock_nanosleep()/clock_gettime()
	// inconsistency", Stanislaw Gruszka, 2014-11 [R blame]; v3.19 [M
	// release]); before, it added the pending delta_exec and updated
	// nothing [R a 3.x do_task_delta_exec()] (clock_poll.go; section 20).
	cpuClockUpdateCurr bool

	// --- PELT, placement, wakeup delivery, idle ---

	// migratePeltLag: a wakeup migration off an idle CPU decays the task's
	// averages to the estimated present, from rq->clock_pelt_idle and
	// rq->clock_idle kept by _update_idle_rq_clock_pelt()
	// (migrate_se_pelt_lag(), e2f3e35f1f5a "sched/fair: Decay task PELT
	// values during wakeup migration" [R patch v11, 2022-06]; v6.0 [M
	// release]); before, the task arrives with the averages of the source
	// cfs_rq's last update (pelt_migrate_lag.go).
	migratePeltLag bool
	// peltRunnableSkipsDelayed: the cfs_rq's PELT runnable and a group
	// entity's runnable_weight count h_nr_running - h_nr_delayed
	// (76f2f783294d "sched/eevdf: More PELT vs DELAYED_DEQUEUE", v6.13-rc3
	// [R patch mail, 6.13-rc3 shortlog], later h_nr_runnable); v6.12.0
	// counts h_nr_running, delayed tasks included (pelt.go; 7).
	peltRunnableSkipsDelayed bool
	// utilEst: util_est exists (7f65ea42eb00 "sched/fair: Add util_est on
	// top of PELT", v4.17 [M commit]); the same range as the UTIL_EST
	// sched_feat. v3.11's task_util_est() readers see util_avg
	// (util_est.go).
	utilEst bool
	// utilEstMSBFlag: UTIL_AVG_UNCHANGED is the MSB of enqueued and masked
	// out of _task_util_est() (68d7a190682a "sched/fair: Fix util_est
	// UTIL_AVG_UNCHANGED handling", v5.13 [M]); before, the LSB, ORed into
	// every estimate and sample (util_est.go).
	utilEstMSBFlag bool
	// utilEstEnqueuedMargin: a sample within the EWMA's margin is stored
	// when it moved enqueued by more than the margin (last_enqueued_diff,
	// b89997aa88f0 "sched/pelt: Fix task util_est update filtering", v5.13
	// [M]); before, it is dropped (util_est.go).
	utilEstEnqueuedMargin bool
	// utilEstRunnableCheck: util_est_update() keeps the EWMA of a task
	// whose runnable_avg exceeds its sample by more than the margin
	// (50181c0cff31 "sched/pelt: Avoid underestimation of task
	// utilization", v6.2 [M]; read in the v6.6-form copy, §8.1).
	utilEstRunnableCheck bool
	// utilEstSingleEWMA: struct util_est is one unsigned int, the EWMA
	// with the flag in its MSB, jumping up to a larger sample
	// (11137d384996 "sched/fair: Simplify util_est" [R tip mail, Dec 2023],
	// after "Remove SCHED_FEAT(UTIL_EST_FASTUP, true)"; v6.8 [M release]).
	utilEstSingleEWMA bool
	// utilEstUpdateBeforeDequeue: dequeue_task_fair() calls
	// util_est_update() before dequeue_entities(), so the sample is the
	// util_avg of the task's last PELT update (the delayed-dequeue series,
	// v6.12 [R patch context; post-v6.18 copy]); before, after the
	// dequeue updated it.
	utilEstUpdateBeforeDequeue bool
	// utilEstSkipDelayedMove: a delayed task that migrates or is
	// saved/restored is not added to or removed from the cfs_rq's util_est
	// sum (729288bc6856 "kernel/sched: Fix util_est accounting for
	// DELAY_DEQUEUE", v6.12 [R patch mail; release M]).
	utilEstSkipDelayedMove bool
	// busiestUtilBoost: find_busiest_queue()'s migrate_util case reads
	// cpu_util_cfs_boost(), max(util, runnable) (7d0583cf9ec7
	// "sched/fair, cpufreq: Introduce 'runnable boosting'", v6.5 [M]);
	// v5.8 reads cpu_util().
	busiestUtilBoost bool
	// postInitSEWeight: post_init_entity_util_avg() scales by se_weight();
	// before it reads se->load.weight (v6.6 profiles on [M: the release]).
	postInitSEWeight bool
	// affinityDistribute: cpumask_any_and_distribute() picks the
	// destination of an affinity change round-robin (46a87b3851f0
	// "sched/core: Distribute tasks within affinity masks", v5.7 [M
	// release]); before, cpumask_any_and(), the first CPU (section 15).
	affinityDistribute bool
	// sisUnifiedScan: select_idle_sibling() in the v6.x form: the
	// asymmetric-capacity scan after target, prev and recent_used_cpu,
	// recent_used_cpu replaced by prev before it is tested, one
	// select_idle_cpu() scan for cores and CPUs (v5.10-v5.12 reworks;
	// modelled from v6.0 [M]); v5.8 and v3.11 keep the select_idle_core()
	// -> select_idle_cpu() -> select_idle_smt() order (9.4).
	sisUnifiedScan bool
	// sisUtil: select_idle_cpu() bounds its scan by the SIS_UTIL budget
	// (v5.19); the same range as the SIS_UTIL sched_feat.
	sisUtil bool
	// sisClusterFirst: select_idle_cpu() scans the target's cluster first
	// under SCHED_CLUSTER (modelled on the v6.x profiles [M: the release]).
	sisClusterFirst bool
	// wakeListIdleLLC: ttwu_queue_cond() also queues an idle same-LLC
	// target on its wake list ("sched: Queue task on wakelist in the same
	// llc if the wakee cpu is idle", Tianchen Ding, v6.0 [M]; 11.4).
	wakeListIdleLLC bool
	// wakeListPollNoIPI: the first wake-list entry sets TIF_NEED_RESCHED
	// on a polling idle CPU instead of an IPI (set_nr_if_polling(),
	// e3baac47f0e8 "sched/idle: Optimize try-to-wake-up IPI", v3.16 [M
	// release]); v3.11's ttwu_queue_remote() always sends
	// smp_send_reschedule() [R] (wakelist.go).
	wakeListPollNoIPI bool
	// wakeListCSD: the wake list is the target's call_single_queue and
	// the IPI a function call (a148866489fb "sched: Replace rq::wake_list",
	// v5.8 [M release]), flushed in queued order; before, scheduler_ipi()
	// runs it newest first (wakelist.go).
	wakeListCSD bool
	// execStartResetOnMigrate: migrate_task_rq_fair(), which
	// set_task_cpu() runs for wakeup migrations and queued moves alike,
	// sets se->exec_start = 0, so task_hot() sees a moved task cold (v5.8
	// [R 3ea2f097b17e]; not in v3.11's migrate_task_rq_fair() [R]; the
	// commit that added it between the two is not resolved [M]) until
	// a53ce18cacb4 (v6.3) moved it into enqueue_entity() (9.7).
	execStartResetOnMigrate bool
	// execStartResetOnEnqueue: enqueue_entity() clears se->exec_start on
	// ENQUEUE_MIGRATED, which ttwu sets for WF_MIGRATED and activate_task()
	// for task_on_rq_migrating() (a53ce18cacb4 "sched/fair: Sanitize
	// vruntime of entity being migrated", v6.3 [R patch]; 9.7).
	execStartResetOnEnqueue bool
	// forkRecentUsedCPU: wake_up_new_task() sets p->recent_used_cpu =
	// task_cpu(p), the CPU sched_fork() gave the child, before
	// select_task_rq() ([R v5.x and v6.18 core.c]; from 32e839dda3ba,
	// v4.16, which added recent_used_cpu [M]); v3.11 has none (9.7).
	forkRecentUsedCPU bool
	// wakeAffineSkipsDelayed: wake_affine_idle()'s sync test subtracts
	// cfs_h_nr_delayed() from rq->nr_running (the patch reads h_nr_queued
	// - h_nr_runnable, names of v6.14 [R patch; release M]); v6.12 counts
	// delayed tasks (9.7).
	wakeAffineSkipsDelayed bool
	// schedIdleBalanceEarly: a dequeue that leaves only SCHED_IDLE tasks
	// (sched_idle_rq()) sets rq->next_balance = jiffies (323af6deaf70
	// "sched/fair: Load balance aggressively for SCHED_IDLE CPUs", v5.4 [M
	// commit; R the test in the 5.9-rc and post-6.18 copies]; 9.7).
	schedIdleBalanceEarly bool
	// mwaitPolls: MWAIT idle states keep TIF_POLLING_NRFLAG, so a wakeup
	// needs no IPI (f8e617f45829 "sched/idle/x86: Optimize unnecessary
	// mwait_idle() resched IPIs", 2014, v3.15/3.16 [M release]; 11.1).
	mwaitPolls bool
	// staleIdleClock: a pick after idle uses the rq clock of the last
	// update, put_prev_task() skipping the idle task (v3.11 [R]; gone with
	// the unconditional update_rq_clock() of __schedule(), v4.11 [M]; 11.4).
	staleIdleClock bool
	// governorStopsTick: the cpuidle governor decides whether the tick is
	// stopped (554c8aa8ecad "sched: idle: Select idle state before stopping
	// the tick", v4.17); before, every idle entry stops it.
	governorStopsTick bool
	// menuUpdateV5: menu_update() in the v5.x form (residency/2 when short,
	// clamped to next_timer); the 3.x form before v5.0 (the commit is not
	// resolved; 11.1).
	menuUpdateV5 bool

	// --- sched domains (domain_build.go, domain.go; sections 8, 9.5) ---

	// sdLevelSMT: the topology levels are SMT/MC/DIE, with sd_init() (v3.16
	// [M release]); v3.11 has SIBLING/MC/CPU (section 8).
	sdLevelSMT bool
	// sdLevelPKG: the package level is called PKG, not DIE (v6.7 [M title:
	// "sched/topology: Rename 'DIE' domain to 'PKG'"]; names only).
	sdLevelPKG bool
	// sdShareLLCName: SD_SHARE_PKG_RESOURCES is called SD_SHARE_LLC (v6.9;
	// names only).
	sdShareLLCName bool
	// sdLoadBalanceFlag: SD_LOAD_BALANCE exists (removed in v5.8).
	sdLoadBalanceFlag bool
	// smtGain: SMT threads split the core capacity by smt_gain 1178
	// (removed in v5.0, "sched/topology: Remove the ::smt_gain field").
	smtGain bool
	// sdInitV510: sd_init() with busy_factor 16, imbalance_pct 117 and
	// SD_PREFER_SIBLING by default (v5.10 [M: imbalance_pct landing with
	// it]); before, the v4.16 rules (busy_factor 32, imbalance_pct 125).
	sdInitV510 bool
	// sdCluster: the CLS level carries SD_CLUSTER (v6.8 [M]).
	sdCluster bool
	// imbNumaNr: sched domains compute imb_numa_nr (v5.18).
	imbNumaNr bool
	// asymCapFull: SD_ASYM_CPUCAPACITY_FULL exists and sd_asym_cpucapacity
	// is the lowest domain with it (c744dc4ab58d, 2309a05d2abe, v5.14 [R]).
	asymCapFull bool
	// smtNoAsymPacking: x86 SMT domains lose SD_ASYM_PACKING
	// (995998ebdebd, v6.5).
	smtNoAsymPacking bool
	// hybridPkgAsymPacking: the PKG level of hybrid x86 parts gets
	// SD_ASYM_PACKING (044f0e27dec6, v6.5).
	hybridPkgAsymPacking bool
	// highestFlagSharedChild: highest_flag_domain() stops early only for
	// SDF_SHARED_CHILD flags (40b4d3dc3282, v6.5).
	highestFlagSharedChild bool
	// itmtSiblingsEqual: every SMT sibling gets the core's ITMT priority
	// (046a5a95c3b0, v6.5).
	itmtSiblingsEqual bool
	// itmtPrioSquared: sched_set_itmt_core_prio() divides by the sibling
	// index squared (v5.16 [M]); before, by the index.
	itmtPrioSquared bool

	// --- load balancing (balance.go, asym.go, misfit.go, newidle.go) ---

	// busyIntervalLess1: get_sd_balance_interval() takes one jiffy off the
	// busy interval (v5.10 "sched/fair: Reduce busy load balance interval"
	// [M version]; 9.3).
	busyIntervalLess1 bool
	// lbDelayedLoadOnly: can_migrate_task() refuses a delayed-dequeue task
	// unless the migration type is migrate_load (61b82dfb6b7e "sched/fair:
	// Do not try to migrate delayed dequeue task", v6.14 [R tip mail]);
	// v6.12 has no such test and moves it like any other (9.7).
	lbDelayedLoadOnly bool
	// lbThrottledDst: can_migrate_task() refuses a task whose group's
	// cfs_rq on the destination is in a throttled hierarchy
	// (lb_throttled_hierarchy(), 0d4eaf8caf8c "sched/fair: Do not balance
	// task to a throttled cfs_rq", v6.18 [R tip mail, merge mail]); before,
	// throttled_lb_pair() tested source and destination (17.5).
	lbThrottledDst bool
	// lbIneligibleSoftLimit: while sd->nr_balance_failed is 0,
	// can_migrate_task() refuses a task not eligible on its source when the
	// destination has queued fair entities (task_is_ineligible_on_dst_cpu(),
	// PLACE_LAG; 873199d27bb2 "sched/core: Prioritize migrating eligible
	// tasks in sched_balance_rq()", v6.14 [R tip mail]; 9.7).
	lbIneligibleSoftLimit bool
	// detachShrBound: detach_tasks() compares shr_bound(load,
	// nr_balance_failed) with the imbalance (b0defa7ae03e, v5.10 [R patch]).
	detachShrBound bool
	// useAsymPrio: sched_use_asym_prio() limits asym packing on SMT to idle
	// cores (v6.5); always true before.
	useAsymPrio bool
	// asymSMTGroupOneBusy: sched_group_asym() counts an SMT group only with
	// exactly one busy sibling (v6.5).
	asymSMTGroupOneBusy bool
	// asymCapacity: SD_ASYM_CPUCAPACITY and misfit tasks exist (v4.20 [M]).
	asymCapacity bool
	// misfitMaxAllowedCapacity: update_misfit_status() clears the flag on
	// a CPU with the task's max_allowed_capacity ("sched/fair: Check a task
	// has a fitting cpu when updating misfit", v6.10 [M version]).
	misfitMaxAllowedCapacity bool
	// misfitSkipLocal: the local group's own misfit load is not counted
	// (v6.0 [M version]).
	misfitSkipLocal bool
	// capacityGreater: "bigger" is capacity_greater() (4aed8aa41524,
	// v5.13 [R]); before, fits_capacity() and a plain "<".
	capacityGreater bool
	// newidleGateCost: sched_balance_newidle() is gated by
	// !rd->overload || avg_idle < max_newidle_lb_cost (v5.16); before, by
	// avg_idle < sysctl_sched_migration_cost (9.2).
	newidleGateCost bool
	// newidleCostBlocked: update_blocked_averages() counts in curr_cost
	// (9e9af819db5d, v5.16).
	newidleCostBlocked bool
	// newidleCostDecayWait: update_newidle_cost() decays only after HZ
	// without a new maximum (e60b56e46b38 "sched/fair: Wait before
	// decaying max_newidle_lb_cost", v5.16 [M commit id]).
	newidleCostDecayWait bool
	// newidleBailOut: should_we_balance() refuses a newly idle balance once
	// the CPU has a runnable task (v6.x [M version]; section 14).
	newidleBailOut bool
	// avgIdleBalanceCost: avg_idle is capped by rq->max_idle_balance_cost
	// (v3.13 [M]); v3.11 resets it to 2*migration cost above that (11.4).
	avgIdleBalanceCost bool
	// nohzNewidleStats: a newly idle CPU gated off by !rd->overload updates
	// the idle CPUs' blocked load (v4.17 .. v5.12; moved out by
	// c6f886546cb8, v5.13 [M version]).
	nohzNewidleStats bool
	// hybridSeriesToggle: the hybrid cluster-scheduling series (merged for
	// v6.6) is gated by HYBRID_CLUSTER_SERIES; the older profiles always
	// balance with its rules (SIMPLIFIED, series.go). The same range as
	// the sched_feat.
	hybridSeriesToggle bool

	// --- RT, deadline, locks (rt_bandwidth.go, rt_balance.go, dl_admit.go,
	// locks.go; sections 10, 12, 13) ---

	// rtThrottleRoot: the root rt_rq is throttled at sched_rt_runtime_us
	// (removed by 5f6bd380c7bd "sched/rt: Remove default bandwidth
	// control", v6.12 [R]).
	rtThrottleRoot bool
	// fairServer: each CPU runs the deferred fair deadline server
	// (a110a81c52a9 "sched/deadline: Deferrable dl server", v6.12 [R]).
	fairServer bool
	// fairServerInTotalBW: the fair servers count in the root domain's
	// total_bw (v6.12 dl_server_apply_params(); removed by "sched/deadline:
	// Remove fair-servers from real-time task's bandwidth accounting",
	// 2025, taken to be in v6.18 [M]).
	fairServerInTotalBW bool
	// rtTaskExcludesDL: rt_task() is false for deadline tasks
	// (130fd056dd82 "sched/rt: Clean up usage of rt_task()", v6.12 [R]).
	rtTaskExcludesDL bool
	// waiterPrioDefault: a fair rt_mutex waiter queues at DEFAULT_PRIO
	// (__waiter_prio(), 715f7f9ece46, v5.15); before, by its nice prio.
	waiterPrioDefault bool

	// --- Task groups and bandwidth (cgroup*.go; section 17) ---

	// idleGroups: cpu.idle exists (tg->idle, se_is_idle(),
	// sched_group_set_idle(), v5.15 [M]); set_next_buddy() stops at an
	// idle entity.
	idleGroups bool
	// sharesLoadAvg: calc_group_shares() takes max(load.weight, load_avg)
	// as the cfs_rq's load (v4.15 [M]); v3.11 calc_cfs_shares() the load
	// weight alone [R] (17.3).
	sharesLoadAvg bool
	// tgLoadRatelimit: update_tg_load_avg() runs at most once per ms
	// ("sched/fair: Ratelimit update to tg->load_avg", v6.7 [M]).
	tgLoadRatelimit bool
	// emptyGroupKeepsWeight: update_cfs_group() leaves an empty group's
	// weight (66951e4860d3 "Fix update_cfs_group() vs DELAY_DEQUEUE",
	// v6.13 [R mail]).
	emptyGroupKeepsWeight bool
	// reweightEEVDF: reweight_entity() rescales lag and deadline around
	// the V taken before the dequeue (reweight_eevdf(), eab03c23c2a1 v6.7
	// with its v6.9 fix [R patch]) and a relative deadline of a dequeued
	// entity too; v6.6 rescales the relative deadline only (17.3).
	reweightEEVDF bool
	// reweightPlace: reweight_entity() saves the lag, makes the deadline
	// relative and places the entity again (6d71a9c61604, v6.14 [R
	// mails]).
	reweightPlace bool
	// groupMinSlice: a group entity's slice is the smallest queued below
	// it, as a custom slice (aef6987d8954, v6.12-rc1 [R mails]).
	groupMinSlice bool
	// moveResched: sched_move_task() reschedules the running task after
	// the move (v6.0 [M version]).
	moveResched bool
	// cfsBurst: cpu.max.burst and the nr_bursts/burst_time accounting of
	// __refill_cfs_bandwidth_runtime(), which also refills an idle pool
	// before deactivating the period timer (v5.14 [R]).
	cfsBurst bool
	// refillInactivePool: __assign_cfs_rq_runtime() refreshes a pool
	// whose period timer was inactive (v3.11 [M]).
	refillInactivePool bool
	// throttleRaceCheck: throttle_cfs_rq() first asks for 1 ns of runtime
	// and does not throttle if it gets it, and starts the throttled clock
	// only for a cfs_rq with entities (v5.10 race fix [M version]).
	throttleRaceCheck bool
	// throttleDequeueSpecial: throttle_cfs_rq() dequeues the group entity
	// with DEQUEUE_SPECIAL (never delayed) and finishes a delayed one
	// (v6.12 [R 9b5ce1a37e90 "Fix sched_delayed vs cfs_bandwidth"]).
	throttleDequeueSpecial bool
	// taskThrottle: the task-based throttle model (e1fad12dcb66, merged
	// for v6.18 [R mail]): a throttled cfs_rq stays queued and its tasks
	// leave on their way back to user mode.
	taskThrottle bool
	// throttledTasksNormal: a task under a throttled hierarchy is treated as
	// any other, because it runs until it returns to user mode:
	// dequeue_entities() sets the cgroup next buddy without the
	// throttled_hierarchy() test and check_preempt_wakeup_fair() returns
	// only for a throttled (limbo) task (253b3f587241 "sched/fair: Do not
	// special case tasks in throttled hierarchy", v6.18 [R tip mail, merge
	// mail]; 1.10).
	throttledTasksNormal bool
	// rtRuntimeShare: sched_feat(RT_RUNTIME_SHARE) defaults on, so a
	// group rt_rq past its runtime borrows spare runtime from the other
	// CPUs' (do_balance_runtime()); "sched/rt: Disable RT_RUNTIME_SHARE by
	// default" (Daniel Bristot de Oliveira, v5.10 [M]; docs/kernel-rules.md
	// 10.2). Applied to group rt_rqs only (rt_group.go); the root rt_rq
	// keeps the documented divergence of rt_bandwidth.go.
	rtRuntimeShare bool
	// throttledClockLessLost: a throttled cfs_rq's PELT clock reads its
	// snapshot less the time already spent throttled (1a99ae3f00d3
	// "sched/fair: Fix the wrong throttled clock time for
	// cfs_rq_clock_task()", v4.8 [R patch]); before, the raw snapshot
	// (cgroup_pelt_clock.go).
	throttledClockLessLost bool
	// throttledClockPelt: tg_throttle_down()/tg_unthrottle_up() snapshot
	// rq_clock_pelt() rather than rq_clock_task() ("sched/fair: Fix
	// cfs_rq_clock_pelt() for throttled cfs_rq", Chengming Zhou, pulled
	// in sched-core-2022-05-23, v5.19 [R mails]).
	throttledClockPelt bool
	// peltClockStopEmpty: a throttled cfs_rq's PELT clock stops only once
	// it has no entity queued (pelt_clock_throttled; e1fad12dcb66, the
	// v6.18 task-based throttle [R patch v3]).
	peltClockStopEmpty bool
	// asyncUnthrottle: distribute_cfs_runtime() unthrottles a remote
	// CPU's cfs_rq through its cfsb_csd (an async call-function request)
	// instead of under its rq lock (8ad075c2eb1f, v6.2 [R mails];
	// cgroup_unthrottle_async.go).
	asyncUnthrottle bool
	// userCpusPtr: sched_setaffinity() keeps the requested mask in
	// user_cpus_ptr and set_cpus_allowed_ptr() (cpuset_attach()) narrows
	// a new cpuset to it (8f9ea86fdf99 "sched: Always preserve the user
	// requested cpumask", da019032819a "sched: Enforce user requested
	// affinity" [R mails]; v6.2 [M release: tip in 2022-09, v6.1 or v6.2,
	// both between the v5.8 and v6.6 profiles]; cpuset.go).
	userCpusPtr bool

	// --- Policy and priority changes during a run (setattr.go; section 18) ---

	// niceViaPrioChanged: set_user_nice() puts and sets a running task and
	// leaves the reschedule to prio_changed_fair() (5443a0be6121 "sched:
	// Use fair:prio_changed() instead of ad-hoc implementation", v5.6
	// merge window [R tip mail, pull]); v3.11 dequeues and enqueues only
	// and reschedules when the prio rose or the running task's fell [R 3.x
	// core.c]. (The put/set of the running task came between, with
	// DEQUEUE_SAVE [R v4.x copy; commit M]; no profile lies there.)
	niceViaPrioChanged bool
	// prioChangedSkipsLone: prio_changed_fair() returns when the task is
	// alone on the root cfs_rq (7c2e8bbd87db "sched: Spare resched IPI
	// when prio changes on a single fair task", the same series [R]).
	prioChangedSkipsLone bool
	// idleReweight: set_load_weight() reweights a SCHED_IDLE task through
	// reweight_task() like the other fair policies (ef73d6a4ef0b
	// "sched/fair: set_load_weight() must also call reweight_task() for
	// SCHED_IDLE tasks", Tejun Heo, 2024: in the stable backport lists
	// [R]; mainline release v6.11 [M]); before, the weight is stored
	// directly: the lag is not rescaled and the task's old load_avg stays
	// in its cfs_rq's sum [R v5.8 and v6.6 set_load_weight()].
	idleReweight bool
}

// rulesFor fills the rules of a kernel of version v (major*100+minor,
// e.g. 612, as Profile.version).
func rulesFor(v int) kernelRules {
	return kernelRules{
		deadlineTree:   v >= 608,
		newTaskInitial: v >= 612,
		wakeupIdleSE:   v >= 612,
		preemptShort:   v >= 612,
		vprot:          v >= 618,
		pickBuddy:      PickBuddy.AppliesTo(v),
		yieldForfeit:   v >= 618,
		lazyPreempt:    v >= 613,

		cpuClockUpdateCurr: v >= 319,

		migratePeltLag:             v >= 600,
		peltRunnableSkipsDelayed:   v >= 613,
		utilEst:                    UtilEst.AppliesTo(v),
		utilEstMSBFlag:             v >= 513,
		utilEstEnqueuedMargin:      v >= 513,
		utilEstRunnableCheck:       v >= 602,
		utilEstSingleEWMA:          v >= 608,
		utilEstUpdateBeforeDequeue: v >= 612,
		utilEstSkipDelayedMove:     v >= 612,
		busiestUtilBoost:           v >= 605,
		postInitSEWeight:           v >= 606,
		affinityDistribute:         v >= 507,
		sisUnifiedScan:             v >= 600,
		sisUtil:                    SISUtil.AppliesTo(v),
		sisClusterFirst:            v >= 600,
		wakeListIdleLLC:            v >= 600,
		wakeListPollNoIPI:          v >= 316,
		wakeListCSD:                v >= 508,
		execStartResetOnMigrate:    versionIn(v, 500, 603),
		execStartResetOnEnqueue:    v >= 603,
		forkRecentUsedCPU:          v >= 416,
		wakeAffineSkipsDelayed:     v >= 614,
		schedIdleBalanceEarly:      v >= 504,
		mwaitPolls:                 v >= 316,
		staleIdleClock:             v > 0 && v < 411,
		governorStopsTick:          v >= 417,
		menuUpdateV5:               v >= 500,

		sdLevelSMT:             v >= 316,
		sdLevelPKG:             v >= 607,
		sdShareLLCName:         v >= 609,
		sdLoadBalanceFlag:      v < 508,
		smtGain:                v < 500,
		sdInitV510:             v >= 510,
		sdCluster:              v >= 608,
		imbNumaNr:              v >= 518,
		asymCapFull:            v >= 514,
		smtNoAsymPacking:       v >= 605,
		hybridPkgAsymPacking:   v >= 605,
		highestFlagSharedChild: v >= 605,
		itmtSiblingsEqual:      v >= 605,
		itmtPrioSquared:        v >= 516,

		busyIntervalLess1:        v >= 510,
		lbDelayedLoadOnly:        v >= 614,
		lbThrottledDst:           v >= 618,
		lbIneligibleSoftLimit:    v >= 614,
		detachShrBound:           v >= 510,
		useAsymPrio:              v >= 605,
		asymSMTGroupOneBusy:      v >= 605,
		asymCapacity:             v >= 420,
		misfitMaxAllowedCapacity: v >= 610,
		misfitSkipLocal:          v >= 600,
		capacityGreater:          v >= 513,
		newidleGateCost:          v >= 516,
		newidleCostBlocked:       v >= 516,
		newidleCostDecayWait:     v >= 516,
		newidleBailOut:           v >= 600,
		avgIdleBalanceCost:       v >= 313,
		nohzNewidleStats:         v >= 417 && v < 513,
		hybridSeriesToggle:       HybridClusterSeries.AppliesTo(v),

		rtThrottleRoot:      v < 612,
		fairServer:          v >= 612,
		fairServerInTotalBW: v >= 612 && v < 618,
		rtTaskExcludesDL:    v >= 612,
		waiterPrioDefault:   v >= 515,

		idleGroups:             v >= 515,
		sharesLoadAvg:          v >= 415,
		tgLoadRatelimit:        v >= 607,
		emptyGroupKeepsWeight:  v >= 613,
		reweightEEVDF:          v >= 612,
		reweightPlace:          v >= 614,
		groupMinSlice:          v >= 612,
		moveResched:            v >= 600,
		cfsBurst:               v >= 514,
		refillInactivePool:     v < 400,
		throttleRaceCheck:      v >= 600,
		throttleDequeueSpecial: v >= 612,
		taskThrottle:           v >= 618,
		throttledTasksNormal:   v >= 618,
		rtRuntimeShare:         v > 0 && v < 510,
		throttledClockLessLost: v >= 408,
		throttledClockPelt:     v >= 519,
		peltClockStopEmpty:     v >= 618,
		asyncUnthrottle:        v >= 602,
		userCpusPtr:            v >= 602,

		niceViaPrioChanged:   v >= 506,
		prioChangedSkipsLone: v >= 506,
		idleReweight:         v >= 611,
	}
}

// versionIn reports from <= v < to (to 0: no end), the version ranges of
// the feature table (feature_versions.go).
func versionIn(v, from, to int) bool {
	return v >= from && (to == 0 || v < to)
}
