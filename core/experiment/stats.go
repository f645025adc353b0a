package experiment

// Run-to-run statistics over the seeds of one configuration.

import (
	"math"
	"slices"
)

// Mean is the arithmetic mean of v (AMean in mmtests' tables); NaN for
// no values.
func Mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	// Shifted by the first value, so that equal values give exactly that
	// value (no rounding noise in a table of deterministic runs).
	var s float64
	for _, x := range v {
		s += x - v[0]
	}
	return v[0] + s/float64(len(v))
}

// Median is the middle value of v, or the mean of the two middle values
// when len(v) is even; NaN for no values.
func Median(v []float64) float64 {
	n := len(v)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Stddev is the sample standard deviation of v (divisor n-1, as mmtests'
// Stddev and hackbench reports use); 0 for fewer than two values.
func Stddev(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m := Mean(v)
	var ss float64
	for _, x := range v {
		d := x - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(v)-1))
}

// Center selects the statistic a table reports for a side.
type Center string

// Centers.
const (
	CenterMean   Center = "amean"  // arithmetic mean (AMean)
	CenterMedian Center = "median" // median
)

// Summary is the run-to-run summary of one metric on one side.
type Summary struct {
	Values []float64 // one per seed, in seed order
	Mean   float64
	Median float64
	Stddev float64
	// StddevPct is Stddev as a percentage of |Mean| (0 when Mean is 0).
	StddevPct float64
	Min, Max  float64
}

// Summarize computes the summary of v (at least one value).
func Summarize(v []float64) Summary {
	s := Summary{Values: slices.Clone(v), Mean: Mean(v), Median: Median(v), Stddev: Stddev(v),
		Min: slices.Min(v), Max: slices.Max(v)}
	if s.Mean != 0 {
		s.StddevPct = 100 * s.Stddev / math.Abs(s.Mean)
	}
	return s
}

// Of returns the summary's value under center c.
func (s Summary) Of(c Center) float64 {
	if c == CenterMedian {
		return s.Median
	}
	return s.Mean
}
