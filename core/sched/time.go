package sched

import "fmt"

// Time is simulated time in nanoseconds since the start of the run. It is
// also used for durations.
type Time int64

// Common durations.
const (
	Nanosecond  Time = 1
	Microsecond      = 1000 * Nanosecond
	Millisecond      = 1000 * Microsecond
	Second           = 1000 * Millisecond
)

// String renders t as seconds with nanosecond precision, e.g. "1.000250000s".
func (t Time) String() string {
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return fmt.Sprintf("%s%d.%09ds", sign, int64(t/Second), int64(t%Second))
}
