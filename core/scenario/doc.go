// Package scenario is the versioned scenario format (docs/scenario-format.md):
// decoding with errors that name the JSON path and what was expected,
// `-set KEY=VALUE` overrides, the built-in presets, share-URL payloads, the
// workload generators (workloads.go, docs/workloads.md), and the
// translation into a sched.Config.
//
// Every top-level and kernel key, and every family of keys (features.NAME,
// sysctl.NAME, hw.NAME, tasks.NAME.instances, workloads.NAME.PARAM), is one
// row of the key table (keys.go): the decoder, the encoder, Set, Clear,
// Keys and the playground's kernel panel read it.
//
// The decoder is strict: unknown keys are errors, sizes are bounded, and no
// input panics (fuzzed by FuzzDecode).
package scenario
