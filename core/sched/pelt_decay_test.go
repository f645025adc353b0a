package sched

import (
	"math/rand/v2"
	"testing"
)

// TestDecayShiftedMatchesDecayLoad: accumulate_sum()'s split decay gives
// decay_load()'s bits for every n it is used for and values across the
// range of the sums.
func TestDecayShiftedMatchesDecayLoad(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []uint64{0, 1, 1023, 1024, loadAvgMax, 1<<32 - 1, 1 << 32, 1<<63 + 12345, 1<<64 - 1}
	for range 200 {
		vals = append(vals, rng.Uint64(), rng.Uint64()>>rng.IntN(64))
	}
	for n := uint64(1); n <= loadAvgPeriod*63; n++ {
		sh, y := uint(n/loadAvgPeriod), uint64(runnableAvgYNInv[n%loadAvgPeriod])
		for _, v := range vals {
			if got, want := decayShifted(v, sh, y), decayLoad(v, n); got != want {
				t.Fatalf("decay of %d by %d periods: split %d, decay_load %d", v, n, got, want)
			}
		}
	}
}
