package topology

// SMT control: `echo off > /sys/devices/system/cpu/smt/control`
// (kernel/cpu.c cpuhp_smt_disable()) takes every SMT sibling but the
// primary thread of each core offline; the sched domains are rebuilt
// without them (no SMT level).

// WithoutSMT returns m with only the lowest-numbered thread of each core.
// On the Intel servers the primary threads are CPUs 0..N-1 and keep their
// numbers; elsewhere (siblings numbered next to each other) the remaining
// CPUs are renumbered 0..n-1 in order, SIMPLIFIED: Linux keeps the ids and
// leaves holes, the simulator needs dense ids. Name is kept (same silicon,
// same calibrated costs).
func (m Machine) WithoutSMT() Machine {
	out := m
	out.CPUs = nil
	seen := map[int]bool{}
	for _, c := range m.CPUs { // CPUs are in id order (Validate)
		if seen[c.Core] {
			continue
		}
		seen[c.Core] = true
		c.ID = len(out.CPUs)
		out.CPUs = append(out.CPUs, c)
	}
	if len(out.CPUs) < len(m.CPUs) {
		out.Summary = m.Summary + ", SMT off"
	}
	return out
}

// HasSMT reports whether some core has more than one thread.
func (m *Machine) HasSMT() bool {
	seen := map[int]bool{}
	for _, c := range m.CPUs {
		if seen[c.Core] {
			return true
		}
		seen[c.Core] = true
	}
	return false
}
