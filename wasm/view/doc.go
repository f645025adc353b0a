// Package view holds the browser playground's view models: everything the UI
// shows, built from the core's event stream, with no browser dependency so
// that it is tested on the host and under Node alike.
//
//   - [Timeline] is a sched.Sink that turns switch and wakeup events into
//     per-CPU slices, wakeup marks and runqueue-wait intervals, growing while
//     the run streams in.
//   - [Raster] draws a window of a timeline into an RGBA buffer with a level
//     of detail that samples each pixel column by binary search, so a redraw
//     costs O(width x lanes x log slices), not O(slices).
//   - [Run] drives one simulation in bounded chunks (the caller yields to the
//     browser between chunks) and bundles the consumers: timeline, metrics,
//     recorder for exports.
//   - Latency histograms and CDFs, utilisation over time, task colours.
//
// Non-goals: no DOM, no syscall/js, no wall clock. The UI (package main in
// wasm/) and the JS bridge (wasm/bridge) own those.
package view
