package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// histOf records v into a histogram without a budget.
func histOf(v []int64) *Hist {
	var h Hist
	for _, x := range v {
		h.Add(x, nil)
	}
	return &h
}

// nearestRank is the reference: the ceil(p/100*n)-th smallest of v.
func nearestRank(v []int64, p int) int64 {
	return rankSorted(slices.Sorted(slices.Values(v)), p)
}

// rankSorted is nearestRank of sorted s.
func rankSorted(s []int64, p int) int64 {
	if len(s) == 0 {
		return 0
	}
	i := (p*len(s) + 99) / 100
	return s[max(i, 1)-1]
}

// samples draws n latencies from distinct values of a spread like the
// simulator's: mostly a few microseconds, a tail of milliseconds, some
// negative (timer latency within slack).
func samples(rng *rand.Rand, n, distinct int) []int64 {
	pool := make([]int64, distinct)
	for i := range pool {
		switch rng.IntN(10) {
		case 0:
			pool[i] = -rng.Int64N(50_000)
		case 1:
			pool[i] = rng.Int64N(20_000_000)
		default:
			pool[i] = 500 + rng.Int64N(20_000)
		}
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = pool[rng.IntN(distinct)]
	}
	return v
}

// TestHistExact: below the bounds every percentile, the mean, the count
// and the max are those of the sorted samples.
func TestHistExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ n, distinct int }{{1, 1}, {7, 3}, {100, 100}, {5000, 40}, {20000, MaxExactValues}} {
		v := samples(rng, tc.n, tc.distinct)
		h := histOf(v)
		if !h.Exact() {
			t.Fatalf("n=%d distinct=%d: not exact", tc.n, tc.distinct)
		}
		for p := 0; p <= 100; p++ {
			if got, want := h.Quantile(p), nearestRank(v, p); got != want {
				t.Fatalf("n=%d distinct=%d: p%d = %d, want %d (seed 1,2)", tc.n, tc.distinct, p, got, want)
			}
		}
		var sum int64
		for _, x := range v {
			sum += x
		}
		s := h.Summary()
		if s.Count != int64(len(v)) || s.Mean != sum/int64(len(v)) || s.Max != slices.Max(v) {
			t.Errorf("n=%d: summary %+v, want count %d mean %d max %d", tc.n, s, len(v), sum/int64(len(v)), slices.Max(v))
		}
	}
}

// withinError reports whether got is within the buckets' stated error of
// want: exact below 256 ns in magnitude, else |got-want| <= |want|/256.
func withinError(got, want int64) bool {
	d, m := got-want, want
	if d < 0 {
		d = -d
	}
	if m < 0 {
		m = -m
	}
	if m < 2<<subBits {
		return d == 0
	}
	return d*256 <= m
}

// TestHistBucketsError: past MaxExactValues distinct values the
// histogram is bucketed; each percentile is within 2^-8 of the exact one,
// count, mean and max stay exact.
func TestHistBucketsError(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	v := samples(rng, 200_000, 50_000)
	v = append(v, 0, 1, 255, 256, 257, -300)
	h := histOf(v)
	if h.Exact() {
		t.Fatal("50000 distinct values: still exact")
	}
	sorted := slices.Sorted(slices.Values(v))
	for p := 0; p <= 100; p++ {
		got, want := h.Quantile(p), rankSorted(sorted, p)
		if !withinError(got, want) {
			t.Errorf("p%d = %d, want %d within 1/256", p, got, want)
		}
	}
	var sum int64
	for _, x := range v {
		sum += x
	}
	if s := h.Summary(); s.Count != int64(len(v)) || s.Mean != sum/int64(len(v)) || s.Max != slices.Max(v) {
		t.Errorf("summary %+v: count, mean or max not exact", s)
	}
	if span := int(bucketKey(slices.Max(v))-bucketKey(slices.Min(v))) + 1; h.Entries() > span {
		t.Errorf("%d bucket entries: more than the %d buckets between min and max", h.Entries(), span)
	}
}

// TestBucketKeyLayout: keys are monotone in the value, and every value is
// within the stated error of its bucket's midpoint, over the whole range.
func TestBucketKeyLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 40, -257, -256, -1, 0, 1, 127, 128, 255, 256, 511, 512, 1 << 40, math.MaxInt64}
	for range 20000 {
		vals = append(vals, rng.Int64()>>rng.IntN(63)*(1-2*rng.Int64N(2)))
	}
	slices.Sort(vals)
	for i, v := range vals {
		k := bucketKey(v)
		if k >= 7424 || k <= -7424 {
			t.Fatalf("bucketKey(%d) = %d, outside the layout", v, k)
		}
		if i > 0 && bucketKey(vals[i-1]) > k {
			t.Fatalf("bucketKey not monotone: %d -> %d, %d -> %d", vals[i-1], bucketKey(vals[i-1]), v, k)
		}
		if m := bucketMid(k); v != math.MinInt64 && !withinError(m, v) {
			t.Fatalf("value %d: bucket %d midpoint %d beyond 1/256", v, k, m)
		}
	}
}

// TestHistBudget: histograms sharing a budget stay exact while it lasts;
// the one that would exceed it switches to buckets and gives its entries
// back, so another can grow.
func TestHistBudget(t *testing.T) {
	b := NewBudget(10)
	var a, c Hist
	for i := range 6 {
		a.Add(int64(1000+i), b)
	}
	for i := range 4 {
		c.Add(int64(5000+i), b)
	}
	if !a.Exact() || !c.Exact() || b.left != 0 {
		t.Fatalf("within the budget: exact %v %v, left %d", a.Exact(), c.Exact(), b.left)
	}
	c.Add(5000, b) // a repeated value needs no entry
	if !c.Exact() {
		t.Fatal("a repeated value switched the histogram to buckets")
	}
	a.Add(2000, b)
	if a.Exact() || b.left != 6 {
		t.Fatalf("past the budget: a exact %v, left %d (want buckets, 6 back)", a.Exact(), b.left)
	}
	c.Add(9999, b)
	if !c.Exact() || b.left != 5 {
		t.Fatalf("after a gave back: c exact %v, left %d", c.Exact(), b.left)
	}
	if a.Count() != 7 || a.Quantile(100) != 2000 || a.Quantile(1) != 1000 {
		t.Errorf("bucketed a: count %d max %d min %d", a.Count(), a.Quantile(100), a.Quantile(1))
	}
}

// TestPoolLossless: a pool of exact histograms is the exact histogram of
// all the samples; a pool with a bucketed member is exactly the bucketed
// histogram of all the samples.
func TestPoolLossless(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 20 {
		parts := 1 + rng.IntN(6)
		var all []int64
		hs := make([]*Hist, parts)
		bucketed := trial%2 == 1
		for i := range hs {
			v := samples(rng, rng.IntN(3000), 1+rng.IntN(2000))
			all = append(all, v...)
			hs[i] = &Hist{}
			var b *Budget
			if bucketed && i == 0 {
				b = NewBudget(0)
			}
			for _, x := range v {
				hs[i].Add(x, b)
			}
		}
		p := Pool(append(hs, nil)...)
		var want Hist
		if bucketed {
			want.toBuckets(nil)
		}
		for _, x := range all {
			want.Add(x, nil)
		}
		if len(all) > 0 && bucketed == p.Exact() {
			t.Fatalf("trial %d: pool exact %v, want %v", trial, p.Exact(), !bucketed)
		}
		if got, w := fmt.Sprint(p.Summary(), p.cnts, p.keys), fmt.Sprint(want.Summary(), want.cnts, want.keys); got != w {
			t.Fatalf("trial %d (%d parts, bucketed %v): pool\n %s\nwant\n %s", trial, parts, bucketed, got, w)
		}
		for q := 0; q <= 100; q++ {
			if p.Quantile(q) != want.Quantile(q) {
				t.Fatalf("trial %d: pool p%d %d, direct %d", trial, q, p.Quantile(q), want.Quantile(q))
			}
			if !bucketed && p.Quantile(q) != nearestRank(all, q) {
				t.Fatalf("trial %d: exact pool p%d %d, nearest rank %d", trial, q, p.Quantile(q), nearestRank(all, q))
			}
		}
	}
}

// TestHistCountOverflow: a count that would pass 2^32 starts another entry
// for the same bucket (or value) instead of wrapping.
func TestHistCountOverflow(t *testing.T) {
	var h Hist
	h.Add(1000, nil)
	h.toBuckets(nil)
	h.addKey(bucketKey(1000), math.MaxUint32-1)
	h.addKey(bucketKey(1000), 5)
	h.n += math.MaxUint32 - 1 + 5
	h.addKey(bucketKey(5000), 1)
	h.n++
	h.max = 5000
	if h.Entries() != 3 {
		t.Fatalf("%d entries, want 3 (the full bucket, its overflow, 5000)", h.Entries())
	}
	if q := h.Quantile(99); !withinError(q, 1000) {
		t.Errorf("p99 = %d, want about 1000", q)
	}
	if q := h.Quantile(100); q != 5000 {
		t.Errorf("max = %d, want 5000", q)
	}
}
