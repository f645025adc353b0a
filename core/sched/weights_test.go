package sched

// The fixed-point weight arithmetic against references written from the
// kernel rules (docs/kernel-rules.md §1.2, §2.2, §7.1).

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestPrioToWeightTable(t *testing.T) {
	// Anchors of sched_prio_to_weight[] and its construction: each nice
	// level is ~1.25x the next ("10% CPU per nice level").
	for nice, want := range map[int]int64{-20: 88761, -10: 9548, 0: 1024, 5: 335, 10: 110, 19: 15} {
		if got := prioToWeight[nice+20]; got != want {
			t.Errorf("weight of nice %d = %d, want %d", nice, got, want)
		}
	}
	for i := 1; i < len(prioToWeight); i++ {
		r := float64(prioToWeight[i-1]) / float64(prioToWeight[i])
		if r < 1.2 || r > 1.3 {
			t.Errorf("weight ratio nice %d/%d = %.3f, want ~1.25", i-21, i-20, r)
		}
	}
	// sched_prio_to_wmult[] is 2^32/w, within rounding.
	for i, w := range prioToWeight {
		exact := float64(uint64(1)<<32) / float64(w)
		if d := float64(prioToWmult[i]) - exact; d < -1 || d > 1 {
			t.Errorf("wmult of nice %d = %d, want 2^32/%d = %.1f", i-20, prioToWmult[i], w, exact)
		}
	}
}

func TestSchedIdleWeight(t *testing.T) {
	for _, name := range ProfileNames() {
		p, _ := ProfileByName(name)
		lw := p.arith.taskWeight(SchedIdle, 0)
		if got := p.arith.scaleLoadDown(lw.weight); got != 3 {
			t.Errorf("%s: SCHED_IDLE weight %d, want WEIGHT_IDLEPRIO 3", name, got)
		}
		// A SCHED_IDLE task's nice level does not change its weight.
		if lw2 := p.arith.taskWeight(SchedIdle, -20); lw2 != lw {
			t.Errorf("%s: SCHED_IDLE weight depends on nice", name)
		}
	}
}

// TestCalcDeltaV4MatchesReference compares __calc_delta (v4+) with the
// big-integer reference on random deltas, for task weights (table
// inverses) and runqueue loads (computed inverses).
func TestCalcDeltaV4MatchesReference(t *testing.T) {
	p, _ := ProfileByName("v5.8")
	a := p.arith
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		delta := rng.Int64N(int64(10 * Second))
		nice := rng.IntN(40) - 20
		se := a.taskWeight(SchedOther, nice)
		if got, want := a.calcDeltaFair(delta, &se), refCalcDeltaFair(delta, se.weight, uint64(se.invWeight)); got != want {
			t.Fatalf("calc_delta_fair(%d, nice %d) = %d, reference %d", delta, nice, got, want)
		}
		// A runqueue of 1..8 random tasks.
		var load int64
		for range 1 + rng.IntN(8) {
			load += a.taskWeight(SchedOther, rng.IntN(40)-20).weight
		}
		lw := loadWeight{weight: load}
		if got, want := a.calcDelta(delta, se.weight, &lw), refCalcDelta(delta, se.weight>>10, load>>10, 0); got != want {
			t.Fatalf("__calc_delta(%d, %d, %d) = %d, reference %d", delta, se.weight, load, got, want)
		}
	}
}

// refCalcDeltaMine is v3.x calc_delta_mine() on 64-bit (docs/kernel-rules.md
// §2.2): tmp = delta * weight; inv = WMULT_CONST / lw with WMULT_CONST =
// 1UL << 32 on 64-bit; SRR(x, y) = (x + 2^(y-1)) >> y rounds half up.
func refCalcDeltaMine(delta, weight, lw int64, inv uint64) int64 {
	if inv == 0 {
		inv = (uint64(1) << 32) / uint64(lw)
	}
	srr := func(x *big.Int, y uint) *big.Int {
		x = new(big.Int).Add(x, new(big.Int).Lsh(big.NewInt(1), y-1))
		return x.Rsh(x, y)
	}
	tmp := new(big.Int).Mul(big.NewInt(delta), big.NewInt(weight))
	binv := new(big.Int).SetUint64(inv)
	if tmp.Cmp(new(big.Int).Lsh(big.NewInt(1), 32)) > 0 {
		tmp = srr(new(big.Int).Mul(srr(tmp, 16), binv), 16)
	} else {
		tmp = srr(new(big.Int).Mul(tmp, binv), 32)
	}
	return tmp.Int64()
}

func TestCalcDeltaMineTaskWeights(t *testing.T) {
	// With a task's weight as the divisor the inverse comes from
	// prio_to_wmult[], so only the rounding is under test.
	p, _ := ProfileByName("v3.11")
	a := p.arith
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		delta := rng.Int64N(int64(10 * Second))
		se := a.taskWeight(SchedOther, rng.IntN(40)-20)
		want := delta // calc_delta_fair() skips the math for NICE_0_LOAD
		if se.weight != 1024 {
			want = refCalcDeltaMine(delta, 1024, se.weight, uint64(se.invWeight))
		}
		if got := a.calcDeltaFair(delta, &se); got != want {
			t.Fatalf("v3.11 calc_delta_fair(%d, w=%d) = %d, reference %d", delta, se.weight, got, want)
		}
	}
}

func TestCalcDeltaMineRunqueueInverse(t *testing.T) {
	// Regression: v3.11 once used 0xFFFFFFFF/w (the v4+ WMULT_CONST) here.
	p, _ := ProfileByName("v3.11")
	a := p.arith
	// sched_slice of one of two nice-0 tasks: 6ms * 1024 / 2048.
	// tmp = 6144000000 > 2^32: SRR(SRR(tmp, 16) * (2^32/2048), 16) =
	// SRR(93750 * 2097152, 16) = 3000000 exactly.
	lw := loadWeight{weight: 2048}
	if got := a.calcDelta(6*int64(Millisecond), 1024, &lw); got != 3000000 {
		t.Errorf("v3.11 sched_slice(2 nice-0 tasks) = %d, want 3000000", got)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		delta := rng.Int64N(int64(Second))
		load := int64(0)
		for range 1 + rng.IntN(8) {
			load += prioToWeight[rng.IntN(40)]
		}
		lw := loadWeight{weight: load}
		if got, want := a.calcDelta(delta, 1024, &lw), refCalcDeltaMine(delta, 1024, load, 0); got != want {
			t.Fatalf("v3.11 calc_delta_mine(%d, 1024, %d) = %d, reference %d", delta, load, got, want)
		}
	}
}
