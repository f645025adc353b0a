package sched

// Brute-force references for the EEVDF arithmetic, written from the kernel
// rules in docs/kernel-rules.md §1.2-1.6 with exact integers (math/big), so
// that neither overflow nor the kernel's relative-key bookkeeping can hide a
// mistake:
//
//   - V = floor(Σ v_i w_i / Σ w_i) over curr (when on_rq) and the queue, with
//     w_i = scale_load_down(weight) (avg_vruntime(): keys relative to
//     min_vruntime, floored; the reference point cancels out exactly);
//   - eligible(v) <=> v * Σ w_i <= Σ v_i w_i (vruntime_eligible() without
//     division; v <= V exactly);
//   - __pick_eevdf() (v6.12+): nr_queued == 1 -> the only entity; otherwise
//     the eligible queued entity with the earliest deadline, ties to the
//     earliest in tree order, replaced by curr only when curr is eligible
//     and its deadline is strictly earlier (entity_before());
//   - calc_delta_fair() = __calc_delta(delta, NICE_0_LOAD, lw) with the
//     kernel's fixed point: fact = 1024 * inv_weight, normalised to 32 bits,
//     (delta * fact) >> shift.

import "math/big"

// refSums returns Σ v_i w_i and Σ w_i over ents.
func refSums(s *Sim, ents []*Task) (sum, load *big.Int) {
	sum, load = new(big.Int), new(big.Int)
	for _, t := range ents {
		w := big.NewInt(s.scaledWeight(t))
		sum.Add(sum, new(big.Int).Mul(big.NewInt(t.se.vruntime), w))
		load.Add(load, w)
	}
	return sum, load
}

// refAvgVruntime is floor(Σ v_i w_i / Σ w_i); ok is false for no entities.
func refAvgVruntime(s *Sim, ents []*Task) (v int64, ok bool) {
	sum, load := refSums(s, ents)
	if load.Sign() == 0 {
		return 0, false
	}
	q, m := new(big.Int).DivMod(sum, load, new(big.Int)) // Euclidean: floor for load > 0
	_ = m
	if !q.IsInt64() {
		panic("refAvgVruntime: V out of int64 range")
	}
	return q.Int64(), true
}

// refEligible is v <= V with exact rationals.
func refEligible(s *Sim, ents []*Task, v int64) bool {
	sum, load := refSums(s, ents)
	return new(big.Int).Mul(big.NewInt(v), load).Cmp(sum) <= 0
}

// refPick612 is __pick_eevdf(cfs_rq, protect=false) of v6.12/v6.18.
func refPick612(s *Sim, fq fairRq) *Task {
	q := fq.q
	if q.nrQueued == 1 {
		if q.curr != nil && q.curr.se.onRq {
			return q.curr
		}
		return q.first()
	}
	var best *Task
	for _, t := range q.queue {
		if !refEligible(s, fq.entities, t.se.vruntime) {
			continue
		}
		if best == nil || t.se.deadline < best.se.deadline {
			best = t
		}
	}
	curr := q.curr
	if curr != nil && curr.se.onRq && refEligible(s, fq.entities, curr.se.vruntime) {
		if best == nil || curr.se.deadline < best.se.deadline {
			best = curr
		}
	}
	return best
}

// refCalcDeltaFair is calc_delta_fair(delta, se) for the v4+ arithmetic
// (NICE_0_LOAD = 1 << 20, scale_load_down by 10 bits), from the pseudo-code
// of __calc_delta in docs/kernel-rules.md §1.2.
func refCalcDeltaFair(delta int64, weight int64, invWeight uint64) int64 {
	if weight == 1<<20 {
		return delta
	}
	return refCalcDelta(delta, 1024, weight>>10, invWeight)
}

// refCalcDelta is __calc_delta(delta, weight, lw) with scaled-down weights
// w (the multiplier) and lw; invWeight is lw's cached inverse, 0 for a
// runqueue load, whose inverse __update_inv_weight() computes as
// WMULT_CONST / lw with WMULT_CONST = ~0U.
func refCalcDelta(delta int64, w int64, lw int64, invWeight uint64) int64 {
	fact := uint64(w)
	shift := uint(32)
	inv := invWeight
	if inv == 0 {
		inv = 0xFFFFFFFF / uint64(lw)
	}
	fact *= inv // w * inv < 2^52 for the weights used here: fits
	for fact>>32 != 0 {
		// fls(fact >> 32) bits off, in one step as the kernel does; the
		// loop form of 5.9 gives the same result.
		fs := uint(0)
		for x := fact >> 32; x != 0; x >>= 1 {
			fs++
		}
		shift -= fs
		fact >>= fs
	}
	p := new(big.Int).Mul(big.NewInt(delta), new(big.Int).SetUint64(fact))
	p.Rsh(p, shift)
	return p.Int64()
}
