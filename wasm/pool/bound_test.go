package pool

import "testing"

func TestBestMakespan(t *testing.T) {
	for _, c := range []struct {
		ms         []float64
		n          int
		lower, got float64
	}{
		{[]float64{1, 1, 1, 1, 1}, 2, 2.5, 3},     // five equal jobs: one worker runs three
		{[]float64{3, 3, 2, 2, 2}, 2, 6, 6},       // 3+3 / 2+2+2, which longest-first misses (7)
		{[]float64{10, 1, 1}, 2, 10, 10},          // the longest job bounds it
		{[]float64{4, 4}, 1, 8, 8},                // one worker: the sum
		{[]float64{5, 4, 3, 3, 3}, 3, 6, 7},       // 5 / 4+3 / 3+3
		{append(make([]float64, 17), 2), 2, 2, 2}, // past exactJobs: longest first
		{[]float64{}, 2, 0, 0},
	} {
		if lb := LowerBound(c.ms, c.n); lb != c.lower {
			t.Errorf("LowerBound(%v, %d) = %v, want %v", c.ms, c.n, lb, c.lower)
		}
		if got := BestMakespan(c.ms, c.n); got != c.got {
			t.Errorf("BestMakespan(%v, %d) = %v, want %v", c.ms, c.n, got, c.got)
		}
	}
}
