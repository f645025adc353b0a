package report

// Durations as the tables, plots and summaries print them, on both sides
// of the worker boundary.

import (
	"math"
	"strconv"
)

// FormatDur renders ns compactly for tables and axes: 1.25ms, 830us, 2.5s.
func FormatDur(ns int64) string {
	a := math.Abs(float64(ns))
	f := func(v float64, unit string) string {
		prec := 0
		switch {
		case v < 10:
			prec = 2
		case v < 100:
			prec = 1
		}
		return strconv.FormatFloat(v, 'f', prec, 64) + unit
	}
	switch {
	case a >= 1e9:
		return f(float64(ns)/1e9, "s")
	case a >= 1e6:
		return f(float64(ns)/1e6, "ms")
	case a >= 1e3:
		return f(float64(ns)/1e3, "us")
	}
	return strconv.FormatInt(ns, 10) + "ns"
}
