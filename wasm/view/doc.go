// Package view holds the browser page's view models: everything the UI
// shows, built from the event stream the engine sends (wasm/codec
// records), with no browser dependency so that it is tested on the host
// and under Node alike. It is page-only: the simulation worker never
// imports it (the engine's side is wasm/runner).
//
//   - [Timeline] is a sched.Sink that turns switch and wakeup events into
//     per-CPU slices, wakeup marks and runqueue-wait intervals, growing while
//     the run streams in.
//   - [Raster] draws a window of a timeline into an RGBA buffer with a level
//     of detail that samples each pixel column by binary search, so a redraw
//     costs O(width x lanes x log slices), not O(slices).
//   - [Run] is one run as the page holds it: the timeline fed batch by
//     batch (Ingest), the task table, the metrics report once it is done;
//     an imported trace is one too (trace.go).
//   - Level of detail and folds: per-pixel sampling indexes, utilisation
//     and busy time folded as the run streams in.
//   - Latency histograms and CDFs, utilisation over time, the A/B table,
//     the machine drawing's model, task colours.
//
// Non-goals: no DOM, no syscall/js, no wall clock. The UI (package main in
// wasm/) and the JS bridge (wasm/bridge) own those.
package view
