package metrics

// The log-linear buckets of a Hist (hist.go), HdrHistogram's layout with
// 2^subBits linear sub-buckets per power of two: magnitudes below
// 2^(subBits+1) have a bucket each; above, a magnitude u with
// 2^e <= u < 2^(e+1) falls in a bucket 2^(e-subBits) wide. Negative
// samples (a timer latency when the hrtimer fired early within its slack)
// mirror the positive ones. A bucket's key is a small signed integer,
// monotone in the value, so keys sort as the values do; |key| <= 3712.
//
// Pool (a task group, a cgroup, a run) merges histograms by sorting their
// entries once, not one merge per member.

import (
	"math"
	"math/bits"
	"slices"
)

// subBits sets the precision: 64 sub-buckets, relative width 2^-6, and
// the midpoint is within 2^-7 of every value of its bucket. (7 halves the
// error for a third more entries in a long run: docs/engine.md, Memory.)
const subBits = 6

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

// hiCount holds the bits above the low 16 of a bucket's count.
type hiCount struct {
	key int16
	n   uint64 // count >> 16
}

// addKey adds c samples to bucket k.
func (h *Hist) addKey(k int16, c uint64) {
	i := upper(h.keys, k)
	if i == 0 || h.keys[i-1] != k {
		h.keys = insertAt(h.keys, i, k)
		h.klo = insertAt(h.klo, i, 0)
		i++
	}
	h.carry(i-1, c)
}

// appendKey adds c samples to bucket k, which is at least the last key.
func (h *Hist) appendKey(k int16, c uint64) {
	if n := len(h.keys); n == 0 || h.keys[n-1] != k {
		h.keys = append(h.keys, k)
		h.klo = append(h.klo, 0)
	}
	h.carry(len(h.keys)-1, c)
}

// carry adds c to the count of entry i, moving what passes 16 bits to khi.
func (h *Hist) carry(i int, c uint64) {
	s := uint64(h.klo[i]) + c
	h.klo[i] = uint16(s)
	if s >>= 16; s == 0 {
		return
	}
	k := h.keys[i]
	j := 0
	for j < len(h.khi) && h.khi[j].key < k {
		j++
	}
	if j < len(h.khi) && h.khi[j].key == k {
		h.khi[j].n += s
		return
	}
	h.khi = insertAt(h.khi, j, hiCount{k, s})
}

// bucketCount is the count of entry i; *j walks khi alongside ascending i.
func (h *Hist) bucketCount(i int, j *int) uint64 {
	k := h.keys[i]
	for *j < len(h.khi) && h.khi[*j].key < k {
		*j++
	}
	c := uint64(h.klo[i])
	if *j < len(h.khi) && h.khi[*j].key == k {
		c += h.khi[*j].n << 16
	}
	return c
}

// toBuckets re-files the exact entries into buckets and gives them back
// to b.
func (h *Hist) toBuckets(b *Budget) {
	if h.bucketed {
		return
	}
	n := len(h.vcnt)
	h.keys, h.klo = make([]int16, 0, n), make([]uint16, 0, n)
	for i, c := range h.vcnt {
		h.appendKey(bucketKey(h.exactVal(i)), uint64(c))
	}
	if b != nil {
		b.left += n
	}
	h.v32, h.v64, h.vcnt, h.wide = nil, nil, nil, false
	h.keys, h.klo, h.bucketed = slices.Clip(h.keys), slices.Clip(h.klo), true
}

// Pool is the histogram of all the samples of hs (nil members are
// skipped): exact when every member is, without the bound of
// MaxExactValues (a pool is built once, after the run, and read, not
// added to); otherwise the bucketed histogram of all the samples.
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
		n += h.Entries()
	}
	if p.n == 0 {
		return p
	}
	type entry struct {
		v int64
		c uint64
	}
	es := make([]entry, 0, n)
	for _, h := range hs {
		if h == nil {
			continue
		}
		j := 0
		for i, k := range h.keys {
			es = append(es, entry{int64(k), h.bucketCount(i, &j)})
		}
		for i, c := range h.vcnt {
			if exact {
				es = append(es, entry{h.exactVal(i), uint64(c)})
			} else {
				es = append(es, entry{int64(bucketKey(h.exactVal(i))), uint64(c)})
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
	p.bucketed, p.wide = !exact, exact
	for _, e := range es {
		if !exact {
			p.appendKey(int16(e.v), e.c)
			continue
		}
		for c := e.c; c > 0; { // exact counts in entries of up to 2^16 - 1
			n := len(p.vcnt)
			if n > 0 && p.v64[n-1] == e.v && p.vcnt[n-1] < math.MaxUint16 {
				d := min(c, uint64(math.MaxUint16-p.vcnt[n-1]))
				p.vcnt[n-1] += uint16(d)
				c -= d
				continue
			}
			p.v64, p.vcnt = append(p.v64, e.v), append(p.vcnt, 0)
		}
	}
	return p
}
