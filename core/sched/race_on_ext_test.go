//go:build race

package sched_test

// raceEnabled shortens the heaviest whole-preset runs under the race
// detector, which slows this event-dense code about tenfold.
const raceEnabled = true
