package runner

// A job's result as it crosses the page: its measured values, bit for bit
// (NaN and infinities survive, which JSON numbers cannot carry), and the
// machine and kernel it ran ("topology X, kernel Y"). The pool holds it as
// an opaque string and hands every job's back in the Evaluate request, so
// the evaluating worker decodes a batch's results in one go: for the 900
// runs of seed/cluster-hybrid, a few hundred thousand values. The format is
// therefore plain text that needs no reflection to read (a JSON object of
// float bits took most of an evaluation's time) and no escaping inside the
// JSON array of the Evaluate request:
//
//	r1 <len>:<where> <count> then, per value in key order, <len>:<key><16 hex digits>
//
// Lengths are in bytes, so a key or place may hold any character; the
// keys are sorted, so the same values give the same bytes.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedplay/core/experiment"
)

const jobResultMagic = "r1 "

// encodeJobResult is a job's values v, run on where, as a result string.
func encodeJobResult(v experiment.Values, where string) string {
	keys := make([]string, 0, len(v))
	n := len(jobResultMagic) + len(where) + 16
	for k := range v {
		keys = append(keys, k)
		n += len(k) + 24
	}
	slices.Sort(keys)
	b := make([]byte, 0, n)
	b = append(b, jobResultMagic...)
	b = appendField(b, where)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(keys)), 10)
	b = append(b, ' ')
	for _, k := range keys {
		b = appendField(b, k)
		bits := math.Float64bits(v[k])
		for sh := 60; sh >= 0; sh -= 4 {
			b = append(b, "0123456789abcdef"[bits>>uint(sh)&15])
		}
	}
	return string(b)
}

func appendField(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// decodeJobResult reads a result string; an error says what was found
// where.
func decodeJobResult(s string) (experiment.Values, string, error) {
	r := resultReader{s: s}
	if !strings.HasPrefix(s, jobResultMagic) {
		return nil, "", fmt.Errorf("job result %.20q: not a result (want %q first)", s, jobResultMagic)
	}
	r.at = len(jobResultMagic)
	where := r.field()
	r.byte(' ')
	count := r.int(' ')
	if r.err != nil {
		return nil, "", r.err
	}
	if count < 0 || count > len(s) {
		return nil, "", fmt.Errorf("job result: %d values in %d bytes", count, len(s))
	}
	v := make(experiment.Values, count)
	for range count {
		k := r.field()
		bits := r.hex16()
		if r.err != nil {
			return nil, "", r.err
		}
		v[k] = math.Float64frombits(bits)
	}
	if r.at != len(s) {
		return nil, "", fmt.Errorf("job result: %d bytes after its %d values", len(s)-r.at, count)
	}
	return v, where, nil
}

// resultReader reads a result string from at; the first error stops it.
type resultReader struct {
	s   string
	at  int
	err error
}

func (r *resultReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("job result: byte %d: want %s", r.at, what)
	}
}

func (r *resultReader) byte(c byte) {
	if r.err == nil && (r.at >= len(r.s) || r.s[r.at] != c) {
		r.fail(strconv.QuoteRune(rune(c)))
	}
	r.at++
}

// int reads a decimal number ended by end.
func (r *resultReader) int(end byte) int {
	if r.err != nil {
		return 0
	}
	i := strings.IndexByte(r.s[min(r.at, len(r.s)):], end)
	if i < 0 {
		r.fail("a number and " + strconv.QuoteRune(rune(end)))
		return 0
	}
	n, err := strconv.Atoi(r.s[r.at : r.at+i])
	if err != nil || n < 0 {
		r.fail("a length")
		return 0
	}
	r.at += i + 1
	return n
}

// field reads <len>:<bytes>.
func (r *resultReader) field() string {
	n := r.int(':')
	if r.err != nil {
		return ""
	}
	if n > len(r.s)-r.at {
		r.fail(fmt.Sprintf("%d bytes", n))
		return ""
	}
	f := r.s[r.at : r.at+n]
	r.at += n
	return f
}

func (r *resultReader) hex16() uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.s)-r.at < 16 {
		r.fail("16 hex digits")
		return 0
	}
	x, err := strconv.ParseUint(r.s[r.at:r.at+16], 16, 64)
	if err != nil {
		r.fail("16 hex digits")
		return 0
	}
	r.at += 16
	return x
}
