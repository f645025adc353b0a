package sched

// Load weights and the fixed-point arithmetic that turns wall time into
// virtual time.
//
// Mirrors kernel/sched/core.c sched_prio_to_weight[] / sched_prio_to_wmult[],
// set_load_weight(), and kernel/sched/fair.c __calc_delta() (v4.x+) and
// calc_delta_mine() (v3.x). Weights are kept at the kernel's internal
// resolution: on 64-bit kernels since v4.? scale_load() shifts by
// SCHED_FIXEDPOINT_SHIFT (10), so nice 0 is 1<<20 internally; v3.11 had that
// scaling disabled ("#if 0 ... currently broken") so nice 0 is 1024. The
// rounding of the multiply-and-shift is reproduced exactly, because vruntime
// comparisons at the nanosecond level decide ties between equal tasks.

import "math/bits"

// sched_prio_to_weight, nice -20..19.
var prioToWeight = [40]int64{
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
}

// sched_prio_to_wmult: 2^32/weight.
var prioToWmult = [40]uint32{
	48388, 59856, 76040, 92818, 118348,
	147320, 184698, 229616, 287308, 360437,
	449829, 563644, 704093, 875809, 1099582,
	1376151, 1717300, 2157191, 2708050, 3363326,
	4194304, 5237765, 6557202, 8165337, 10153587,
	12820798, 15790321, 19976592, 24970740, 31350126,
	39045157, 49367440, 61356676, 76695844, 95443717,
	119304647, 148102320, 186737708, 238609294, 286331153,
}

const (
	weightIdlePrio = 3          // WEIGHT_IDLEPRIO
	wmultIdlePrio  = 1431655765 // WMULT_IDLEPRIO
	wmultConst     = 0xffffffff // WMULT_CONST (~0U) since v4.x
	wmultConstV3   = 1 << 32    // WMULT_CONST (1UL << 32) on 64-bit v3.x
	wmultShift     = 32         // WMULT_SHIFT
)

// loadWeight is struct load_weight: a weight at kernel resolution plus its
// cached inverse (0 = not computed yet, as the kernel does for cfs_rq loads).
// The inverse is u32 since v4.x; v3.x kept an unsigned long, which can hold
// 2^32 (WMULT_CONST/1), hence 64 bits here.
type loadWeight struct {
	weight    int64
	invWeight uint64
}

// arith holds the per-profile fixed-point parameters.
type arith struct {
	shift   uint // SCHED_FIXEDPOINT_SHIFT applied by scale_load(): 10 or 0
	legacy  bool // use v3.x calc_delta_mine() rounding
	nice0   int64
	clampLo bool // scale_load_down() clamps non-zero weights to >= 2
}

func (a *arith) scaleLoad(w int64) int64 { return w << a.shift }

// scaleLoadDown mirrors scale_load_down(). The common case (a weight well
// above the clamp) is one shift and one compare: it runs several times
// per engine event (the avg_vruntime sums, PELT's se_weight()).
func (a *arith) scaleLoadDown(w int64) int64 {
	v := w >> (a.shift & 63)
	if v < 2 && a.clampLo && a.shift != 0 && w != 0 {
		return 2 // max(2, w >> shift) for a non-zero weight
	}
	return v
}

// taskWeight mirrors set_load_weight() for the fair policies.
func (a *arith) taskWeight(policy Policy, nice int) loadWeight {
	if policy == SchedIdle {
		return loadWeight{weight: a.scaleLoad(weightIdlePrio), invWeight: wmultIdlePrio}
	}
	i := nice + 20
	return loadWeight{weight: a.scaleLoad(prioToWeight[i]), invWeight: uint64(prioToWmult[i])}
}

// updateInvWeight mirrors __update_inv_weight().
func (a *arith) updateInvWeight(lw *loadWeight) {
	if lw.invWeight != 0 {
		return
	}
	w := a.scaleLoadDown(lw.weight)
	c := int64(wmultConst)
	if a.legacy {
		c = wmultConstV3
	}
	switch {
	case w >= c:
		lw.invWeight = 1
	case w == 0:
		lw.invWeight = uint64(c)
	default:
		lw.invWeight = uint64(c / w)
	}
}

// calcDelta returns delta * weight / lw.weight with the kernel's rounding.
func (a *arith) calcDelta(delta int64, weight int64, lw *loadWeight) int64 {
	if delta <= 0 {
		return delta // callers never pass negative deltas; keep sign if they do
	}
	a.updateInvWeight(lw)
	if a.legacy {
		return calcDeltaMine(uint64(delta), uint64(weight), lw.invWeight)
	}
	return int64(calcDeltaV4(uint64(delta), uint64(a.scaleLoadDown(weight)), uint32(lw.invWeight)))
}

// calcDeltaV4 mirrors __calc_delta() (v4.x onwards).
func calcDeltaV4(delta, fact uint64, inv uint32) uint64 {
	shift := uint(wmultShift)
	if hi := uint32(fact >> 32); hi != 0 {
		fs := uint(bits.Len32(hi))
		shift -= fs
		fact >>= fs
	}
	fact = uint64(uint32(fact)) * uint64(inv)
	if hi := uint32(fact >> 32); hi != 0 {
		fs := uint(bits.Len32(hi))
		shift -= fs
		fact >>= fs
	}
	return mulU64U32Shr(delta, uint32(fact), shift)
}

// mulU64U32Shr mirrors mul_u64_u32_shr(): (a*mul) >> shift with a 96-bit product.
func mulU64U32Shr(a uint64, mul uint32, shift uint) uint64 {
	hi, lo := bits.Mul64(a, uint64(mul))
	if shift == 0 {
		return lo
	}
	return hi<<(64-shift) | lo>>shift
}

// calcDeltaMine mirrors v3.x calc_delta_mine() with SCHED_LOAD_RESOLUTION 0
// on 64-bit (WMULT_CONST = 1UL << 32).
func calcDeltaMine(delta, weight uint64, inv uint64) int64 {
	tmp := delta
	if weight > 1 {
		tmp = delta * weight
	}
	srr := func(x uint64, y uint) uint64 { return (x + (1 << (y - 1))) >> y }
	if tmp > wmultConstV3 {
		tmp = srr(srr(tmp, wmultShift/2)*inv, wmultShift/2)
	} else {
		tmp = srr(tmp*inv, wmultShift)
	}
	if tmp > 1<<63-1 {
		tmp = 1<<63 - 1
	}
	return int64(tmp)
}

// calcDeltaFair mirrors calc_delta_fair(): delta scaled by NICE_0_LOAD/w.
func (a *arith) calcDeltaFair(delta int64, lw *loadWeight) int64 {
	if lw.weight != a.nice0 {
		return a.calcDelta(delta, a.nice0, lw)
	}
	return delta
}
