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
// values into log-linear buckets (hist_buckets.go), 128 per power of two,
// and reports a percentile as its bucket's midpoint clamped to the
// samples' range: relative error below 2^-8 (0.39 %), none below 256 ns.
// Count, mean and max stay exact in both forms.
//
// Pooling ([Pool]: a task group, a cgroup, the whole run) is lossless:
// exact histograms pool into the exact histogram of all their samples,
// and a pool with any bucketed member is exactly the bucketed histogram
// of all the samples (bucket counts add).

import (
	"math"
	"slices"
)

// MaxExactValues bounds the distinct values one histogram keeps exactly
// (12 bytes each; an insertion moves at most this many entries).
const MaxExactValues = 4096

// DefaultExactEntries is the exact entries a Collector or a Samples lets
// all of its histograms keep together: about 1.5 MB per run.
const DefaultExactEntries = 1 << 17

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
	// vals (exact) or keys (bucketed) ascending, cnts parallel to them. A
	// value or key repeats only when its previous entry's count is full.
	vals []int64
	keys []int16
	cnts []uint32
}

// Count is the number of samples.
func (h *Hist) Count() int64 { return h.n }

// Exact reports whether the percentiles are exact.
func (h *Hist) Exact() bool { return !h.bucketed }

// Entries is the number of stored (value or bucket, count) entries.
func (h *Hist) Entries() int { return len(h.cnts) }

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
	i := upperInt64(h.vals, v)
	if i > 0 && h.vals[i-1] == v && h.cnts[i-1] < math.MaxUint32 {
		h.cnts[i-1]++
		return
	}
	if len(h.vals) >= MaxExactValues || (b != nil && b.left <= 0) {
		h.toBuckets(b)
		h.addKey(bucketKey(v), 1)
		return
	}
	h.vals = slices.Insert(h.vals, i, v)
	h.cnts = slices.Insert(h.cnts, i, 1)
	if b != nil {
		b.left--
	}
}

// upperInt64 is the index of the first element of s greater than v.
func upperInt64(s []int64, v int64) int {
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
	for i, c := range h.cnts {
		cum += int64(c)
		if cum >= r {
			if !h.bucketed {
				return h.vals[i]
			}
			return min(max(bucketMid(h.keys[i]), h.min), h.max)
		}
	}
	return h.max // unreachable: the counts sum to n
}

// Summary is the report's latency summary of the samples.
func (h *Hist) Summary() Latency {
	if h.n == 0 {
		return Latency{}
	}
	return Latency{Count: h.n, Mean: h.sum / h.n, P50: h.Quantile(50), P90: h.Quantile(90),
		P99: h.Quantile(99), Max: h.max}
}
