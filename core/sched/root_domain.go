package sched

// Root domains: kernel/sched/topology.c struct root_domain, one per
// exclusive set of CPUs that partition_sched_domains() builds a sched
// domain tree for, with the CPUs of no domain (an isolated cpuset
// partition, isolcpus=domain) attached to def_root_domain
// (detach_destroy_domains() -> cpu_attach_domain(NULL, &def_root_domain)).
// rebuild_sched_domains() -> generate_sched_domains() gives one domain to
// the root cpuset's CPUs and one to each "root" partition (cpuset.go).
//
// What a root domain holds and who reads it here:
//   - rd->overload (set_rd_overloaded(): add_nr_running() and the top
//     level's update_sd_lb_stats()), which gates newidle balancing;
//   - rd->rto_count / rto_mask: pull_rt_task() scans only the overloaded
//     CPUs of its own root domain;
//   - rd->cpupri and rd->cpudl: find_lowest_rq() and find_later_rq()
//     search the task's root domain only, and pull_dl_task() its own
//     (rd->dlo_mask);
//   - rd->span for do_balance_runtime()'s RT_RUNTIME_SHARE borrowing
//     (rt_group.go): an rt_rq borrows from the CPUs of its root domain,
//     1/weight(span) of each;
//   - rd->dl_bw: SCHED_DEADLINE admission against the domain's capacity
//     (dl_admit.go; the fair servers' share per CPU of the domain).
//
// Abstracted: rd->max_cpu_capacity stays one value.

import (
	"fmt"

	"schedplay/core/quote"
)

// rootDomain is the part of struct root_domain the model keeps.
type rootDomain struct {
	span     cpuMask // nil: every CPU (a run without partitions)
	weight   int     // cpumask_weight(rd->span)
	overload bool    // rd->overload
	rtoCount int     // rd->rto_count: RT-overloaded CPUs of the domain
	// dlTotalBW is rd->dl_bw.total_bw: the deadline bandwidth admitted in
	// the domain (dl_admit.go), against its CPUs' capacity.
	dlTotalBW int64
}

// has reports whether cpu belongs to d.
func (d *rootDomain) has(cpu CPUID) bool { return d.span == nil || d.span.has(cpu) }

// rdOf is cpu_rq(cpu)->rd.
func (s *Sim) rdOf(cpu CPUID) *rootDomain {
	if s.cpuRd == nil || cpu < 0 {
		return &s.rd0
	}
	return s.cpuRd[cpu]
}

// checkDLSpan refuses a SCHED_DEADLINE task whose affinity, within its
// cpuset, does not span its root domain: __sched_setscheduler() fails
// with -EPERM ("cpumask_subset(span, p->cpus_ptr)"), so a deadline task
// may sit in a cpuset only if that is a partition of its own CPUs.
func (s *Sim) checkDLSpan(gi int, t *Task) error {
	if t.policy != SchedDeadline || s.cpuRd == nil {
		return nil
	}
	rd := s.rdOf(t.affinity.first(len(s.rqs)))
	for c := range s.rqs {
		if rd.has(CPUID(c)) && !t.affinity.has(CPUID(c)) {
			return fmt.Errorf("tasks[%d] (%s): a SCHED_DEADLINE task's CPUs (its cpuset's) must span its root domain, cpus %s (sched_setattr() fails with EPERM); make its cgroup a cpuset partition", gi, quote.Clip(s.cfg.Tasks[gi].Name), rd.span.format(len(s.rqs)))
		}
	}
	return nil
}

// initRootDomains mirrors partition_sched_domains() for the domains
// initCpusets() computed (sdDoms): CPUs with the same domain share a root
// domain; CPUs with none share def_root_domain.
func (s *Sim) initRootDomains() {
	n := len(s.rqs)
	s.rd0 = rootDomain{weight: n}
	if s.sdDoms == nil {
		return
	}
	s.cpuRd = make([]*rootDomain, n)
	var def *rootDomain
	for c := range n {
		if s.cpuRd[c] != nil {
			continue
		}
		dom := s.sdDoms[c]
		if dom == nil {
			if def == nil {
				def = &rootDomain{span: newCPUMask(n)}
			}
			def.span.set(c)
			def.weight++
			s.cpuRd[c] = def
			continue
		}
		d := &rootDomain{span: dom, weight: dom.weight()}
		for x := range n {
			if dom.has(CPUID(x)) {
				s.cpuRd[x] = d
			}
		}
	}
}
