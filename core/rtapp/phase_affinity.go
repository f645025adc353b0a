package rtapp

// Per-phase "cpus" on import.
//
// Mirrors rt-app's thread_body(): at the start of every phase (each of its
// loop iterations) set_thread_affinity() picks the phase's cpuset, else the
// thread's, else the affinity the thread was created with (all CPUs), and
// calls sched_setaffinity() only when that differs from the current one.
// The import writes an affinity step at the start of a phase whose
// effective mask differs from the previous phase's (for the first phase:
// from the last phase's, as the thread loop wraps, or from the thread's
// initial affinity), before the phase's loop: inside it the mask does not
// change, so rt-app's per-iteration call is a no-op.

import "schedplay/core/scenario"

// phaseAffinity assembles a thread's program from its phase bodies, with
// the affinity steps the phases' own cpus need. thread is the thread's
// cpus (nil: all).
func phaseAffinity(thread []int, phaseCPUs [][]int, bodies [][]scenario.Step) []scenario.Step {
	eff := func(i int) []int {
		if phaseCPUs[i] != nil {
			return phaseCPUs[i]
		}
		return thread
	}
	changes := false
	for i := range phaseCPUs {
		if !sameMask(eff(i), thread) {
			changes = true
		}
	}
	var out []scenario.Step
	for i, body := range bodies {
		if changes {
			prev := eff(len(bodies) - 1)
			if i > 0 {
				prev = eff(i - 1)
			}
			if !sameMask(eff(i), prev) || (i == 0 && !sameMask(eff(0), thread)) {
				out = append(out, scenario.Step{Kind: "affinity", Affinity: eff(i)})
			}
		}
		out = append(out, body...)
	}
	return out
}

// sameMask compares CPU lists as sets; nil is every CPU.
func sameMask(a, b []int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameSet(a, b)
}
