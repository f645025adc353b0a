package sched

// cpu.stat of a cgroup: kernel/sched/core.c cpu_extra_stat_show() and
// cpu_cfs_stat_show() (nr_periods, nr_throttled, throttled_usec,
// nr_bursts, burst_usec from the group's cfs_bandwidth) and
// kernel/cgroup/rstat.c cgroup_base_stat_cputime_show() (usage, user and
// system time, hierarchical: a group's usage includes its descendants').
//
// The usage is charged where the kernel charges it, in update_curr() of
// the task's entity (update_curr_task() -> cgroup_account_cputime(); for
// RT and deadline tasks update_curr_rt() / update_curr_dl()), to the
// task's group and every ancestor. The kernel splits user and system
// time by tick sampling (cputime_adjust()); here the split is exact: time
// in OpSys steps and the kernel entry costs is system time.

// chargeCgroup charges delta ns of t's run time to its groups.
func (s *Sim) chargeCgroup(t *Task, delta int64) {
	sys := t.kmode == kmodeSys
	for tg := t.tg; tg != nil; tg = tg.parent {
		tg.usage += delta
		if sys {
			tg.sysNs += delta
		}
	}
}

// CgroupStat returns cgroup k's cpu.stat (k from 1) at the current time.
func (s *Sim) CgroupStat(k int) CgroupStat {
	if k < 1 || k > len(s.cfg.Cgroups) || s.tgs == nil {
		return CgroupStat{}
	}
	tg := s.tgs[k]
	usage, sys := tg.usage, tg.sysNs
	// Time run since the last update_curr() of tasks running now.
	for i := range s.rqs {
		c := s.rqs[i].curr
		if c == nil || !s.tgUnder(c.tg, tg) {
			continue
		}
		if d := int64(s.now - c.se.execStart); d > 0 {
			usage += d
			if c.kmode == kmodeSys {
				sys += d
			}
		}
	}
	st := CgroupStat{UsageNs: usage, SystemNs: sys, UserNs: usage - sys}
	s.bandwidthStat(tg, &st) // cgroup_bandwidth.go
	return st
}

// tgUnder reports whether group g is tg or one of its descendants.
func (s *Sim) tgUnder(g, tg *taskGroup) bool {
	for ; g != nil; g = g.parent {
		if g == tg {
			return true
		}
	}
	return false
}
