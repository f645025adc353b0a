package sched

// Machine speed under contention: no kernel function (the hardware). A
// task's run step is an amount of work at capacity 1024; a CPU does
// speed/1024 of it per ns, where speed is the CPU's Capacity reduced by
//
//   - SMT: while another SMT sibling of the core is busy (runs a task, or
//     kernel code for one), each busy thread runs at (100 -
//     hw.smt_slowdown_pct)% of its lone-thread speed. Default 42%: the
//     kernel's own pre-v5.0 SMT model, smt_gain = 1178 for a core of two
//     threads, i.e. 589/1024 = 58% of a lone thread each (1.15x the core).
//   - shared L2 (clusters of more than one core, e.g. the E-core clusters of
//     hybrid x86 that share a 2-4 MB L2): each other busy core of the
//     cluster takes hw.l2_contention_pct% off (additively, floor 10%).
//     Default 5% (an estimate, see hw.go); only machines with multi-core
//     L2 clusters are affected.
//
// SIMPLIFIED: binary busy/idle states (no memory-intensity per task), the
// slowdown applies from the instant a sibling's busy state changes (the
// running segments of the affected CPUs are re-timed then), and SMT and L2
// effects multiply. The zero values are the ideal machine: no contention,
// no extra events, the event stream of the engine before this model.

// initContention precomputes each CPU's contending CPUs.
func (s *Sim) initContention() {
	m := &s.cfg.Machine
	n := len(s.rqs)
	s.contention = s.hw.SMTSlowdownPct > 0 || s.hw.L2ContentionPct > 0
	s.l2Mates = make([][]CPUID, n)
	coresIn := map[int]map[int]bool{}
	for i := range m.CPUs {
		c := &m.CPUs[i]
		if coresIn[c.Cluster] == nil {
			coresIn[c.Cluster] = map[int]bool{}
		}
		coresIn[c.Cluster][c.Core] = true
	}
	for i := range m.CPUs {
		c := &m.CPUs[i]
		if len(coresIn[c.Cluster]) < 2 {
			continue
		}
		for j := range m.CPUs {
			o := &m.CPUs[j]
			if o.Cluster == c.Cluster && o.Core != c.Core {
				s.l2Mates[i] = append(s.l2Mates[i], CPUID(j))
			}
		}
	}
	for i := range s.rqs {
		rq := &s.rqs[i]
		rq.speed = rq.capacity
		rq.smtSpeed = rq.capacity * (100 - s.hw.SMTSlowdownPct) / 100
		if len(s.l2Mates[i]) > 0 && s.hw.L2ContentionPct > 0 {
			s.l2Contention = true
		}
	}
}

// busyCPU is the contention model's notion of busy: a task is current.
func (s *Sim) busyCPU(c CPUID) bool { return s.rqs[c].curr != nil }

// effSpeed is the CPU's speed now (capacity when there is no contention).
func (s *Sim) effSpeed(rq *rq) int64 {
	v := rq.capacity
	if !s.contention {
		return v
	}
	if s.hw.SMTSlowdownPct > 0 {
		for _, x := range s.topo[rq.cpu].smt {
			if x != rq.cpu && s.busyCPU(x) {
				v = rq.smtSpeed // capacity * (100 - hw.smt_slowdown_pct) / 100
				break
			}
		}
	}
	if p := s.hw.L2ContentionPct; s.l2Contention && len(s.l2Mates[rq.cpu]) > 0 {
		// Count other busy cores: mates are listed per CPU, so an SMT
		// core counts once per busy thread (E-core clusters have none).
		k := int64(0)
		for _, x := range s.l2Mates[rq.cpu] {
			if s.busyCPU(x) {
				k++
			}
		}
		v = v * max(100-p*k, 10) / 100
	}
	return max(v, 1)
}

// contentionChanged re-times the running segments of the CPUs contending
// with c after c turned busy or idle.
func (s *Sim) contentionChanged(c CPUID) {
	if !s.contention {
		return
	}
	for _, x := range s.topo[c].smt {
		if x != c {
			s.retime(&s.rqs[x])
		}
	}
	for _, x := range s.l2Mates[c] {
		s.retime(&s.rqs[x])
	}
}

// retime restarts rq's running segment at its new speed.
func (s *Sim) retime(rq *rq) {
	t := rq.curr
	if t == nil || t.runLeft <= 0 || s.effSpeed(rq) == rq.speed {
		return
	}
	s.stopRun(rq)
	s.armRun(rq)
}
