// Package scenario is the versioned scenario format (docs/scenario-format.md):
// decoding with errors that name the JSON path and what was expected,
// `-set KEY=VALUE` overrides, the built-in presets, share-URL payloads, the
// workload generators (workloads.go, docs/workloads.md), and the
// translation into a sched.Config.
//
// The decoder is strict: unknown keys are errors, sizes are bounded, and no
// input panics (fuzzed by FuzzDecode).
package scenario
