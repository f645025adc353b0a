package scenario

// The kernel build and boot options of group scheduling: kernel.autogroup
// (CONFIG_SCHED_AUTOGROUP's sysctl sched_autogroup_enabled) and
// kernel.rt_group_sched (CONFIG_RT_GROUP_SCHED), and how the resolved
// cgroups reach the engine's Config.
//
// kernel.autogroup defaults to off on every profile although the
// distributions' desktop kernels enable it: with it on, every scenario
// without sessions would run its tasks inside one autogroup, which
// schedules like the flat runqueue but costs group entities, so outputs
// of the existing scenarios would change for no modelled reason;
// scenario-format.md documents this. kernel.rt_group_sched defaults to
// off on every profile: the general-purpose distributions (Debian,
// Fedora/RHEL, Arch, Gentoo, and systemd's README since 2015) build
// without it, because it forbids RT tasks in cgroups without an RT
// budget (docs/scenario-format.md "Cgroups" cites the sources).

import "schedplay/core/sched"

// rtGroupSched is the effective kernel.rt_group_sched of a build.
func (sc *Scenario) rtGroupSched(prof sched.Profile) bool {
	if sc.Kernel.RTGroupSched != nil {
		return *sc.Kernel.RTGroupSched
	}
	return false
}

// autogroup is the effective kernel.autogroup of a build.
func (sc *Scenario) autogroup() bool {
	return sc.Kernel.Autogroup != nil && *sc.Kernel.Autogroup
}

// applyGroupConfig hands the resolved cgroups and the group options to
// the engine's configuration.
func (sc *Scenario) applyGroupConfig(cfg *sched.Config, prof sched.Profile, tr *cgroupTree) error {
	cfg.Cgroups = tr.specs
	cfg.Autogroup, cfg.RTGroupSched = sc.autogroup(), tr.rtGroup
	return nil
}

// cgroupMoveOp is the engine's op for moving the running task to cgroup k
// (sched_move_task(); core/sched/cgroup_move.go).
func cgroupMoveOp(p string, k int) (sched.Op, error) {
	return sched.Op{Kind: sched.OpCgroup, Target: k}, nil
}
