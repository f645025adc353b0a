package sched

// The cpuset controller as far as scheduling goes: kernel/cgroup/cpuset.c
// effective_cpus (cpuset.cpus restricted by the parent's, the parent's
// when unset), partitions (cpuset.cpus.partition "root" / "isolated",
// v5.11+ cgroup v2: the partition's CPUs leave every cpuset outside it)
// and generate_sched_domains() -> partition_sched_domains(): one sched
// domain tree for the root cpuset's remaining CPUs, one per "root"
// partition, and none for an "isolated" partition (its CPUs get no load
// balancing, as with isolcpus=domain).
//
// A task's affinity is its own mask and its cgroup's effective CPUs
// (cpuset_cpus_allowed()); a move to another cgroup sets it again
// (cpuset_attach() -> set_cpus_allowed_ptr()), and a sched_setaffinity()
// step is clipped to them (cpusetClip); what a move does with the mask
// the task asked for depends on the kernel (cpusetMask).
//
// Each domain is its own root domain (root_domain.go: rd->overload, the
// RT overload count, cpupri/cpudl and the RT_RUNTIME_SHARE span per root
// domain; the isolated CPUs share def_root_domain).

import (
	"fmt"

	"schedplay/core/quote"
)

// initCpusets computes the effective CPUs of every cgroup and the sched
// domain of every CPU. It runs before the sched domains are built.
func (s *Sim) initCpusets() error {
	cgs := s.cfg.Cgroups
	n := len(s.rqs)
	any := false
	for _, c := range cgs {
		if c.CPUs != nil || (c.Partition != "" && c.Partition != "member") {
			any = true
		}
	}
	if !any {
		return nil
	}
	all := newCPUMask(n)
	for c := range n {
		all.set(c)
	}
	raw := make([]cpuMask, len(cgs)+1) // cpuset.cpus within the parent's, before partitions
	raw[0] = all
	for k, c := range cgs {
		where := fmt.Sprintf("cgroups[%d] (%s)", k, quote.Clip(c.Path))
		if c.Parent < 0 || c.Parent > k {
			return fmt.Errorf("%s: parent %d, want a cgroup numbered before it (0 = root)", where, c.Parent)
		}
		switch c.Partition {
		case "", "member", "root", "isolated":
		default:
			return quote.Errorf("%s: cpuset.cpus.partition %q, want member, root or isolated", where, c.Partition)
		}
		m := raw[c.Parent].clone()
		if c.CPUs != nil {
			own := newCPUMask(n)
			for _, x := range c.CPUs {
				if x < 0 || x >= n {
					return fmt.Errorf("%s: cpuset.cpus names cpu %d; %s has %d CPUs", where, x, quote.Clip(s.cfg.Machine.Name), n)
				}
				own.set(x)
			}
			m.and(own)
			if c.isPartition() && !own.subset(raw[c.Parent]) {
				return fmt.Errorf("%s: partition CPUs %s are not all in the parent's cpuset", where, own.format(n))
			}
		} else if c.isPartition() {
			return fmt.Errorf("%s: a %s partition needs cpuset.cpus", where, c.Partition)
		}
		if m.weight() == 0 {
			m = raw[c.Parent].clone() // an empty cpuset.cpus falls back to the parent's
		}
		raw[k+1] = m
	}
	// A partition's CPUs leave every cpuset outside it.
	s.cpusetEff = make([]cpuMask, len(cgs)+1)
	for k := range raw {
		e := raw[k].clone()
		for p, c := range cgs {
			if c.isPartition() && !s.cgroupUnder(k, p+1) {
				e.andNot(raw[p+1]) // outside partition p+1
			}
		}
		if k == 0 && e.weight() == 0 {
			return fmt.Errorf("cgroups: partitions take every CPU; the root cpuset must keep one")
		}
		s.cpusetEff[k] = e
	}
	// Sched domains: the root's CPUs, each root partition's; isolated none.
	s.sdDoms = make([]cpuMask, n)
	for c := range n {
		if s.cpusetEff[0].has(CPUID(c)) {
			s.sdDoms[c] = s.cpusetEff[0]
		}
	}
	for p, c := range cgs {
		if !c.isPartition() {
			continue
		}
		for x := range n {
			if s.cpusetEff[p+1].has(CPUID(x)) {
				if c.Partition == "isolated" {
					s.sdDoms[x] = nil
				} else {
					s.sdDoms[x] = s.cpusetEff[p+1]
				}
			}
		}
	}
	return nil
}

func (c *CgroupSpec) isPartition() bool { return c.Partition == "root" || c.Partition == "isolated" }

// cgroupUnder reports whether cgroup k is cgroup a or below it.
func (s *Sim) cgroupUnder(k, a int) bool {
	for {
		if k == a {
			return true
		}
		if k == 0 {
			return false
		}
		k = s.cfg.Cgroups[k-1].Parent
	}
}

// restrictToCpuset mirrors cpuset_cpus_allowed(): t's affinity within its
// cgroup's effective CPUs. It reports false when nothing is left.
func (s *Sim) restrictToCpuset(t *Task, cg int) bool {
	if s.cpusetEff == nil {
		return true
	}
	if s.rules.userCpusPtr && t.affinity.weight() < len(s.rqs) {
		t.userMask = t.affinity.clone() // the launcher's sched_setaffinity(): user_cpus_ptr
	}
	t.affinity.and(s.cpusetEff[cg])
	return t.affinity.weight() > 0
}

// cpusetClip mirrors the cpuset part of __sched_setaffinity():
// new_mask = in_mask & cpuset_cpus_allowed(p). An empty intersection has
// no CPU for __set_cpus_allowed_ptr_locked()'s
// cpumask_any_and_distribute() (v3.11 set_cpus_allowed_ptr(): no
// cpumask_intersects() with the active mask), which returns -EINVAL and
// leaves the mask as it was: nil here.
func (s *Sim) cpusetClip(t *Task, m cpuMask) cpuMask {
	cg := 0
	if t.tg != nil && t.tg.id <= len(s.cfg.Cgroups) {
		cg = t.tg.id // an autogroup's tasks are in the root cpuset
	}
	c := m.clone()
	c.and(s.cpusetEff[cg])
	if c.weight() == 0 {
		return nil
	}
	return c
}

// cpusetMask is the affinity t gets in cgroup cg: cpuset_attach() ->
// set_cpus_allowed_ptr(task, the cgroup's effective CPUs). From v6.2
// __set_cpus_allowed_ptr() narrows that to the mask the task last asked
// for (user_cpus_ptr, da019032819a "sched: Enforce user requested
// affinity") when they share a CPU; before, the task gets the whole
// cpuset and its own mask is lost.
func (s *Sim) cpusetMask(t *Task, cg int) cpuMask {
	m := s.cpusetEff[cg].clone()
	if s.rules.userCpusPtr && t.userMask != nil {
		u := m.clone()
		u.and(t.userMask)
		if u.weight() > 0 {
			return u
		}
	}
	return m
}

func (m cpuMask) and(o cpuMask) {
	for i := range m {
		m[i] &= o[i]
	}
}

func (m cpuMask) andNot(o cpuMask) {
	for i := range m {
		m[i] &^= o[i]
	}
}
