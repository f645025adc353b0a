package metrics

// The log-linear buckets of a Hist (hist.go), HdrHistogram's layout with
// 2^subBits linear sub-buckets per power of two: magnitudes below
// 2^(subBits+1) have a bucket each; above, a magnitude u with
// 2^e <= u < 2^(e+1) falls in a bucket 2^(e-subBits) wide. Negative
// samples (a timer latency when the hrtimer fired early within its slack)
// mirror the positive ones. A bucket's key is a small signed integer,
// monotone in the value, so keys sort as the values do; |key| < 7424.
//
// Pool (a task group, a cgroup, a run) merges histograms by sorting their
// entries once, not one merge per member.

import (
	"math"
	"math/bits"
	"slices"
)

// subBits sets the precision: 128 sub-buckets, relative width 2^-7, and
// the midpoint is within 2^-8 of every value of its bucket.
const subBits = 7

// bucketKey is the key of v's bucket.
func bucketKey(v int64) int16 {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	k := u
	if u >= 1<<subBits {
		sh := uint64(bits.Len64(u) - 1 - subBits)
		k = sh<<subBits + u>>sh
	}
	if v < 0 {
		return -int16(k)
	}
	return int16(k)
}

// bucketMid is the midpoint of bucket key's values, rounded toward zero.
func bucketMid(key int16) int64 {
	k := uint64(key)
	if key < 0 {
		k = uint64(-int64(key))
	}
	var sh uint64
	if k>>subBits > 1 {
		sh = k>>subBits - 1
	}
	lo := (k - sh<<subBits) << sh
	mid := min(lo+(uint64(1)<<sh-1)/2, math.MaxInt64)
	if key < 0 {
		return -int64(mid)
	}
	return int64(mid)
}

// upperInt16 is the index of the first element of s greater than k.
func upperInt16(s []int16, k int16) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] <= k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// addKey adds c samples to bucket k.
func (h *Hist) addKey(k int16, c uint32) {
	i := upperInt16(h.keys, k)
	if i > 0 && h.keys[i-1] == k && h.cnts[i-1] <= math.MaxUint32-c {
		h.cnts[i-1] += c
		return
	}
	h.keys = slices.Insert(h.keys, i, k)
	h.cnts = slices.Insert(h.cnts, i, c)
}

// toBuckets re-files the exact entries into buckets and gives them back
// to b.
func (h *Hist) toBuckets(b *Budget) {
	if h.bucketed {
		return
	}
	keys := make([]int16, 0, len(h.vals))
	cnts := make([]uint32, 0, len(h.vals))
	for i, v := range h.vals {
		keys, cnts = appendEntry(keys, cnts, bucketKey(v), h.cnts[i])
	}
	if b != nil {
		b.left += len(h.vals)
	}
	h.vals, h.keys, h.cnts, h.bucketed = nil, slices.Clip(keys), slices.Clip(cnts), true
}

// appendEntry appends (k, c) to ascending entries, adding to the last
// entry when it has key k and room.
func appendEntry[K int16 | int64](keys []K, cnts []uint32, k K, c uint32) ([]K, []uint32) {
	if n := len(keys); n > 0 && keys[n-1] == k && cnts[n-1] <= math.MaxUint32-c {
		cnts[n-1] += c
		return keys, cnts
	}
	return append(keys, k), append(cnts, c)
}

// Pool is the histogram of all the samples of hs (nil members are
// skipped): exact when every member is, without the bound of
// MaxExactValues (a pool is built once, after the run); otherwise the
// bucketed histogram of all the samples.
func Pool(hs ...*Hist) Hist {
	var p Hist
	exact, n := true, 0
	for _, h := range hs {
		if h == nil || h.n == 0 {
			continue
		}
		if p.n == 0 || h.min < p.min {
			p.min = h.min
		}
		if p.n == 0 || h.max > p.max {
			p.max = h.max
		}
		p.n += h.n
		p.sum += h.sum
		exact = exact && !h.bucketed
		n += len(h.cnts)
	}
	if p.n == 0 {
		return p
	}
	type entry struct {
		v int64
		c uint32
	}
	es := make([]entry, 0, n)
	for _, h := range hs {
		if h == nil {
			continue
		}
		for i, c := range h.cnts {
			switch {
			case h.bucketed:
				es = append(es, entry{int64(h.keys[i]), c})
			case exact:
				es = append(es, entry{h.vals[i], c})
			default:
				es = append(es, entry{int64(bucketKey(h.vals[i])), c})
			}
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if a.v < b.v {
			return -1
		}
		if a.v > b.v {
			return 1
		}
		return 0
	})
	p.bucketed = !exact
	for _, e := range es {
		if exact {
			p.vals, p.cnts = appendEntry(p.vals, p.cnts, e.v, e.c)
		} else {
			p.keys, p.cnts = appendEntry(p.keys, p.cnts, int16(e.v), e.c)
		}
	}
	return p
}
