package sched

// The idle hint: a word-wise candidate mask for find_new_ilb()
// (kernel/sched/fair.c), which takes the first CPU of
// nohz.idle_cpus_mask. The kernel keeps that mask as CPUs stop and restart
// their tick (rq.nohzTickStopped, nohz_mask.go); find_new_ilb() wants a
// member that is also idle_cpu(), and scanning every runqueue for one on
// a busy 256-CPU machine, at every tick that finds none
// (nohzBalancerKick() then returns without moving nohz.next_balance, so
// the next tick scans again), is what the hint avoids.
//
// The hint is a superset, kept lazily: a CPU's bit is set whenever the
// CPU may have become idle (its current task is cleared, or its fair
// nr_running drops: noteMayIdle at those sites) and cleared only by the
// scan that finds the CPU running or with fair tasks queued. The scan
// still tests membership and idleCPU() of each candidate, so it finds the
// same CPU as the full scan: every idle CPU has its bit set (checked after
// every event under -tags invariants), and the RT and deadline conditions
// of idle_cpu() are read live.

import (
	"fmt"
	"math/bits"
)

// noteMayIdle marks rq's CPU as a candidate of the idle hint.
func (s *Sim) noteMayIdle(rq *rq) {
	s.idleHint[rq.cpu>>6] |= 1 << (uint(rq.cpu) & 63)
}

// firstIdleOther returns the first CPU other than self, in index order,
// that is in nohz.idle_cpus_mask (nohz_mask.go: so it has sched domains)
// and idle (idleCPU), or -1; it clears the
// hint of the candidates it finds busy.
func (s *Sim) firstIdleOther(self CPUID) CPUID {
	for w, word := range s.idleHint {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			c := CPUID(w<<6 | b)
			rq := &s.rqs[c]
			if rq.curr != nil || rq.nrRunning != 0 {
				s.idleHint[w] &^= 1 << uint(b)
				continue
			}
			if c != self && rq.nohzTickStopped && s.idleCPU(c) {
				return c
			}
		}
	}
	return -1
}

// checkIdleHint panics when an idle CPU is missing from the hint (the
// invariant the scan relies on).
func (s *Sim) checkIdleHint() {
	for i := range s.rqs {
		rq := &s.rqs[i]
		if rq.curr == nil && rq.nrRunning == 0 && s.idleHint[i>>6]&(1<<(uint(i)&63)) == 0 {
			panic(fmt.Sprintf("invariant: cpu %d has no current task and no fair task queued but is not in the idle hint at %s", i, s.now))
		}
	}
}
