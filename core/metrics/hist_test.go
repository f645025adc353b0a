package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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

// dump renders h's summary and entries.
func dump(h *Hist) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%+v exact=%v:", h.Summary(), h.Exact())
	for i, c := range h.vcnt {
		fmt.Fprintf(&b, " %d:%d", h.exactVal(i), c)
	}
	j := 0
	for i, k := range h.keys {
		fmt.Fprintf(&b, " k%d:%d", k, h.bucketCount(i, &j))
	}
	return b.String()
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
		if tc.n == 5000 {
			v[2500] = 3 << 30 // past 32 bits: the exact values widen
			v[2501] = -3 << 30
		}
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
// want: exact below 2^(subBits+1) ns in magnitude, else |got-want| <=
// |want| / 2^(subBits+1).
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
	return d<<(subBits+1) <= m
}

// TestHistBucketsError: past MaxExactValues distinct values the
// histogram is bucketed; each percentile is within 2^-(subBits+1) of the exact one,
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
			t.Errorf("p%d = %d, want %d within 2^-%d", p, got, want, subBits+1)
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
		if lim := int16((64 - subBits) << subBits); k > lim || k < -lim {
			t.Fatalf("bucketKey(%d) = %d, outside the layout", v, k)
		}
		if i > 0 && bucketKey(vals[i-1]) > k {
			t.Fatalf("bucketKey not monotone: %d -> %d, %d -> %d", vals[i-1], bucketKey(vals[i-1]), v, k)
		}
		if m := bucketMid(k); v != math.MinInt64 && !withinError(m, v) {
			t.Fatalf("value %d: bucket %d midpoint %d beyond the error", v, k, m)
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
		if got, w := dump(&p), dump(&want); got != w {
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

// TestHistCountOverflow: an exact count that would pass 2^16 starts
// another entry for the value; a bucket's count carries into its high
// bits, to 2^64.
func TestHistCountOverflow(t *testing.T) {
	var e Hist
	for range 70000 {
		e.Add(42, nil)
	}
	e.Add(43, nil)
	if !e.Exact() || e.Entries() != 3 || e.Quantile(99) != 42 || e.Quantile(100) != 43 || e.Count() != 70001 {
		t.Errorf("70000 x 42 and 43: exact %v, %d entries (want 3), p99 %d, max %d, count %d",
			e.Exact(), e.Entries(), e.Quantile(99), e.Quantile(100), e.Count())
	}
	var h Hist
	h.Add(1000, nil)
	h.toBuckets(nil)
	h.Add(7000, nil)
	h.addKey(bucketKey(1000), math.MaxUint32-1)
	h.addKey(bucketKey(1000), 1<<20)
	h.n += math.MaxUint32 - 1 + 1<<20
	h.Add(5000, nil)
	if h.Entries() != 3 || len(h.khi) != 1 {
		t.Fatalf("%d entries (want 3: 1000, 5000, 7000), %d high counts (want 1)", h.Entries(), len(h.khi))
	}
	j := 0
	if c := h.bucketCount(0, &j); c != math.MaxUint32+1<<20 {
		t.Errorf("bucket of 1000 counts %d, want %d", c, uint64(math.MaxUint32+1<<20))
	}
	if q := h.Quantile(99); !withinError(q, 1000) {
		t.Errorf("p99 = %d, want about 1000", q)
	}
	if q := h.Quantile(100); q != 7000 {
		t.Errorf("max = %d, want 7000", q)
	}
	p := Pool(&h, &h)
	j = 0
	if c := p.bucketCount(0, &j); c != 2*(math.MaxUint32+1<<20) || p.Count() != 2*h.Count() {
		t.Errorf("pooled bucket of 1000 counts %d, want twice %d", c, uint64(math.MaxUint32+1<<20))
	}
}
