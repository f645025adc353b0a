//go:build race

package main

// raceEnabled: allocation counts are meaningless under the race detector.
const raceEnabled = true
