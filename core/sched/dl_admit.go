package sched

// Deadline admission control: kernel/sched/deadline.c sched_dl_overflow()
// with __dl_overflow(), __dl_add() / __dl_sub() on the root domain's
// struct dl_bw, __checkparam_dl(), and task_dead_dl() releasing a dead
// task's bandwidth.
//
// Each root domain (root_domain.go: all CPUs, unless cpuset partitions
// split them) admits deadline bandwidth up to dl_b->bw = to_ratio(
// sched_rt_period_us, sched_rt_runtime_us) (0.95 by default) times its
// capacity (dl_bw_capacity(): the sum of the CPUs' capacities, 1024 each
// on a symmetric machine): a task whose runtime/period would push
// total_bw above that is refused (-EBUSY). sched_rt_runtime_us = -1
// disables the test. The check is made when the task becomes
// SCHED_DEADLINE, taken to be its creation (rt-app calls sched_setattr()
// as the thread starts); a dead task's bandwidth is released.
//
// The v6.12+ fair servers: fair_server_init() -> dl_server_apply_params()
// added each CPU's 50 ms / 1000 ms to total_bw; "sched/deadline: Remove
// fair-servers from real-time task's bandwidth accounting" took it out
// again [M: taken to be in v6.18, the version is not verified]. So v6.12
// admits 0.95 - 0.05 per CPU for tasks and v6.18 0.95.
//
// Parameter checks are __checkparam_dl(): deadline != 0, runtime >=
// 2^DL_SCALE ns, runtime <= deadline <= period, and the period within
// sched_deadline_period_min_us..max_us (100 us .. 2^22 us by default,
// constants here). The kernel also refuses SCHED_DEADLINE for a task whose
// affinity does not span the root domain (__sched_setscheduler(): -EPERM);
// so does the simulator (checkDLSpec for the cpus key, checkDLSpan in
// root_domain.go for a cpuset).

import (
	"fmt"

	"schedplay/core/quote"
)

const (
	dlPeriodMin = 100 * Microsecond       // sysctl_sched_dl_period_min (us)
	dlPeriodMax = (1 << 22) * Microsecond // sysctl_sched_dl_period_max (us)
)

// dlGlobal is the root domain's deadline state.
type dlGlobal struct {
	mask    cpuMask // find_later_rq()'s later_mask (dl_balance.go)
	pending []*Task // tasks that left SCHED_DEADLINE before their 0-lag time (setattr_class.go)
}

// CheckDLParams mirrors __checkparam_dl() for a task group's parameters.
func CheckDLParams(p DLParams) error {
	switch {
	case p.Deadline == 0:
		return fmt.Errorf("dl_deadline must be positive")
	case p.Runtime < 1<<dlScale:
		return fmt.Errorf("dl_runtime %s below the kernel's minimum of 1024ns", p.Runtime)
	case p.Runtime > p.Deadline:
		return fmt.Errorf("dl_runtime %s exceeds dl_deadline %s (want runtime <= deadline <= period)", p.Runtime, p.Deadline)
	case p.Deadline > p.Period:
		return fmt.Errorf("dl_deadline %s exceeds dl_period %s (want runtime <= deadline <= period)", p.Deadline, p.Period)
	case p.Period < dlPeriodMin || p.Period > dlPeriodMax:
		return fmt.Errorf("dl_period %s outside sched_deadline_period_min_us..max_us (100us..4.194304s)", p.Period)
	}
	return nil
}

// checkDLSpec validates the deadline part of a task group.
func (s *Sim) checkDLSpec(where string, spec TaskSpec) error {
	if !spec.Policy.IsDeadline() {
		if spec.DL != (DLParams{}) {
			return fmt.Errorf("%s: dl_runtime/dl_deadline/dl_period given for %s; only SCHED_DEADLINE tasks have them", where, spec.Policy)
		}
		return nil
	}
	if err := CheckDLParams(spec.DL); err != nil {
		return fmt.Errorf("%s: %v", where, err)
	}
	if spec.CPUs != nil && len(spec.CPUs) < s.cfg.Machine.NumCPUs() {
		return fmt.Errorf("%s: a SCHED_DEADLINE task's cpus must span all CPUs of the root domain (sched_setattr() fails with EPERM otherwise)", where)
	}
	if spec.Nice != 0 || spec.RTPriority != 0 {
		return fmt.Errorf("%s: SCHED_DEADLINE tasks take no nice or priority", where)
	}
	return nil
}

// dlBWLimit is cap_scale(dl_b->bw, dl_bw_capacity()) of root domain rd;
// -1 = no limit.
func (s *Sim) dlBWLimit(rd *rootDomain) int64 {
	if s.sys.RTRuntimeUs < 0 {
		return -1
	}
	capSum := int64(0)
	for i := range s.rqs {
		if rd.has(CPUID(i)) {
			capSum += s.rqs[i].capacity
		}
	}
	return toRatio(Time(s.sys.RTPeriodUs), Time(s.sys.RTRuntimeUs)) * capSum >> 10
}

// initDL sets up the root domain's bandwidth and admits the deadline
// tasks the scenario creates at time 0, so that a refusal is an error
// before the run.
func (s *Sim) initDL() error {
	s.dl.mask = newCPUMask(len(s.rqs))
	bw := map[*rootDomain]int64{}
	for c := range s.rqs {
		rd := s.rdOf(CPUID(c))
		rd.dlTotalBW = 0
		if s.rules.fairServerInTotalBW {
			rd.dlTotalBW = int64(rd.weight) * toRatio(fairServerPeriod, fairServerRuntime)
		}
		bw[rd] = rd.dlTotalBW
	}
	for gi, spec := range s.cfg.Tasks {
		if !spec.Policy.IsDeadline() || spec.Parent >= 0 || spec.Start != 0 {
			continue
		}
		rd := s.rdOf(s.specFirstCPU(spec))
		for range spec.Instances {
			if err := s.dlOverflow(gi, rd, bw[rd]); err != nil {
				return err
			}
			bw[rd] += toRatio(spec.DL.Period, spec.DL.Runtime)
		}
	}
	return nil
}

// specFirstCPU is the first CPU a task of spec may run on (its cpuset's
// first CPU), which names the root domain it is admitted in.
func (s *Sim) specFirstCPU(spec TaskSpec) CPUID {
	if s.cpusetEff == nil {
		return 0
	}
	return s.cpusetEff[spec.Cgroup].first(len(s.rqs))
}

// dlOverflow mirrors sched_dl_overflow() -> __dl_overflow() for an
// instance of group gi on top of total bandwidth total.
func (s *Sim) dlOverflow(gi int, rd *rootDomain, total int64) error {
	spec := &s.cfg.Tasks[gi]
	limit := s.dlBWLimit(rd)
	nbw := toRatio(spec.DL.Period, spec.DL.Runtime)
	if limit < 0 || total+nbw <= limit {
		return nil
	}
	unit := float64(int64(1) << bwShift)
	return fmt.Errorf("tasks[%d] (%s): SCHED_DEADLINE admission refused (sched_dl_overflow(): EBUSY): its bandwidth %.3f (dl_runtime/dl_period) on top of %.3f already admitted exceeds %.3f CPUs (sched_rt_runtime_us/sched_rt_period_us = %d/%d times the root domain's capacity)",
		gi, quote.Clip(spec.Name), float64(nbw)/unit, float64(total)/unit, float64(limit)/unit, s.sys.RTRuntimeUs, s.sys.RTPeriodUs)
}

// dlAdmit is sched_dl_overflow() at p's creation: __dl_add() or fail the
// run with the refusal.
func (s *Sim) dlAdmit(p *Task) bool {
	s.dlReleaseDue() // setattr_class.go
	rd := s.dlRootDomain(p)
	if err := s.dlOverflow(p.group, rd, rd.dlTotalBW); err != nil {
		s.fail(fmt.Errorf("at %s: %v", s.now, err))
		return false
	}
	p.dl.bw = toRatio(p.dl.params.Period, p.dl.params.Runtime)
	p.dl.density = toRatio(p.dl.params.Deadline, p.dl.params.Runtime)
	rd.dlTotalBW += p.dl.bw
	p.dl.rd = rd
	p.dl.admitted = true
	return true
}

// dlRootDomain is the root domain p's bandwidth is admitted in: that of a
// CPU it may use (the thread calls sched_setattr() on one).
func (s *Sim) dlRootDomain(p *Task) *rootDomain {
	cpu := p.cpu
	if cpu < 0 || !p.affinity.has(cpu) {
		cpu = p.affinity.first(len(s.rqs))
	}
	return s.rdOf(cpu)
}

// dlRelease is task_dead_dl(): __dl_sub() of a dead task's bandwidth.
func (s *Sim) dlRelease(p *Task) {
	if p.dl.admitted {
		p.dl.rd.dlTotalBW -= p.dl.bw
		p.dl.admitted = false
	}
	p.dl.timerGen++
}
