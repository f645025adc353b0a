//go:build race

package sched

// raceEnabled: allocation counts are meaningless under the race detector.
const raceEnabled = true
