package main

// The profile behind wasm/worker/default.pgo (profile-guided optimisation,
// docs/engine.md "Speed under WASM"). `go build` and `go test` of this main
// package pick default.pgo up by themselves (-pgo=auto) and apply it to the
// package and everything it imports, so worker.wasm is compiled with the
// hot call sites inlined harder. The profile is taken natively: PGO keys on
// functions and call-site lines, which are the same for js/wasm.
//
// BenchmarkPGOProfile runs the worker's loop over the budget's scenario
// and a spread of presets (fair wakeups over pipes and sockets, fork and
// exec balancing, RT and deadline classes, idle and cross-CPU wakeups), so
// the profile is not that of the million-slice yielders alone. Regenerate
// with `make pgo-profile` after large changes to the engine; a stale
// profile only loses effect (the compiler ignores what no longer matches).

import (
	"testing"

	"schedplay/core/scenario"
)

// pgoPresets are the presets the profile runs besides the budget scenario.
var pgoPresets = []string{
	"demo/hackbench",
	"demo/kbuild",
	"demo/cyclictest-hackbench",
	"demo/pipe-pingpong-cross",
	"demo/periodic-vs-hog",
	"demo/deadline-cbs",
	"seed/nohz-pipe",
}

func BenchmarkPGOProfile(b *testing.B) {
	scenarios := [][]byte{benchScenario()}
	for _, name := range pgoPresets {
		sc, err := scenario.Preset(name)
		if err != nil {
			b.Fatal(err)
		}
		scenarios = append(scenarios, sc.Encode())
	}
	out := make([]byte, 0, 1<<20)
	var events int64
	for b.Loop() {
		for _, js := range scenarios {
			n, _ := runWorkerLoop(b, js, out)
			events += n
		}
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}
