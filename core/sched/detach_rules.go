package sched

// Version variants of detach_tasks()' size thresholds (kernel/sched/fair.c
// detach_tasks(), migrate_load and migrate_util cases); the loop itself is
// in balance.go.
//
// v5.10+ (b0defa7ae03e "sched/fair: relax constraint on task's load
// during load balance", Vincent Guittot, Sep 2020 [R patch]): a task
// moves when shr_bound(load, nr_balance_failed) <= imbalance, so every
// failed attempt halves the load the task is compared with.
// v5.5-v5.9 ("sched/cfs: fix spurious active migration", Nov 2019 [R
// patch]): a task whose half load exceeds the imbalance is skipped while
// nr_balance_failed <= cache_nice_tries; after that any task moves. For
// migrate_util v5.8 compares the plain util with the imbalance [M: the
// shr_bound() form of the util case is taken to arrive with the v5.10
// rule]. v3.11 uses the v5.8 rules (SIMPLIFIED).
// LB_MIN (off by default in every profile) is not modelled.

// detachLoadSkip reports whether detach_tasks() skips a task of this load
// under migrate_load.
func (s *Sim) detachLoadSkip(env *lbEnv, load int64) bool {
	if !s.rules.detachShrBound {
		return load/2 > env.imbalance && env.sd.nrBalanceFailed <= env.sd.cacheNiceTries
	}
	return shrBound(load, env.sd.nrBalanceFailed) > env.imbalance
}

// detachUtilSkip is the same for migrate_util.
func (s *Sim) detachUtilSkip(env *lbEnv, util int64) bool {
	if !s.rules.detachShrBound {
		return util > env.imbalance
	}
	return shrBound(util, env.sd.nrBalanceFailed) > env.imbalance
}
