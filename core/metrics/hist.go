package metrics

// Hist: the latency samples of one task (wakeup or timer latency) in
// memory that does not grow with simulated time, in the manner of Gil
// Tene's HdrHistogram (log-linear buckets). Kernel analogue: none; it
// keeps what `perf sched latency` and cyclictest's histogram (-h) keep, a
// count per value range, and what they print (count, mean, max) exactly.
//
// Exact first: while a histogram holds at most [MaxExactValues] distinct
// values and the run's [Budget] of exact entries lasts, it keeps every
// distinct value with its count, so its percentiles are the nearest-rank
// percentiles of the samples themselves (the report's definition), to the
// nanosecond. Simulated latencies repeat (a periodic task meets the same
// few wakeup paths), so every preset stays exact (docs/engine.md, Memory).
//
// Then buckets: a histogram that would exceed either bound re-files its
// values into log-linear buckets (hist_buckets.go), 64 per power of two,
// and reports a percentile as its bucket's midpoint clamped to the
// samples' range: relative error at most 2^-7 (0.78 %), none below
// 128 ns. Count, mean, max and the minimum (p0, a rank of 1) stay exact
// in both forms.
//
// Pooling ([Pool]: a task group, a cgroup, the whole run) is lossless:
// exact histograms pool into the exact histogram of all their samples,
// and a pool with any bucketed member is exactly the bucketed histogram
// of all the samples (bucket counts add).

import "math"

// MaxExactValues bounds the distinct values one histogram keeps exactly
// (6 bytes each, 10 past 2.1 s; an insertion moves at most this many
// entries).
const MaxExactValues = 4096

// DefaultExactEntries is the exact entries a Collector or a Samples lets
// all of its histograms keep together: at most about 0.4 MB per run (6
// bytes an entry, or 10 past 2.1 s). The largest preset run needs 60,000
// (seed/newidle-rt-latency with 144 CPUs; docs/engine.md, Memory).
const DefaultExactEntries = 1 << 16

// Budget is the exact entries left to the histograms that share it (one
// run's). Histograms that switch to buckets give theirs back.
type Budget struct{ left int }

// NewBudget returns a budget of n exact entries.
func NewBudget(n int) *Budget { return &Budget{left: n} }

// Hist summarises int64 samples (ns). The zero value is an empty exact
// histogram.
type Hist struct {
	n, sum   int64
	min, max int64
	bucketed bool
	// Exact: the distinct values ascending, in v32 (6 bytes an entry with
	// the count) until one needs more than 32 bits (2.1 s), then in v64
	// (wide), and their counts; a value repeats only when its previous
	// entry's count is full. Bucketed: the bucket keys ascending and the
	// low 16 bits of their counts (4 bytes an entry), the higher bits of
	// the few that passed 65535 in khi (hist_buckets.go).
	wide bool
	v32  []int32
	v64  []int64
	vcnt []uint16
	keys []int16
	klo  []uint16
	khi  []hiCount
}

// Count is the number of samples.
func (h *Hist) Count() int64 { return h.n }

// Exact reports whether the percentiles are exact.
func (h *Hist) Exact() bool { return !h.bucketed }

// Entries is the number of stored (value or bucket, count) entries.
func (h *Hist) Entries() int { return len(h.vcnt) + len(h.keys) }

// Add records sample v. b is the run's exact budget (nil: unbounded but
// for MaxExactValues).
func (h *Hist) Add(v int64, b *Budget) {
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if h.n == 0 || v > h.max {
		h.max = v
	}
	h.n++
	h.sum += v
	if h.bucketed {
		h.addKey(bucketKey(v), 1)
		return
	}
	if !h.wide && v != int64(int32(v)) {
		h.widen()
	}
	ok := false
	if h.wide {
		h.v64, ok = addExact(h, h.v64, v, b)
	} else {
		h.v32, ok = addExact(h, h.v32, int32(v), b)
	}
	if !ok {
		h.toBuckets(b)
		h.addKey(bucketKey(v), 1)
	}
}

// addExact counts v in the exact entries vals (h.v32 or h.v64), or
// reports false when it needs an entry that MaxExactValues or b refuses.
func addExact[T int32 | int64](h *Hist, vals []T, v T, b *Budget) ([]T, bool) {
	i := upper(vals, v)
	if i > 0 && vals[i-1] == v && h.vcnt[i-1] < math.MaxUint16 {
		h.vcnt[i-1]++
		return vals, true
	}
	if len(vals) >= MaxExactValues || (b != nil && b.left <= 0) {
		return vals, false
	}
	h.vcnt = insertAt(h.vcnt, i, 1)
	if b != nil {
		b.left--
	}
	return insertAt(vals, i, v), true
}

// widen moves the exact values from v32 to v64.
func (h *Hist) widen() {
	h.v64 = make([]int64, len(h.v32), cap(h.v32))
	for i, x := range h.v32 {
		h.v64[i] = int64(x)
	}
	h.v32, h.wide = nil, true
}

// exactVal is the i-th exact value.
func (h *Hist) exactVal(i int) int64 {
	if h.wide {
		return h.v64[i]
	}
	return int64(h.v32[i])
}

// upper is the index of the first element of s greater than v.
func upper[T int16 | int32 | int64](s []T, v T) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Quantile is the nearest-rank p-th percentile (p in 0..100; 0 for no
// samples): the ceil(p/100*n)-th smallest sample, at least the first.
func (h *Hist) Quantile(p int) int64 {
	if h.n == 0 {
		return 0
	}
	r := max((int64(p)*h.n+99)/100, 1)
	if r >= h.n {
		return h.max
	}
	if r == 1 {
		return h.min
	}
	var cum int64
	if !h.bucketed {
		for i, c := range h.vcnt {
			if cum += int64(c); cum >= r {
				return h.exactVal(i)
			}
		}
	}
	j := 0
	for i, k := range h.keys {
		if cum += int64(h.bucketCount(i, &j)); cum >= r {
			return min(max(bucketMid(k), h.min), h.max)
		}
	}
	return h.max // unreachable: the counts sum to n
}

// insertAt inserts v at s[i], growing a full s by an eighth (not append's
// doubling: the entries are most of a long run's memory).
func insertAt[T any](s []T, i int, v T) []T {
	if len(s) == cap(s) {
		n := make([]T, len(s)+1, len(s)+len(s)/8+4)
		copy(n, s[:i])
		n[i] = v
		copy(n[i+1:], s[i:])
		return n
	}
	s = s[:len(s)+1]
	copy(s[i+1:], s[i:len(s)-1])
	s[i] = v
	return s
}

// Summary is the report's latency summary of the samples.
func (h *Hist) Summary() Latency {
	if h.n == 0 {
		return Latency{}
	}
	return Latency{Count: h.n, Mean: h.sum / h.n, P50: h.Quantile(50), P90: h.Quantile(90),
		P99: h.Quantile(99), Max: h.max}
}
